import { describe, expect, test } from 'vitest'
import {
  cardCountsSeen,
  catalog,
  DESKTOP,
  gotoHydrated,
  PHONE,
  recordCardCounts,
  revealSentinel,
  plain,
  setupBrowser,
  topsAfterJumpingTo,
  WIDTHS,
  withoutIntersectionObserver,
  cop,
} from './browser.ts'
import { STORE } from './fixtures.ts'

const browser = setupBrowser()

const BADGES = ['Pago contra entrega', 'Contáctanos por WhatsApp', 'Envío gratis', 'Pagos seguros']

test('the banner shows a different image below 700 px', async () => {
  const loaded: Record<string, string> = {}
  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const carousel = page.getByRole('region', { name: 'Promociones' })
    const picture = carousel.locator('picture').first()
    expect(await picture.locator('source').getAttribute('media')).toBe('(max-width: 699px)')
    const image = picture.locator('img')
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeTruthy()
    loaded[name] = await image.evaluate((img: HTMLImageElement) => img.currentSrc)
    expect(loaded[name]).toMatch(/\/media\//)
    await page.close()
  }
  expect(loaded.phone).not.toBe(loaded.desktop)
})

describe.each(WIDTHS)('home on a $name', ({ viewport }) => {
  test('the four badges and the best sellers, most units out first', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const badges = page.getByRole('region', { name: 'Beneficios' })
    for (const title of BADGES) expect(await badges.getByText(title, { exact: true }).isVisible()).toBe(true)
    // Shipping costs 8.000 below the threshold: the badge says when it is free.
    expect(plain(await page.getByTestId('free-shipping-badge').textContent())).toContain(
      `En compras superiores a ${cop(STORE.freeShippingThreshold)}`,
    )

    const { visible } = catalog()
    const unitsOut = new Map(visible.map((product) => [product.sku, product.unitsOut]))
    const expected = visible
      .map((product) => product.unitsOut)
      .sort((a, b) => b - a)
      .slice(0, 4)
    const section = page.getByTestId('best-sellers')
    expect(await section.getByRole('heading', { name: 'Más vendidos' }).isVisible()).toBe(true)
    const skus = await section
      .getByTestId('product-card')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-sku')!))
    expect(skus).toHaveLength(4)
    expect(skus.map((sku) => unitsOut.get(sku))).toEqual(expected)
    await page.close()
  })

  test('"Seguro te gusta": 16 first, then 10 more on each "Cargar más productos"', async () => {
    const page = await browser.page(viewport)
    // Without the observer only the button can load more, so each press is seen on its own.
    await withoutIntersectionObserver(page)
    await gotoHydrated(page, '/')
    const section = page.getByTestId('you-may-like')
    expect(await section.getByRole('heading', { name: 'Seguro te gusta' }).isVisible()).toBe(true)
    const cards = section.getByTestId('product-card')
    expect(await cards.count()).toBe(16)
    const button = section.getByRole('button', { name: 'Cargar más productos' })
    // One control loads more: no second "Ver más productos" link beside the button.
    expect(await section.getByRole('link', { name: /más productos/ }).count()).toBe(0)
    expect(await section.getByText(/más productos/).count()).toBe(1)
    await button.click()
    await expect.poll(() => cards.count()).toBe(26)
    await button.click()
    await expect.poll(() => cards.count()).toBe(36)
    const skus = await cards.evaluateAll((all) => all.map((card) => card.getAttribute('data-sku')!))
    expect(new Set(skus).size).toBe(36)
    await page.close()
  })

  test('once the page is up, "Seguro te gusta" and its button stay put when scrolled to', async () => {
    const page = await browser.page(viewport)
    await withoutIntersectionObserver(page)
    await gotoHydrated(page, '/')
    const button = page.getByTestId('you-may-like').getByRole('button', { name: 'Cargar más productos' })
    const tops = await topsAfterJumpingTo(button)
    // A tap aimed at where the button first showed would miss it.
    expect(new Set(tops).size, `the button moved: ${tops.join(', ')}`).toBe(1)
    await page.close()
  })

  test('"Seguro te gusta": the sentinel loads 10 at a time until every listed product shows once', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const section = page.getByTestId('you-may-like')
    const cards = section.getByTestId('product-card')
    expect(await cards.count()).toBe(16)
    const sentinel = page.getByTestId('sentinel')
    expect(await sentinel.count()).toBe(1)
    await recordCardCounts(page, '[data-testid="you-may-like"]')

    const { visible, unlisted } = catalog()
    // Keep bringing the sentinel into view until it is gone: it exists only while more remain.
    await expect
      .poll(
        async () => {
          await revealSentinel(page)
          return cards.count()
        },
        { timeout: 20_000 },
      )
      .toBe(visible.length)
    await expect.poll(() => sentinel.count()).toBe(0)
    expect(await section.getByRole('button', { name: 'Cargar más productos' }).count()).toBe(0)

    // 16, 26, 36… : every load but the last brought exactly 10.
    const expected = [16]
    while (expected.at(-1)! < visible.length) expected.push(Math.min(expected.at(-1)! + 10, visible.length))
    expect(await cardCountsSeen(page)).toEqual(expected)

    const all = await cards.evaluateAll((list) => list.map((card) => card.getAttribute('data-sku')!))
    expect(new Set(all).size).toBe(all.length)
    expect([...all].sort()).toEqual(visible.map((product) => product.sku).sort())
    const hiddenOrSoldOut = new Set(unlisted)
    expect(all.filter((sku) => hiddenOrSoldOut.has(sku))).toEqual([])
    const best = await page
      .getByTestId('best-sellers')
      .getByTestId('product-card')
      .evaluateAll((list) => list.map((card) => card.getAttribute('data-sku')!))
    expect(best.filter((sku) => hiddenOrSoldOut.has(sku))).toEqual([])
    await page.close()
  })
})

test('the list is shuffled: two visits do not start with the same products', async () => {
  const orders: string[] = []
  for (let visit = 0; visit < 3; visit++) {
    const page = await browser.page(DESKTOP)
    await page.goto('/')
    orders.push(
      (
        await page
          .getByTestId('you-may-like')
          .getByTestId('product-card')
          .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-sku')))
      ).join(','),
    )
    await page.close()
  }
  expect(new Set(orders).size).toBeGreaterThan(1)
})
