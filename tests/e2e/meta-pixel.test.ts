import type { Page } from 'playwright-core'
import { describe, expect, inject, test } from 'vitest'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, serializeConsent } from '#app/modules/analytics/consent.ts'
import { STAFF_DEVICE_COOKIE } from '#app/modules/auth/staff-device.ts'
import { STAND_IN_PIXEL_ID } from '../stand-ins/meta.ts'
import { baseURL, DESKTOP, gotoHydrated, PHONE, setupBrowser, choosePlace } from './browser.ts'
import { FIXTURES } from './fixtures.ts'

/**
 * The Meta Pixel as a shopper meets it: nothing loads before consent; with advertising consent the
 * pixel script (a local stand-in of Meta's, see tests/stand-ins/meta.ts) loads, events carry an
 * eventID, and the shop's server sends the same event to the (stand-in) Conversions API.
 */

const browser = setupBrowser(PHONE)
const { shortName, metaPurchase } = FIXTURES
const metaOrigin = () => inject('metaStandIn')

type Seen = {
  received: { event: { event_name: string; event_id: string; user_data: Record<string, unknown> } }[]
  pixelHits: { event: string; eventId: string }[]
}
const seen = async (): Promise<Seen> => (await fetch(`${metaOrigin()}/__seen`)).json() as Promise<Seen>

const consentValue = (advertising: boolean) =>
  encodeURIComponent(serializeConsent({ analytics: false, advertising, version: CONSENT_POLICY_VERSION }))

async function withCookies(page: Page, cookies: Record<string, string>) {
  await page
    .context()
    .addCookies(Object.entries(cookies).map(([name, value]) => ({ name, value, url: baseURL() })))
}

/** Every URL the page asks for, and the bodies it posts to the shop's Meta endpoint. */
function watch(page: Page) {
  const urls: string[] = []
  const posted: { eventName: string; eventId: string }[] = []
  page.on('request', (request) => {
    urls.push(request.url())
    if (request.url().endsWith('/api/eventos-meta') && request.method() === 'POST')
      posted.push(JSON.parse(request.postData() ?? '{}') as { eventName: string; eventId: string })
  })
  return {
    urls,
    posted,
    pixelScriptRequested: () => urls.some((url) => url.startsWith(`${metaOrigin()}/fbevents.js`)),
    anyMetaRequest: () =>
      urls.some((url) => url.startsWith(metaOrigin()) || url.includes('/api/eventos-meta')),
  }
}

const pixelCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __pixelCalls?: unknown[][] }).__pixelCalls ?? [])

