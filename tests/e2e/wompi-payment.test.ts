import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { stockedProduct } from '#tests/orders.ts'
import { startWompiStandIn, type WompiStandIn } from '#tests/stand-ins/wompi.ts'
import {
  baseURL,
  choosePlace,
  declinedConsentCookie,
  DESKTOP,
  homeSkusInStock,
  PHONE,
  setStoredCart,
  setupBrowser,
} from './browser.ts'
import { startOwnServer, type OwnServer } from './own-server.ts'

/**
 * Paying with Wompi as a shopper does, on a shop of this file's own whose WOMPI_* point at the local
 * Wompi: the checkout form (scripts or none) sends the shopper to Wompi's page with a signed link
 * (the Content-Security-Policy lets the form go exactly there); approved comes back "¡Pago
 * Exitoso!" and pagado, declined offers to pay again, pending waits until Wompi's event settles it.
 * Without Wompi keys, the shared shop's simulated Wompi page plays the same part.
 */

const OWNER = 'duena@vitrina.test'
const SHOTS = 'test-results/wompi-payment'
const browser = setupBrowser(PHONE)
const noScripts = setupBrowser(PHONE, { javaScriptEnabled: false })
let server: OwnServer | undefined
let wompi: WompiStandIn | undefined
let base = ''
const skus: string[] = []

beforeAll(async () => {
  wompi = await startWompiStandIn()
  server = await startOwnServer({
    name: 'wompi',
    owner: OWNER,
    env: {
      WOMPI_PUBLIC_KEY: wompi.keys.publicKey,
      WOMPI_PRIVATE_KEY: wompi.keys.privateKey,
      WOMPI_INTEGRITY_SECRET: wompi.keys.integritySecret,
      WOMPI_EVENTS_SECRET: wompi.keys.eventsSecret,
      WOMPI_API_URL: wompi.url,
      WOMPI_CHECKOUT_URL: wompi.checkoutUrl,
    },
    async seed(db) {
      for (let i = 0; i < 5; i++) skus.push((await stockedProduct(db, 5)).sku)
    },
  })
  base = server.base
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await wompi?.stop()
})

/** Fills the checkout as a shopper in Medellín paying with Wompi, and confirms. */
async function confirmWithWompi(page: Page) {
  await page.getByLabel('Nombre', { exact: false }).first().fill('Ana')
  await page.getByLabel('Teléfono (WhatsApp)').fill('3001234567')
  await page.getByLabel('Correo electrónico').fill('ana@example.com')
  await page.getByLabel('Dirección').fill('Calle 10 # 20-30')
  await choosePlace(page, 'Antioquia', 'Medellín')
  await page.getByLabel(/con Wompi/).check()
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
}

/** A shopper of this file's shop with one unit of the `index`th product in the cart, on the checkout. */
async function atCheckout(page: Page, index: number) {
  // The events Wompi posts reach this file's shop.
  wompi!.sendEventsTo(`${base}/api/webhooks/wompi`)
  await page.context().addCookies([declinedConsentCookie(base)])
  await setStoredCart(page, [{ sku: skus[index]!, quantity: 1 }], base)
  await page.goto(`${base}/finalizar-pedido`)
}

async function onWompi(page: Page) {
  await page.waitForURL((url) => url.href.startsWith(wompi!.checkoutUrl))
  await page.getByRole('heading', { name: 'Paga con Wompi' }).waitFor()
}

