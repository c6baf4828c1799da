import { describe, expect, test } from 'vitest'
import { CAMPAIGN_COOKIE } from '#app/modules/analytics/campaign.ts'
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
 * Campaign attribution, as a shopper arrives from an Instagram link: they accept analytics in the
 * banner on the page they landed on, buy with cash on delivery, and "Ventas" shows the order under
 * the link's source, medium and campaign. At 390 px without JavaScript (the banner and checkout are
 * plain forms) and at 1280 px with it (the banner's script also says which site sent them). Each
 * run's campaign name is its own, so its row holds exactly its order.
 */
const admin = setupBrowser()
const TAG = Date.now().toString(36)

const WIDTHS = [
  { name: 'phone', viewport: PHONE, javaScriptEnabled: false },
  { name: 'desktop', viewport: DESKTOP, javaScriptEnabled: true },
] as const

describe.each(WIDTHS)('a shopper from an Instagram link ($name)', (width) => {
  const shopperBrowser = setupBrowser(width.viewport, {
    answeredConsent: false,
    javaScriptEnabled: width.javaScriptEnabled,
  })
  const campaign = `Navidad ${width.name} ${TAG}`

  test('accepts analytics where they landed; their order is counted under the campaign in Ventas', async () => {
    const page = await admin.page(width.viewport)
    const [sku] = await homeSkusInStock(page, 3)

    const shopper = await shopperBrowser.page()
    const landing = `/?utm_source=Instagram&utm_medium=social&utm_campaign=${encodeURIComponent(campaign)}`
    await shopper.goto(landing, { referer: 'https://l.instagram.com/' })
    if (width.javaScriptEnabled)
      await shopper.waitForFunction(() => document.documentElement.dataset.settled === 'true')
    // The very first page, before any answer: nothing is kept.
    expect((await shopperBrowser.context.cookies()).map((cookie) => cookie.name)).not.toContain(
      CAMPAIGN_COOKIE,
    )
    await shopper.getByRole('button', { name: 'Aceptar todo' }).click()
    await expect
      .poll(async () => (await shopperBrowser.context.cookies()).map((c) => c.name))
      .toContain(CAMPAIGN_COOKIE)
    await shopper.screenshot({ path: `test-results/campaign-landing-${width.name}.png` })

    // Another page of the visit, then the cart and the checkout.
    await shopper.goto(`/producto/${sku}`)
    await setStoredCart(shopper, [{ sku: sku!, quantity: 1 }])
    await shopper.goto('/carrito')
    const subtotal = await placeCashOnDeliveryOrder(shopper, { name: 'Valentina', phone: '3157778899' })

    await signInAsAdmin(page)
    await gotoHydrated(page, '/admin/ventas')
    const rows = page.getByTestId('sales-row-campaigns').filter({ hasText: campaign })
    await expect.poll(() => rows.count()).toBe(1)
    const row = rows.first()
    expect(plain(await row.locator('th').innerText())).toBe(
      width.javaScriptEnabled
        ? `instagram social · «${campaign}» · desde l.instagram.com`
        : `instagram social · «${campaign}»`,
    )
    expect(plain(await row.locator('[data-column="orders"]').innerText())).toBe('1')
    expect(plain(await row.locator('[data-column="revenue"]').innerText())).toBe(subtotal)
    await row.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `test-results/campaign-ventas-${width.name}.png`, fullPage: true })
  })
})