describe('Meta Pixel', () => {
  test('before consent, or with advertising refused, no pixel script and no event leave the browser', async () => {
    // No answer yet: the banner is up and nothing of Meta loads.
    const unanswered = await browser.page(DESKTOP)
    await unanswered.context().clearCookies()
    const before = watch(unanswered)
    await gotoHydrated(unanswered, `/producto/${shortName.sku}`)
    await unanswered.waitForTimeout(800)
    expect(before.anyMetaRequest()).toBe(false)
    await unanswered.close()

    // Advertising declined (how every browser test starts): shopping sends nothing to Meta.
    const page = await browser.page(DESKTOP)
    const traffic = watch(page)
    await gotoHydrated(page, `/producto/${shortName.sku}`)
    await page.getByRole('button', { name: 'Agregar al carrito' }).click()
    await page.getByRole('combobox', { name: 'Buscar productos' }).focus()
    await page.waitForTimeout(800)
    expect(traffic.anyMetaRequest()).toBe(false)
    expect(await page.evaluate(() => typeof (window as unknown as { fbq?: unknown }).fbq)).toBe('undefined')
  })

  test('staff browsers get no pixel even with consent', async () => {
    const page = await browser.page()
    await withCookies(page, { [CONSENT_COOKIE]: consentValue(true), [STAFF_DEVICE_COOKIE]: '1' })
    const traffic = watch(page)
    await gotoHydrated(page, `/producto/${shortName.sku}`)
    await page.getByRole('button', { name: 'Agregar al carrito' }).click()
    await page.waitForTimeout(800)
    expect(traffic.anyMetaRequest()).toBe(false)
  })

  test('with advertising consent: the pixel loads, AddToCart fires with an eventID, and Meta gets the same event from the server', async () => {
    const page = await browser.page()
    await withCookies(page, { [CONSENT_COOKIE]: consentValue(true), _fbp: 'fb.1.1700000000000.424242' })
    const traffic = watch(page)
    await gotoHydrated(page, `/producto/${shortName.sku}?fbclid=IwAR_e2e-Click1`)
    await expect.poll(traffic.pixelScriptRequested, { timeout: 10_000 }).toBe(true)
    await expect
      .poll(async () => (await pixelCalls(page)).map((call) => call.slice(0, 2).join(' ')), {
        timeout: 10_000,
      })
      .toEqual(expect.arrayContaining([`init ${STAND_IN_PIXEL_ID}`, 'track PageView']))

    await page.getByRole('button', { name: 'Agregar al carrito' }).click()
    await expect
      .poll(async () => (await pixelCalls(page)).some((call) => call[1] === 'AddToCart'), { timeout: 10_000 })
      .toBe(true)
    const addToCart = (await pixelCalls(page)).find((call) => call[1] === 'AddToCart')!
    const eventId = (addToCart[3] as { eventID: string }).eventID
    expect(eventId).toMatch(/^[0-9a-f-]{36}$/)
    expect(addToCart[2]).toMatchObject({
      content_ids: [shortName.sku],
      content_type: 'product',
      currency: 'COP',
      value: shortName.pesos,
    })
    // The browser told the shop's server the same event…
    await expect.poll(() => traffic.posted.map((p) => p.eventId), { timeout: 10_000 }).toContain(eventId)
    expect(traffic.posted.find((p) => p.eventId === eventId)?.eventName).toBe('AddToCart')
    // …and the server's job sent it to the Conversions API with that event_id and the browser's ids.
    await expect
      .poll(async () => (await seen()).received.some((r) => r.event.event_id === eventId), {
        timeout: 20_000,
      })
      .toBe(true)
    const sent = (await seen()).received.find((r) => r.event.event_id === eventId)!.event
    expect(sent.event_name).toBe('AddToCart')
    expect(sent.user_data).toMatchObject({
      fbp: 'fb.1.1700000000000.424242',
      fbc: expect.stringMatching(/^fb\.1\.\d{13}\.IwAR_e2e-Click1$/),
      client_ip_address: expect.stringMatching(/127\.0\.0\.1$/),
      client_user_agent: expect.stringContaining('Chrome'),
    })
  })

  test('accepting advertising on the page loads the pixel at once, without a reload', async () => {
    const page = await browser.page(DESKTOP)
    await page.context().clearCookies()
    const traffic = watch(page)
    await gotoHydrated(page, '/')
    await page.waitForTimeout(500)
    expect(traffic.pixelScriptRequested()).toBe(false)
    // The consent banner's "Aceptar todo" (its script sets the cookie and says so with CONSENT_CHANGE_EVENT).
    await page.getByRole('button', { name: 'Aceptar todo' }).click()
    await expect.poll(traffic.pixelScriptRequested, { timeout: 10_000 }).toBe(true)
    await page.getByRole('combobox', { name: 'Buscar productos' }).focus()
    await expect
      .poll(async () => (await pixelCalls(page)).some((call) => call[1] === 'Search'), { timeout: 10_000 })
      .toBe(true)
    // The WhatsApp button is Contact (its wa.me tab is closed at once: no internet here).
    page.context().on('page', (opened) => void opened.close())
    await page.getByTestId('whatsapp-button').click()
    await expect
      .poll(async () => (await pixelCalls(page)).some((call) => call[1] === 'Contact'), { timeout: 10_000 })
      .toBe(true)
    await expect
      .poll(() => traffic.posted.map((p) => p.eventName), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['Search', 'Contact']))
    // A page change inside the app is a PageView of its own.
    const pageViews = async () => (await pixelCalls(page)).filter((call) => call[1] === 'PageView').length
    const before = await pageViews()
    await page.getByRole('link', { name: 'Ir al carrito' }).click()
    await expect.poll(pageViews, { timeout: 10_000 }).toBe(before + 1)
  })

  test('a cash-on-delivery order: InitiateCheckout, then Purchase with the order number as eventID, and the server sends the same Purchase', async () => {
    const page = await browser.page(DESKTOP)
    await withCookies(page, { [CONSENT_COOKIE]: consentValue(true) })
    const traffic = watch(page)
    await gotoHydrated(page, `/producto/${metaPurchase.sku}`)
    await page.getByRole('button', { name: 'Agregar al carrito' }).click()
    await gotoHydrated(page, '/finalizar-pedido')
    await expect
      .poll(async () => (await pixelCalls(page)).some((call) => call[1] === 'InitiateCheckout'), {
        timeout: 10_000,
      })
      .toBe(true)
    await page.getByLabel('Nombre', { exact: false }).first().fill('José')
    await page.getByLabel('Apellido').fill('Ñúñez')
    await page.getByLabel('Teléfono (WhatsApp)').fill('3001234567')
    await page.getByLabel('Correo electrónico').fill('Ana.Perez@Example.com')
    await page.getByLabel('Dirección').fill('Calle 10 # 20-30')
    await choosePlace(page, 'Antioquia', 'Medellín')
    await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.waitForURL('**/finalizar-pedido/success?pedido=*')
    const number = await page.getByTestId('order-number').innerText()
    await expect
      .poll(async () => (await pixelCalls(page)).find((call) => call[1] === 'Purchase'), { timeout: 10_000 })
      .toEqual([
        'track',
        'Purchase',
        expect.objectContaining({ currency: 'COP', content_ids: [metaPurchase.sku] }),
        { eventID: number },
      ])
    // Purchase is the server's own, from the order: the browser does not post it.
    expect(traffic.posted.map((p) => p.eventName)).not.toContain('Purchase')
    // A reload of the success page does not give the pixel that Purchase again.
    await gotoHydrated(page, page.url().replace(baseURL(), ''))
    await expect
      .poll(async () => (await pixelCalls(page)).some((call) => call[1] === 'PageView'), { timeout: 10_000 })
      .toBe(true)
    await page.waitForTimeout(500)
    expect((await pixelCalls(page)).some((call) => call[1] === 'Purchase')).toBe(false)
    await expect
      .poll(async () => (await seen()).received.some((r) => r.event.event_id === number), { timeout: 20_000 })
      .toBe(true)
    const sent = (await seen()).received.find((r) => r.event.event_id === number)!.event
    expect(sent.event_name).toBe('Purchase')
    // printf '%s' ana.perez@example.com | sha256sum
    expect(sent.user_data.em).toEqual(['3c6c5c25f4b64020ae299c05c0e540df807d9aed7457b04b118cc234a6a58c6a'])
  })
})
