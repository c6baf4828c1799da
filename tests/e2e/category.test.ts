import { describe, expect, test } from 'vitest'
import { categoryPath } from '#app/utils/paths.ts'
import {
  cardCountsSeen,
  gotoHydrated,
  recordCardCounts,
  revealSentinel,
  setupBrowser,
  topsAfterJumpingTo,
  WIDTHS,
  withoutIntersectionObserver,
} from './browser.ts'
import { BULK_NAME, FIXTURES } from './fixtures.ts'

const browser = setupBrowser()

describe.each(WIDTHS)('category page on a $name', ({ viewport }) => {
  test('20 products first, then 10 more each time the bottom sentinel appears', async () => {
    const page = await browser.page(viewport)
    const response = await gotoHydrated(page, categoryPath(FIXTURES.bulkCategory))
    expect(response?.status()).toBe(200)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(FIXTURES.bulkCategory.name)
    const cards = page.getByTestId('product-card')
    expect(await cards.count()).toBe(20)
    const sentinel = page.getByTestId('sentinel')
    expect(await sentinel.count()).toBe(1)
    await recordCardCounts(page, 'main')

    await revealSentinel(page)
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(30)
    // 34 products: 20, then 30, then 34, and the sentinel goes once none remain.
    await expect
      .poll(async () => {
        await revealSentinel(page)
        return cards.count()
      })
      .toBe(FIXTURES.bulkCategory.products)
    await expect.poll(() => sentinel.count()).toBe(0)
    expect(await cardCountsSeen(page)).toEqual([20, 30, 34])

    const names = await cards.locator('h3').evaluateAll((all) => all.map((h) => h.getAttribute('title')))
    const expected = Array.from({ length: FIXTURES.bulkCategory.products }, (_, i) => BULK_NAME(i + 1))
    expect(new Set(names).size).toBe(names.length)
    expect([...names].sort()).toEqual(expected.sort())
    await page.close()
  })

  test('once the page is up, its cards and "Ver más productos" stay put when scrolled to', async () => {
    const page = await browser.page(viewport)
    await withoutIntersectionObserver(page)
    await gotoHydrated(page, categoryPath(FIXTURES.bulkCategory))
    const tops = await topsAfterJumpingTo(page.getByTestId('sentinel'))
    expect(new Set(tops).size, `the link moved: ${tops.join(', ')}`).toBe(1)
    await page.close()
  })

  test('an empty category says "No hay productos"', async () => {
    const page = await browser.page(viewport)
    const response = await gotoHydrated(page, categoryPath(FIXTURES.emptyCategory))
    expect(response?.status()).toBe(200)
    expect(await page.getByText('No hay productos', { exact: true }).isVisible()).toBe(true)
    expect(await page.getByTestId('product-card').count()).toBe(0)
    expect(await page.getByTestId('sentinel').count()).toBe(0)
    await page.close()
  })

  test('a category lists only products with stock and retail visibility', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, categoryPath(FIXTURES.category))
    const skus = await page
      .getByTestId('product-card')
      .evaluateAll((all) => all.map((card) => card.getAttribute('data-sku')))
    expect([...skus].sort()).toEqual(
      [FIXTURES.discounted.sku, FIXTURES.single.sku, FIXTURES.shortName.sku].sort(),
    )
    await page.close()
  })

  test('an unknown category id is a 404', async () => {
    const page = await browser.page(viewport)
    const response = await gotoHydrated(page, '/categoria/Categoria_NOEXISTE/Nada')
    expect(response?.status()).toBe(404)
    expect(await page.getByText('Esta página no existe.').isVisible()).toBe(true)
    expect(await page.title()).toBe('Página no encontrada')
    expect(await page.getByRole('link', { name: 'Ir a Inicio' }).isVisible()).toBe(true)
    await page.close()
  })
})
