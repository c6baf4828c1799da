import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { DRAFT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { signInAsAdmin } from './admin-session.ts'
import {
  DESKTOP,
  gotoHydrated,
  homeSkusInStock,
  PHONE,
  placeCashOnDeliveryOrder,
  plain,
  setStoredCart,
  setupBrowser,
} from './browser.ts'

/**
 * "Pedidos sin terminar" in Marketing, at 390 px and 1280 px: a shopper types their phone at
 * checkout, ticks the authorization and leaves — at 1280 with the page's scripts (kept as they
 * type), at 390 without them (kept when the form they sent comes back refused). The owner finds
 * them in Marketing with "Escribir por WhatsApp"; the link in that message, opened without scripts,
 * puts the products back in the cart; the order that follows shows the checkout as recovered.
 */
const admin = setupBrowser()
const WIDTHS = [
  { name: 'phone', viewport: PHONE, javaScriptEnabled: false },
  { name: 'desktop', viewport: DESKTOP, javaScriptEnabled: true },
] as const

const itemOf = (page: Page, phone: string) =>
  page.getByTestId('abandoned-checkout').filter({ hasText: phone })

describe.each(WIDTHS)('a checkout left and recovered ($name)', (width) => {
  const shopperBrowser = setupBrowser(width.viewport, { javaScriptEnabled: width.javaScriptEnabled })
  const comeBackBrowser = setupBrowser(width.viewport, { javaScriptEnabled: false })
  // A phone of this run's own: its draft and its order are only this test's.
  const phone = `31${String(Date.now() + (width.name === 'phone' ? 1 : 2)).slice(-8)}`

  test('typed, left, written to, recovered', async () => {
    const page = await admin.page(width.viewport)
    const [sku] = await homeSkusInStock(page, 3)

    const shopper = await shopperBrowser.page()
    await setStoredCart(shopper, [{ sku: sku!, quantity: 2 }])
    await (width.javaScriptEnabled
      ? gotoHydrated(shopper, '/finalizar-pedido')
      : shopper.goto('/finalizar-pedido'))
    await shopper.getByLabel('Nombre').fill('Camila')
    await shopper.getByLabel('Teléfono (WhatsApp)').fill(phone)
    await shopper.getByLabel(/Autorizo el tratamiento/).check()
    if (!width.javaScriptEnabled) {
      // Sent without the address: the form comes back refused, and what was typed is kept.
      await shopper.getByRole('button', { name: 'Confirmar pedido' }).click()
      await shopper.waitForLoadState('load')
    }

    await signInAsAdmin(page)
    // Left a moment ago: listed only with the recent ones (they may still be buying).
    await gotoHydrated(page, '/admin/marketing?recientes=1')
    await expect
      .poll(
        async () => {
          await gotoHydrated(page, '/admin/marketing?recientes=1')
          return itemOf(page, phone).count()
        },
        { timeout: 15_000 },
      )
      .toBe(1)
    const item = itemOf(page, phone)
    expect(plain(await item.innerText())).toContain('Camila')
    expect(plain(await item.innerText())).toContain('2 ×')
    const whatsapp = (await item.getByRole('link', { name: 'Escribir por WhatsApp' }).getAttribute('href'))!
    const url = new URL(whatsapp)
    expect(`${url.origin}${url.pathname}`).toBe(`https://wa.me/57${phone}`)
    const message = url.searchParams.get('text')!
    expect(message).toMatch(
      /^Hola Camila, te escribimos de .+ Vimos que dejaste tu pedido sin terminar \(2 × /,
    )
    const link = message.match(/https?:\/\/\S+\/carrito\/recuperar\/[\w-]+/)![0]
    await item.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `test-results/abandoned-checkouts-${width.name}.png`, fullPage: true })

    await gotoHydrated(page, '/admin/marketing')
    expect(await itemOf(page, phone).count()).toBe(0)

    // The shopper opens the link on another browser, without scripts: the cart holds the products.
    const back = await comeBackBrowser.page()
    await back.goto(new URL(link).pathname)
    await back.waitForURL((address) => address.pathname === '/carrito')
    expect(plain(await back.getByTestId('cart-notice').innerText())).toBe(DRAFT_MESSAGES.recovered)
    await expect.poll(() => back.locator(`[data-testid="cart-line"][data-sku="${sku}"]`).count()).toBe(1)
    await back.screenshot({ path: `test-results/abandoned-recovered-cart-${width.name}.png`, fullPage: true })

    // And finishes the order with the same phone.
    await placeCashOnDeliveryOrder(back, { name: 'Camila', phone })

    await gotoHydrated(page, '/admin/marketing?recientes=1')
    expect(plain(await itemOf(page, phone).getByTestId('abandoned-recovered').innerText())).toMatch(
      /^Recuperado: pedido #\d+ por \$/,
    )
  })
})
