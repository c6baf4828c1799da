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
})
