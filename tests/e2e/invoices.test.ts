import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { INVOICE_DESK_MESSAGES } from '#app/modules/invoicing/messages.ts'
import { CLAIM_MESSAGES } from '#app/modules/order/claims.ts'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { stockedProduct } from '#tests/orders.ts'
import { startFactusStandIn, type FactusStandIn } from '#tests/stand-ins/factus.ts'
import { acceptNextDialog, expectMessage } from './admin-session.ts'
import {
  choosePlace,
  collectErrors,
  declinedConsentCookie,
  DESKTOP,
  gotoHydrated,
  plain,
  setStoredCart,
  setupBrowser,
} from './browser.ts'
import { startOwnServer, type OwnServer } from './own-server.ts'

/**
 * Every sale gets its DIAN electronic invoice, and a return its credit note, on a shop of this
 * file's own whose FACTUS_* point at the local Factus: an order paid online through the simulated
 * payment page is invoiced (number and CUFE on the desk, the PDF through our route), delivered,
 * withdrawn by the buyer on their order page (retracto), accepted at the desk, and credited.
 */

const OWNER = 'duena@vitrina.test'
const SHOTS = 'test-results/invoices'
const browser = setupBrowser(DESKTOP)
let server: OwnServer | undefined
let factus: FactusStandIn | undefined
let base = ''
let sku = ''
let sessionCookie = { name: '', value: '' }

beforeAll(async () => {
  factus = await startFactusStandIn()
  server = await startOwnServer({
    name: 'facturas',
    owner: OWNER,
    env: {
      FACTUS_API_URL: factus.url,
      FACTUS_CLIENT_ID: factus.credentials.clientId,
      FACTUS_CLIENT_SECRET: factus.credentials.clientSecret,
      FACTUS_USERNAME: factus.credentials.username,
      FACTUS_PASSWORD: factus.credentials.password,
      FACTUS_NUMBERING_RANGE_ID: String(factus.numberingRangeId),
      FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID: String(factus.creditNoteNumberingRangeId),
    },
    async seed(db) {
      sku = (await stockedProduct(db, 5)).sku
    },
  })
  base = server.base
  sessionCookie = server.ownerCookie
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await factus?.stop()
})

/** A shopper on this file's server who already declined the consent banner, with `lines` in the cart. */
async function shopperWithCart(lines: { sku: string; quantity: number }[]) {
  const page = await browser.page()
  await page.context().addCookies([declinedConsentCookie(base)])
  await setStoredCart(page, lines, base)
  return page
}

/** Reloads the desk until `testId` shows up in the invoice section (a job writes it). */
async function waitOnDesk(page: Page, orderId: string, testId: string) {
  let seen = ''
  const shown = async () => {
    await gotoHydrated(page, `${base}/admin/pedidos/detalle/${orderId}`)
    seen = plain(await page.locator('main').innerText())
    return page.getByTestId(testId).count()
  }
  try {
    await expect.poll(shown, { timeout: 30_000, interval: 1_000 }).toBe(1)
  } catch (error) {
    throw new Error(`No apareció ${testId}. Página: «${seen}». Servidor: ${server?.output().slice(-3000)}`, {
      cause: error,
    })
  }
}

