import { randomUUID } from 'node:crypto'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { SETTINGS_MESSAGES } from '#app/modules/settings/validators.ts'
import { orderItems } from '#app/modules/order/schema.ts'
import { TRANSFER_MESSAGES } from '#app/modules/payment/transfer.ts'
import { orderResultPath } from '#app/utils/paths.ts'
import { saveSettings } from '#tests/carrier-quotes.ts'
import { createOrder, createProduct } from '#tests/factories.ts'
import { acceptNextDialog, expectMessage, pngFile } from './admin-session.ts'
import {
  collectErrors,
  declinedConsentCookie,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  setupBrowser,
} from './browser.ts'
import { startOwnServer, type OwnServer } from './own-server.ts'

/**
 * A transfer or Bre-B payment, end to end, on a shop of this file's own with transfers on: the
 * buyer's success page (scripts off, a plain post) says where and how much to pay and takes the
 * receipt; the owner, at the desk, opens the receipt and marks the order paid.
 */

const OWNER = 'duena@vitrina.test'
const SHOTS = 'test-results/transfer-payment'
const BREB_KEY = '@vitrina-accesorios'
const browser = setupBrowser(DESKTOP)
let server: OwnServer | undefined
let base = ''
let orderId = ''
let noScript: BrowserContext | undefined

beforeAll(async () => {
  server = await startOwnServer({
    name: 'transferencia',
    owner: OWNER,
    async seed(db) {
      await saveSettings(db, {
        paymentTransfer: 'yes',
        transferBrebKey: BREB_KEY,
        transferAccount: 'Bancolombia, ahorros 123-456789-00, Vitrina S.A.S.',
        transferDeadlineHours: 24,
      })
      // The order as the checkout leaves a transfer: "pendiente de pago", waiting for the money.
      const product = await createProduct(db, { pesos: 45000, stock: 3 })
      orderId = randomUUID()
      await createOrder(db, {
        id: orderId,
        paymentMethod: 'transferencia',
        customerName: 'Valentina',
        customerPhone: '3105556677',
        subtotal: 4_500_000,
        total: 4_500_000,
      })
      await db.insert(orderItems).values({
        orderId,
        productSku: product.sku,
        title: 'Collar Luna',
        quantity: 1,
        unitPrice: 4_500_000,
      })
    },
  })
  base = server.base
}, 120_000)

afterAll(async () => {
  await noScript?.close()
  await server?.stop()
})

