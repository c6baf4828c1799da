import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { CODE_MESSAGES } from '#app/modules/promotions/messages.ts'
import {
  choosePlace,
  cop,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  setStoredCart,
  setupBrowser,
} from './browser.ts'
import { PROMO_FIXTURES, STORE } from './fixtures.ts'

/**
 * "Descuentos y Promociones" in the storefront, at both widths: a discount code applied in the cart
 * without JavaScript, its row, and an order that charges exactly the total shown; a refused code's
 * Spanish message; an automatic promotion's price and badge on its card and page and its row in the
 * cart; "lleve 3 pague 2". The forms are used as the server sent them (no waiting for hydration).
 */
const { automatic, threeForTwo, coded, code, expired, category } = PROMO_FIXTURES
const noScripts = setupBrowser(PHONE, { javaScriptEnabled: false })
const withScripts = setupBrowser(DESKTOP)

/** Each discount row of a summary, "{name} {amount}". */
const rows = async (page: Page, prefix: string) =>
  (
    await page
      .getByTestId(`${prefix}-discount`)
      .evaluateAll((cells) =>
        cells.map((cell) => `${cell.previousElementSibling?.textContent} ${cell.textContent}`),
      )
  ).map(plain)
const text = async (page: Page, testId: string) => plain(await page.getByTestId(testId).textContent())

describe('without JavaScript (390 px)', () => {
  test('a code applied in the cart shows its row; the checkout charges exactly the total shown', async () => {
    const page = await noScripts.page()
    await setStoredCart(page, [{ sku: coded.sku, quantity: 1 }])
    await page.goto('/carrito')
    await page.getByLabel('Código de descuento').fill(code.code.toLowerCase())
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Aplicar' }).click()])
    expect(await text(page, 'discount-code-note')).toBe(CODE_MESSAGES.applied(code.code))
    expect(await page.getByLabel('Código de descuento').inputValue()).toBe(code.code)
    // 50.000 less 10 %, and the shipping below the threshold.
    expect(await rows(page, 'cart')).toEqual([`${code.name} (${code.code}) -${cop(5000)}`])
    expect(await text(page, 'cart-total')).toBe(cop(45000 + STORE.shippingCost))
    await page.screenshot({ path: 'test-results/promotions-cart-code-phone.png', fullPage: true })

    await page.getByRole('link', { name: 'Finalizar pedido' }).click()
    await page.waitForURL((url) => url.pathname === '/finalizar-pedido')
    expect(await page.getByLabel('Código de descuento').inputValue()).toBe(code.code)
    expect(await rows(page, 'checkout')).toEqual([`${code.name} (${code.code}) -${cop(5000)}`])
    await page.getByLabel('Nombre').fill('Lucía')
    await page.getByLabel('Teléfono (WhatsApp)').fill('3007654321')
    await page.getByLabel('Dirección').fill('Calle 80 # 10-20')
    await choosePlace(page, 'Antioquia', 'Medellín')
    // The form shown again keeps the code and its row.
    expect(await rows(page, 'checkout')).toEqual([`${code.name} (${code.code}) -${cop(5000)}`])
    const shown = await text(page, 'checkout-total')
    expect(shown).toBe(cop(45000 + STORE.shippingCost))
    await page.getByLabel(/Autorizo el tratamiento/).check()
    await page.screenshot({ path: 'test-results/promotions-checkout-code-phone.png', fullPage: true })
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: 'Confirmar pedido' }).click(),
    ])
    await page.waitForURL((url) => url.pathname === '/finalizar-pedido/success')
    const summary = plain(await page.locator('main').textContent())
    expect(summary).toContain(shown)
    expect(summary).toContain(code.code)
  })

  test('a refused code says why in Spanish, and the cart keeps what was typed', async () => {
    const page = await noScripts.page()
    await setStoredCart(page, [{ sku: coded.sku, quantity: 1 }])
    await page.goto('/carrito')
    await page.getByLabel('Código de descuento').fill(expired.code)
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Aplicar' }).click()])
    const note = page.getByTestId('discount-code-note')
    expect(plain(await note.textContent())).toMatch(new RegExp(`^El código ${expired.code} venció el .+\\.$`))
    expect(await note.getAttribute('role')).toBe('alert')
    expect(await page.getByLabel('Código de descuento').inputValue()).toBe(expired.code)
    expect(await page.getByTestId('cart-discount').count()).toBe(0)

    await page.getByLabel('Código de descuento').fill('E2ENOEXISTE')
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Aplicar' }).click()])
    expect(await text(page, 'discount-code-note')).toBe(CODE_MESSAGES.unknown('E2ENOEXISTE'))
    await page.screenshot({ path: 'test-results/promotions-cart-refused-phone.png', fullPage: true })
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Quitar' }).click()])
    expect(await text(page, 'cart-notice')).toBe(CODE_MESSAGES.removed)
    expect(await page.getByLabel('Código de descuento').inputValue()).toBe('')
  })
})