test('paid online: invoiced; delivered, withdrawn and accepted: credited', async () => {
  const page = await shopperWithCart([{ sku, quantity: 1 }])
  const errors = collectErrors(page)

  // The buyer pays online on the simulated payment page.
  await gotoHydrated(page, `${base}/finalizar-pedido`)
  await page.getByLabel('Nombre', { exact: false }).first().fill('Camila')
  await page.getByLabel('Apellido').fill('Rojas')
  await page.getByLabel('Número de identificación').fill('1020304050')
  await page.getByLabel('Teléfono (WhatsApp)').fill('3105556677')
  await page.getByLabel('Correo electrónico').fill('camila@example.co')
  await page.getByLabel('Dirección').fill('Carrera 7 # 71-21')
  await choosePlace(page, 'Bogotá D.C.', 'Bogotá, D.C.')
  await page.getByLabel(/Pago en línea con Mercado Pago/).check()
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
  await page.waitForURL('**/pago-simulado/**')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await page.getByRole('button', { name: 'Aprobar pago' }).click()
  await page.waitForURL('**/finalizar-pedido/success?**')
  // Back from the payment page with Mercado Pago's parameters: the order is its external_reference.
  const returned = new URL(page.url()).searchParams
  const orderId = (returned.get('pedido') ?? returned.get('external_reference'))!
  expect(orderId).toBeTruthy()
  await expect
    .poll(() => page.getByTestId('order-status').innerText(), { timeout: 20_000, interval: 500 })
    .toBe('pagado')
  const statusLink = await page.getByRole('link', { name: 'Sigue tu pedido aquí' }).getAttribute('href')
  expect(statusLink).toMatch(/^\/pedido\/\d+\?clave=/)

  // The owner sees the invoice on the desk: its number and CUFE, and its PDF through our route.
  await page.context().addCookies([{ ...sessionCookie, url: base }])
  await waitOnDesk(page, orderId, 'invoice')
  const bill = factus!.bills.at(-1)!
  expect(bill.referenceCode).toBe(orderId)
  const section = page.getByTestId('order-invoice')
  expect(await section.getByTestId('invoice-number').innerText()).toBe(bill.number)
  expect(await section.getByTestId('invoice-code').innerText()).toBe(bill.cufe)
  expect(await section.getByRole('button', { name: 'Emitir factura' }).count()).toBe(0)
  expect(await section.getByRole('link', { name: 'Ver PDF' }).getAttribute('href')).toBe(
    `/admin/pedidos/factura/${orderId}/pdf`,
  )
  const pdf = await page.request.get(`${base}/admin/pedidos/factura/${orderId}/pdf`)
  expect(pdf.status()).toBe(200)
  expect(pdf.headers()['content-type']).toBe('application/pdf')
  expect(await pdf.text()).toBe(`pdf de ${bill.number}`)
  expect(factus!.emails).toEqual([{ number: bill.number, email: 'camila@example.co' }])
  await section.screenshot({ path: `${SHOTS}/invoice-issued.png` })

  // Delivered: an online order is not invoiced a second time.
  const dialog = acceptNextDialog(page)
  await page.getByRole('button', { name: 'Completado', exact: true }).click()
  expect(await dialog).toBe('Va a cambiar el estado del pedido a: Completado')
  await expectMessage(page, ORDER_DESK_MESSAGES.completed)

  // The buyer withdraws on their order page (the same day as delivery counts), where the invoice is.
  await gotoHydrated(page, `${base}${statusLink}`)
  expect(await page.getByTestId('buyer-invoice').innerText()).toBe(
    `Factura electrónica ${bill.number}: ver PDF`,
  )
  const buyerPdf = await page.request.get(
    `${base}${await page.getByTestId('buyer-invoice').getByRole('link').getAttribute('href')}`,
  )
  expect(buyerPdf.headers()['content-type']).toBe('application/pdf')
  expect(await buyerPdf.text()).toBe(`pdf de ${bill.number}`)
  // Without the order's key there is no file.
  const withoutKey = `${base}${new URL(statusLink!, base).pathname}/factura`
  expect((await page.request.get(withoutKey)).status()).toBe(404)
  await page.getByRole('button', { name: 'Solicitar retracto' }).click()
  await page
    .getByTestId('order-page-message')
    .and(page.getByText(CLAIM_MESSAGES.retractoRequested, { exact: true }))
    .waitFor()

  // The owner accepts it; the credit note follows.
  await gotoHydrated(page, `${base}/admin/pedidos/detalle/${orderId}`)
  const claims = page.getByTestId('order-claims')
  await claims.getByRole('button', { name: /^Aceptar/ }).click()
  await expectMessage(page, CLAIM_MESSAGES.accepted)
  await waitOnDesk(page, orderId, 'credit-note')
  const note = factus!.creditNotes.at(-1)!
  expect(note.referenceCode).toBe(`nc-${orderId}`)
  expect(note.bill.number).toBe(bill.number)
  expect(note.body.correction_concept_code).toBe(1) // devolución
  expect(await section.getByTestId('credit-note-number').innerText()).toBe(note.number)
  expect(await section.getByTestId('credit-note-code').innerText()).toBe(note.cude)
  expect(factus!.bills).toHaveLength(1)
  const timeline = plain(await page.getByTestId('order-timeline').innerText())
  expect(timeline).toContain(`Factura electrónica ${bill.number} emitida`)
  expect(timeline).toContain(`Nota crédito ${note.number} emitida para la factura ${bill.number}`)
  await section.screenshot({ path: `${SHOTS}/credit-note-issued.png` })
  expect(errors).toEqual([])
}, 180_000)

test('"Emitir factura" on the desk: a cash-on-delivery order is invoiced before delivery on request', async () => {
  const page = await shopperWithCart([{ sku, quantity: 1 }])
  await gotoHydrated(page, `${base}/finalizar-pedido`)
  await page.getByLabel('Nombre', { exact: false }).first().fill('Jorge')
  await page.getByLabel('Apellido').fill('Pérez')
  await page.getByLabel('Teléfono (WhatsApp)').fill('3105556688')
  await page.getByLabel('Dirección').fill('Calle 10 # 43-12')
  await choosePlace(page, 'Antioquia', 'Medellín')
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
  await page.waitForURL('**/finalizar-pedido/success?pedido=*')
  const orderId = new URL(page.url()).searchParams.get('pedido')!

  await page.context().addCookies([{ ...sessionCookie, url: base }])
  await gotoHydrated(page, `${base}/admin/pedidos/detalle/${orderId}`)
  const section = page.getByTestId('order-invoice')
  expect(plain(await section.innerText())).toContain('Este pedido no tiene factura electrónica todavía.')
  await section.getByRole('button', { name: 'Emitir factura' }).click()
  await expectMessage(page, INVOICE_DESK_MESSAGES.queued)
  await waitOnDesk(page, orderId, 'invoice')
  expect(factus!.bills.at(-1)!.referenceCode).toBe(orderId)
  expect(factus!.bills.at(-1)!.body.payment_method_code).toBe('10')
}, 120_000)