test('the buyer pays by transfer and sends the receipt without scripts; the owner confirms it', async () => {
  // The buyer, on a phone with scripts off: every form is a plain post.
  const chromium = (await browser.page()).context().browser()!
  noScript = await chromium.newContext({
    viewport: PHONE,
    locale: 'es-CO',
    timezoneId: 'America/Bogota',
    javaScriptEnabled: false,
  })
  await noScript.addCookies([declinedConsentCookie(base)])
  const buyer = await noScript.newPage()
  await buyer.goto(`${base}${orderResultPath('success', orderId)}`)
  const box = buyer.getByTestId('transfer-payment')
  expect(plain(await box.getByRole('heading').innerText())).toBe(TRANSFER_MESSAGES.heading)
  expect(plain(await box.getByTestId('transfer-breb-key').innerText())).toBe(BREB_KEY)
  expect(plain(await box.getByTestId('transfer-amount').innerText())).toBe('$ 45.000,00')
  expect(plain(await box.getByTestId('transfer-reference').innerText())).toMatch(/^Referencia: pedido #\d+$/)
  expect(plain(await box.getByTestId('transfer-deadline').innerText())).toMatch(
    /^Tienes hasta el \d+ de \w+ de \d{4} a las \d\d:\d\d para pagar; después el pedido se cancela/,
  )
  await buyer.screenshot({ path: `${SHOTS}/success-phone.png`, fullPage: true })

  // A file that is not a receipt is refused on the page, in Spanish.
  await box.getByLabel('Comprobante de pago').setInputFiles({
    name: 'recibo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<html>no soy una imagen</html>'),
  })
  await box.getByRole('button', { name: 'Enviar comprobante' }).click()
  await buyer.getByTestId('transfer-receipt-error').waitFor()
  expect(plain(await buyer.getByTestId('transfer-receipt-error').innerText())).toBe(
    TRANSFER_MESSAGES.notReceipt,
  )

  await buyer
    .getByTestId('transfer-payment')
    .getByLabel('Comprobante de pago')
    .setInputFiles(await pngFile('captura.png', '#2e86c1'))
  await buyer.getByTestId('transfer-payment').getByRole('button', { name: 'Enviar comprobante' }).click()
  await buyer.getByTestId('transfer-received').waitFor()
  expect(new URL(buyer.url()).pathname).toBe('/finalizar-pedido/success')
  expect(plain(await buyer.getByTestId('transfer-received').innerText())).toBe(TRANSFER_MESSAGES.received)
  await buyer.screenshot({ path: `${SHOTS}/receipt-received-phone.png`, fullPage: true })

  // The owner, at the desk, sees the receipt and marks the order paid.
  const desk = await browser.page(DESKTOP)
  await desk.context().addCookies([{ ...server!.ownerCookie, url: base }])
  const errors = collectErrors(desk)
  await gotoHydrated(desk, `${base}/admin/pedidos/detalle/${orderId}`)
  const receipt = desk.getByTestId('order-receipt')
  expect(plain(await receipt.innerText())).toMatch(/^Recibido el .+ · Ver comprobante$/)
  const href = await receipt.getByRole('link', { name: 'Ver comprobante' }).getAttribute('href')
  const file = await desk.request.get(`${base}${href}`)
  expect(file.status()).toBe(200)
  expect(file.headers()['content-type']).toBe('image/png')
  expect(file.headers()['content-security-policy']).toContain('sandbox')

  const dialog = acceptNextDialog(desk)
  await desk.getByRole('button', { name: 'Marcar como pagado' }).click()
  expect(await dialog).toContain('pagado')
  await expectMessage(desk, ORDER_DESK_MESSAGES.paid)
  // The message is the action's answer; the page's data follows once React Router reloads it.
  await expect
    .poll(async () => plain(await desk.getByTestId('order-status').first().innerText()))
    .toBe('pagado')
  await desk.screenshot({ path: `${SHOTS}/desk-paid-desktop.png`, fullPage: true })
  expect(errors).toEqual([])

  // The buyer's page no longer asks for the money.
  await buyer.reload()
  expect(await buyer.getByTestId('transfer-payment').count()).toBe(0)
}, 120_000)

test('"Pagos" in Configuraciones: transfers need somewhere to go, and what is saved is shown again', async () => {
  const page = await browser.page(DESKTOP)
  await page.context().addCookies([{ ...server!.ownerCookie, url: base }])
  await gotoHydrated(page, `${base}/admin/configuraciones`)
  const card = page.getByTestId('payment-settings')
  expect(plain(await card.innerText())).toContain('cuando estén configurados')
  await card.getByLabel('Transferencia / Bre-B', { exact: true }).selectOption('yes')
  await card.getByLabel('Llave Bre-B').fill('')
  await card.getByLabel('Cuenta para transferencias').fill('')
  await page.getByRole('button', { name: 'Guardar configuración' }).click()
  await expectMessage(page, SETTINGS_MESSAGES.invalid)
  expect(await page.getByText(SETTINGS_MESSAGES.transferDestination).isVisible()).toBe(true)

  await page.getByTestId('payment-settings').getByLabel('Llave Bre-B').fill('3001234567')
  await page
    .getByTestId('payment-settings')
    .getByLabel('Plazo para pagar una transferencia (horas)')
    .fill('48')
  await page.getByRole('button', { name: 'Guardar configuración' }).click()
  await expectMessage(page, SETTINGS_MESSAGES.saved)
  await gotoHydrated(page, `${base}/admin/configuraciones`)
  const saved = page.getByTestId('payment-settings')
  expect(await saved.getByLabel('Llave Bre-B').inputValue()).toBe('3001234567')
  expect(await saved.getByLabel('Plazo para pagar una transferencia (horas)').inputValue()).toBe('48')
  expect(await saved.getByLabel('Transferencia / Bre-B', { exact: true }).inputValue()).toBe('yes')
  await saved.screenshot({ path: `${SHOTS}/settings-desktop.png` })
})