describe('Wompi through its checkout page', () => {
  test('approved: from the form to Wompi and back, "¡Pago Exitoso!" and the order paid', async () => {
    const page = await browser.page()
    await atCheckout(page, 0)
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await confirmWithWompi(page)
    await onWompi(page)
    expect(await page.locator('body').innerText()).toMatch(/Total \$/)
    await page.getByRole('button', { name: 'Pagar con Nequi' }).click()
    await page.waitForURL(`${base}/finalizar-pedido/success?**`)
    await page.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
    expect(await page.getByTestId('order-status').innerText()).toBe('pagado')
    await page.screenshot({ path: `${SHOTS}/aprobado-390.png`, fullPage: true })
  })

  test('declined: "¡Error en el Pago!", the units still held, and paying again works', async () => {
    const page = await browser.page(DESKTOP)
    await atCheckout(page, 1)
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await confirmWithWompi(page)
    await onWompi(page)
    await page.getByRole('button', { name: 'Simular pago rechazado' }).click()
    await page.waitForURL(`${base}/finalizar-pedido/failure?**`)
    await page.getByRole('heading', { name: '¡Error en el Pago!' }).waitFor()
    expect(await page.getByTestId('order-status').innerText()).toBe('pendiente de pago')
    await page.screenshot({ path: `${SHOTS}/rechazado-1280.png`, fullPage: true })
    await page.getByRole('button', { name: 'Intentar pagar de nuevo' }).click()
    await onWompi(page)
    await page.getByRole('button', { name: 'Pagar con Nequi' }).click()
    await page.waitForURL(`${base}/finalizar-pedido/success?**`)
    expect(await page.getByTestId('order-status').innerText()).toBe('pagado')
  })

  test('pending: "Pago Pendiente", then Wompi’s event pays the order', async () => {
    const page = await browser.page()
    await atCheckout(page, 2)
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await confirmWithWompi(page)
    await onWompi(page)
    await page.getByRole('button', { name: 'Simular pago pendiente' }).click()
    await page.waitForURL(`${base}/finalizar-pedido/pending?**`)
    await page.getByRole('heading', { name: 'Pago Pendiente' }).waitFor()
    expect(await page.getByTestId('order-status').innerText()).toBe('pendiente de pago')
    // The bank answers: Wompi approves the transaction and posts its event.
    const transaction = [...wompi!.transactions.values()].find((t) => t.status === 'PENDING')!
    wompi!.settle(transaction.id, 'APPROVED')
    expect(await wompi!.sendEvent(transaction)).toBe(200)
    await expect
      .poll(
        async () => {
          await page.reload()
          return page.getByTestId('order-status').innerText()
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe('pagado')
  })

  test('without the page’s scripts, the checkout form still sends the shopper to Wompi', async () => {
    const page = await noScripts.page()
    await atCheckout(page, 3)
    await confirmWithWompi(page)
    await onWompi(page)
    await page.getByRole('button', { name: 'Pagar con Nequi' }).click()
    await page.waitForURL(`${base}/finalizar-pedido/success?**`)
    expect(await page.getByTestId('order-status').innerText()).toBe('pagado')
  })
})

describe('Wompi simulated on a shop without its keys', () => {
  test('the local Wompi page takes the signed link, approves, and the order is paid', async () => {
    const page = await browser.page()
    const [sku] = await homeSkusInStock(page)
    await setStoredCart(page, [{ sku: sku!, quantity: 1 }])
    await page.goto(`${baseURL()}/finalizar-pedido`)
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await confirmWithWompi(page)
    await page.waitForURL('**/pago-simulado-wompi?**')
    await page.getByRole('heading', { name: 'Pago simulado con Wompi' }).waitFor()
    const link = new URL(page.url())
    await page.screenshot({ path: `${SHOTS}/simulado-390.png`, fullPage: true })
    await page.getByRole('button', { name: 'Aprobar pago' }).click()
    await page.waitForURL('**/finalizar-pedido/success?**')
    await page.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
    expect(await page.getByTestId('order-status').innerText()).toBe('pagado')
    // A link whose amount was changed is refused, as Wompi refuses it.
    link.searchParams.set('amount-in-cents', '100')
    const refused = await page.goto(link.href)
    expect(refused?.status()).toBe(400)
    expect(await page.locator('body').innerText()).toContain('firma de integridad')
  })
})
