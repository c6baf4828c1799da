import { eq } from 'drizzle-orm'
import type { BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { SETTINGS_MESSAGES } from '#app/modules/settings/validators.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { expireUnpaidOnlineOrders } from '#app/modules/payment/payment.server.ts'
import { noOnlinePayments } from '#app/modules/payment/provider.ts'
import { TRANSFER_MESSAGES } from '#app/modules/payment/transfer.ts'
import { orderResultPath } from '#app/utils/paths.ts'
import { saveSettings } from '#tests/carrier-quotes.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { acceptNextDialog, expectMessage, pngFile } from './admin-session.ts'
import {
  collectErrors,
  declinedConsentCookie,
  DESKTOP,
  gotoHydrated,
  choosePlace,
  PHONE,
  plain,
  setStoredCart,
  setupBrowser,
} from './browser.ts'
import { startOwnServer, type OwnServer } from './own-server.ts'

/**
 * A transfer or Bre-B payment, end to end, on a shop of this file's own with transfers on: the
 * buyer (scripts off, plain posts) chooses it at the checkout; the success page says where and how
 * much to pay and takes the receipt; the owner, at the desk, opens the receipt and marks the order
 * paid. An order whose transfer never came is cancelled by the expiry job and its units are back.
 */

const OWNER = 'duena@vitrina.test'
const SHOTS = 'test-results/transfer-payment'
const BREB_KEY = '@vitrina-accesorios'
const browser = setupBrowser(DESKTOP)
let server: OwnServer | undefined
let base = ''
let sku = ''
let expiredId = ''
let expiredSku = ''
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
      sku = (await stockedProduct(db, 3)).sku
      // A transfer ordered 30 hours ago that never came: the expiry job (every 15 minutes on the
      // server) cancels it, as it would have while the shop ran.
      const expired = await stockedProduct(db, 1)
      expiredSku = expired.sku
      expiredId = (
        await placeTestOrder(db, { sku: expired.sku, quantity: 1, paymentMethod: 'transferencia' })
      ).id
      await db
        .update(orders)
        .set({ createdAt: new Date(Date.now() - 30 * 3_600_000) })
        .where(eq(orders.id, expiredId))
      const none = { mercadopago: noOnlinePayments, wompi: noOnlinePayments }
      await expireUnpaidOnlineOrders({ db, jobs: recordingJobQueue(), providers: none }, 48)
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
  await setStoredCart(buyer, [{ sku, quantity: 1 }], base)
  await buyer.goto(`${base}/finalizar-pedido`)
  await buyer.getByLabel('Nombre', { exact: false }).first().fill('Valentina')
  await buyer.getByLabel('Teléfono (WhatsApp)').fill('3105556677')
  await buyer.getByLabel('Dirección').fill('Calle 10 # 20-30')
  await choosePlace(buyer, 'Antioquia', 'Medellín')
  await buyer.getByLabel(/Transferencia o Bre-B/).check()
  await buyer.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
  await buyer.getByRole('button', { name: 'Confirmar pedido' }).click()
  await buyer.waitForURL(`${base}/finalizar-pedido/success?pedido=*`)
  const orderId = new URL(buyer.url()).searchParams.get('pedido')!
  const total = plain(await buyer.getByTestId('order-total').innerText())
  const box = buyer.getByTestId('transfer-payment')
  expect(plain(await box.getByRole('heading').innerText())).toBe(TRANSFER_MESSAGES.heading)
  expect(plain(await box.getByTestId('transfer-breb-key').innerText())).toBe(BREB_KEY)
  expect(plain(await box.getByTestId('transfer-amount').innerText())).toBe(total)
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

test('a transfer that never came: its order is cancelled and its units are on sale again', async () => {
  const page = await browser.page(PHONE)
  await page.context().addCookies([declinedConsentCookie(base)])
  await page.goto(`${base}${orderResultPath('success', expiredId)}`)
  expect(await page.getByTestId('order-status').innerText()).toBe('cancelado')
  expect(await page.getByTestId('transfer-payment').count()).toBe(0)
  const cart = await page.request.get(`${base}/api/carrito?skus=${encodeURIComponent(expiredSku)}`)
  expect(((await cart.json()) as { products: { available: number }[] }).products[0]?.available).toBe(1)
  const desk = await browser.page(DESKTOP)
  await desk.context().addCookies([{ ...server!.ownerCookie, url: base }])
  await desk.goto(`${base}/admin/pedidos/detalle/${expiredId}`)
  expect(plain(await desk.locator('main').innerText())).toContain(
    'Cancelado: la transferencia no llegó en 24 horas; unidades liberadas.',
  )
})

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
