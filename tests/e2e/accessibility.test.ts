import { describe, expect, test } from 'vitest'
import { categoryPath } from '#app/utils/paths.ts'
import { catalog, gotoHydrated, seriousViolations, startWithCart, setupBrowser, WIDTHS } from './browser.ts'
import { signInAsAdmin } from './admin-session.ts'
import { FIXTURES } from './fixtures.ts'

const browser = setupBrowser()

describe.each(WIDTHS)('accessibility on a $name', ({ viewport }) => {
  test('home, category, product and cart have no serious or critical axe violations', async () => {
    const page = await browser.page(viewport)
    await startWithCart(page, [
      { sku: FIXTURES.discounted.sku, quantity: 1 },
      { sku: catalog().videoSku, quantity: 1 },
    ])
    const pages = [
      '/',
      categoryPath(FIXTURES.category),
      `/producto/${catalog().videoSku}`,
      `/producto/${FIXTURES.discounted.sku}`,
      '/carrito',
    ]
    for (const path of pages) {
      await gotoHydrated(page, path)
      if (path === '/carrito') await expect.poll(() => page.getByTestId('cart-line').count()).toBe(2)
      expect(await seriousViolations(page), path).toEqual([])
    }
    await page.close()
  })

  test('the back office home, Ventas, Reportes and Configuraciones have no serious or critical axe violations', async () => {
    const page = await browser.page(viewport)
    await signInAsAdmin(page)
    for (const path of ['/admin', '/admin/ventas', '/admin/reportes', '/admin/configuraciones']) {
      await gotoHydrated(page, path)
      expect(await seriousViolations(page), path).toEqual([])
    }
    await page.close()
  })

  test('the search button is a finger-sized target and category and search pages skip no heading level', async () => {
    const page = await browser.page(viewport)
    for (const path of [categoryPath(FIXTURES.category), '/buscar?q=collar']) {
      await gotoHydrated(page, path)
      const button = await page.getByRole('button', { name: 'Buscar', exact: true }).boundingBox()
      expect(Math.min(button!.width, button!.height), path).toBeGreaterThanOrEqual(24)
      const levels = await page
        .locator('main h1, main h2, main h3, main h4')
        .evaluateAll((headings) => headings.map((heading) => Number(heading.tagName.slice(1))))
      const skips = levels.filter((level, i) => i > 0 && level > levels[i - 1]! + 1)
      expect(skips, `${path}: ${levels.join(' ')}`).toEqual([])
    }
    await page.close()
  })
})