describe('with JavaScript (1280 px)', () => {
  test('an automatic promotion: its price and badge on the card and page, its row in the cart', async () => {
    const page = await withScripts.page()
    await setStoredCart(page, [])
    await gotoHydrated(page, `/categoria/${category.id}`)
    const card = page.locator(`[data-testid="product-card"][data-sku="${automatic.sku}"]`)
    expect(await card.getByTestId('discount-badge').textContent()).toBe('-25%')
    expect(plain(await card.textContent())).toContain(cop(45000))
    await page.screenshot({ path: 'test-results/promotions-category-desktop.png' })
    await page.setViewportSize(PHONE)
    await page.screenshot({ path: 'test-results/promotions-category-phone.png' })
    await page.setViewportSize(DESKTOP)

    await gotoHydrated(page, `/producto/${automatic.sku}`)
    const main = plain(await page.locator('main').textContent())
    expect(main).toContain(cop(45000))
    expect(main).toMatch(/25% de descuento/)
    await page.getByRole('button', { name: 'Agregar al carrito' }).click()
    await gotoHydrated(page, '/carrito')
    // In the cart the line keeps its own price; the promotion is a row of its own.
    await expect.poll(() => rows(page, 'cart')).toEqual([`Aniversario E2E -${cop(15000)}`])
    expect(await text(page, 'cart-total')).toBe(cop(45000 + STORE.shippingCost))
    // A second unit: the page asks the server again for exactly these lines.
    await page.getByRole('button', { name: 'Aumentar cantidad' }).click()
    await expect.poll(() => rows(page, 'cart')).toEqual([`Aniversario E2E -${cop(30000)}`])
    // 120.000 before promotions is over the free-shipping threshold (judged before them).
    await expect.poll(() => text(page, 'cart-total')).toBe(cop(90000))
    await page.screenshot({ path: 'test-results/promotions-cart-automatic-desktop.png', fullPage: true })
  })

  test('"lleve 3 pague 2": its badge, and the third unit free in the cart', async () => {
    const page = await withScripts.page()
    await setStoredCart(page, [{ sku: threeForTwo.sku, quantity: 3 }])
    await gotoHydrated(page, `/producto/${threeForTwo.sku}`)
    expect(await text(page, 'buy-pay-badge')).toBe('Lleve 3 pague 2')
    await page.screenshot({ path: 'test-results/promotions-product-3x2-desktop.png' })
    await page.setViewportSize(PHONE)
    await page.screenshot({ path: 'test-results/promotions-product-3x2-phone.png' })
    await page.setViewportSize(DESKTOP)
    const search = await page.request.get(`/api/buscar?q=${encodeURIComponent(threeForTwo.name)}`)
    const { items } = (await search.json()) as { items: { sku: string; buyPay?: unknown }[] }
    expect(items.find((item) => item.sku === threeForTwo.sku)?.buyPay).toEqual({ buy: 3, pay: 2 })
    await gotoHydrated(page, '/carrito')
    await expect.poll(() => rows(page, 'cart')).toEqual([`3x2 Aretes E2E -${cop(20000)}`])
    expect(await text(page, 'cart-total')).toBe(cop(40000 + STORE.shippingCost))
    // With scripts, "Aplicar" answers in place too.
    await page.getByLabel('Código de descuento').fill('E2ENADA')
    await page.getByRole('button', { name: 'Aplicar' }).click()
    await expect.poll(() => text(page, 'discount-code-note')).toBe(CODE_MESSAGES.unknown('E2ENADA'))
    await page.screenshot({ path: 'test-results/promotions-cart-3x2-desktop.png', fullPage: true })
  })
})
