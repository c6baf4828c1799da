import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { recordLedgerPayment, type LedgerPayment } from '#app/modules/payment/ledger.server.ts'
import { PAYMENT_FLAG_MESSAGES, PAYMENTS_MESSAGES } from '#app/modules/payment/reconciliation.ts'
import { payments } from '#app/modules/payment/schema.ts'
import { formatCOP } from '#app/utils/money.ts'
import { createOrder } from '#tests/factories.ts'
import { acceptNextDialog, expectMessage } from './admin-session.ts'
import {
  collectErrors,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  seriousViolations,
  setupBrowser,
} from './browser.ts'
import { startOwnServer, type OwnServer } from './own-server.ts'

/**
 * "Pagos" on a shop of this file's own, its ledger seeded: an order paid twice and one paid after
 * it was cancelled are flagged, the owner starts a refund from the page, the CSV of the range
 * downloads, and the page reads at phone and desktop widths.
 */

const OWNER = 'duena@vitrina.test'
const SHOTS = 'test-results/admin-payments'
const browser = setupBrowser(DESKTOP)
let server: OwnServer | undefined
let base = ''
const twice = { id: randomUUID(), number: 0 }
const cancelled = { id: randomUUID(), number: 0 }

async function ledger(db: Db, payment: LedgerPayment, at: string) {
  await recordLedgerPayment(db, payment)
  await db
    .update(payments)
    .set({ createdAt: new Date(at), updatedAt: new Date(at) })
    .where(
      and(eq(payments.provider, payment.provider), eq(payments.providerPaymentId, payment.providerPaymentId)),
    )
}

beforeAll(async () => {
  server = await startOwnServer({
    name: 'pagos',
    owner: OWNER,
    async seed(db) {
      const order = (id: string, status: 'pagado' | 'cancelado', paymentId: string | null) =>
        createOrder(db, {
          id,
          status,
          paymentId,
          paymentMethod: 'mercadopago',
          customerName: 'Valentina',
          subtotal: 4_500_000,
          total: 4_500_000,
        })
      twice.number = (await order(twice.id, 'pagado', '9001')).number
      cancelled.number = (await order(cancelled.id, 'cancelado', null)).number
      const paid = { status: 'approved', amount: 4_500_000 }
      await ledger(
        db,
        {
          ...paid,
          provider: 'mercadopago',
          providerPaymentId: '9001',
          orderId: twice.id,
          method: 'credit_card',
          fee: 180_000,
        },
        '2033-05-10T15:00:00Z',
      )
      await ledger(
        db,
        {
          ...paid,
          provider: 'mercadopago',
          providerPaymentId: '9002',
          orderId: twice.id,
          method: 'account_money',
          fee: 180_000,
        },
        '2033-05-10T15:20:00Z',
      )
      await ledger(
        db,
        { ...paid, provider: 'wompi', providerPaymentId: 'wompi-77', orderId: cancelled.id, method: 'NEQUI' },
        '2033-05-12T20:00:00Z',
      )
    },
  })
  base = server.base
}, 120_000)

afterAll(async () => {
  await server?.stop()
})

test('flagged payments are shown at both widths, one is refunded from the page, and the CSV downloads', async () => {
  const page = await browser.page(DESKTOP)
  await page.context().addCookies([{ ...server!.ownerCookie, url: base }])
  const errors = collectErrors(page)

  // From the "Ventas" report of the same dates.
  await gotoHydrated(page, `${base}/admin/ventas?desde=2033-05-01&hasta=2033-05-31`)
  await page.getByTestId('sales-payments-link').click()
  await page.waitForURL((url) => url.pathname === '/admin/ventas/pagos')
  expect(new URL(page.url()).search).toBe('?desde=2033-05-01&hasta=2033-05-31')
  await page.getByRole('heading', { name: 'Pagos', level: 1 }).waitFor()

  const rows = page.getByTestId('payment-row')
  expect(await rows.count()).toBe(3)
  const flags = page.getByTestId('payment-flag')
  expect((await flags.allInnerTexts()).map(plain)).toEqual([
    expect.stringContaining(PAYMENT_FLAG_MESSAGES['paid-after-cancel']),
    expect.stringContaining(PAYMENT_FLAG_MESSAGES['paid-twice']),
  ])
  const first = plain(await page.locator('[data-testid="payment-row"][data-id="9002"]').innerText())
  expect(first).toContain(`#${twice.number}`)
  expect(first).toContain('Dinero en cuenta')
  expect(first).toContain('Aprobado')
  expect(first).toContain('$ 43.200,00')
  expect(plain(await page.getByTestId('payments-total').first().innerText())).toContain('$ 90.000,00')
  expect(await seriousViolations(page)).toEqual([])

  // At 390 px every payment is a card that fits: nothing wider than the screen.
  await page.setViewportSize(PHONE)
  await page.screenshot({ path: `${SHOTS}/list-phone.png`, fullPage: true })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  expect(await seriousViolations(page)).toEqual([])
  await page.setViewportSize(DESKTOP)
  await page.screenshot({ path: `${SHOTS}/list-desktop.png`, fullPage: true })

  // The CSV of the same range.
  const csvHref = await page.getByTestId('payments-csv').getAttribute('href')
  expect(csvHref).toBe('/admin/ventas/pagos/csv?desde=2033-05-01&hasta=2033-05-31')
  const download = page.waitForEvent('download')
  await page.getByTestId('payments-csv').click()
  const file = await download
  expect(file.suggestedFilename()).toBe('pagos-2033-05-01_a_2033-05-31.csv')
  const text = (await (await file.createReadStream()).toArray()).map(String).join('')
  expect(text).toContain(
    `;${twice.number};pagado;Mercado Pago;9002;Dinero en cuenta;Aprobado;45000,00;1800,00;43200,00;`,
  )

  // "Reembolsar" on the second payment: asked first, then answered in Spanish; no button after.
  const flagged = page.locator('[data-testid="payment-flag"]', {
    hasText: PAYMENT_FLAG_MESSAGES['paid-twice'],
  })
  const dialog = acceptNextDialog(page)
  await flagged.getByRole('button', { name: 'Reembolsar' }).click()
  expect(await dialog).toBe(
    `¿Reembolsar ${formatCOP(4_500_000)} del pedido #${twice.number} en Mercado Pago?`,
  )
  await expectMessage(page, PAYMENTS_MESSAGES.started('Mercado Pago', formatCOP(4_500_000), twice.number))
  await expect.poll(() => flagged.getByRole('button', { name: 'Reembolsar' }).count()).toBe(0)
  expect(new URL(page.url()).search).toBe('?desde=2033-05-01&hasta=2033-05-31')

  // An empty range says so.
  await gotoHydrated(page, `${base}/admin/ventas/pagos?desde=2034-01-01&hasta=2034-01-31`)
  expect(plain(await page.getByTestId('payments-empty').innerText())).toBe(PAYMENTS_MESSAGES.empty)
  expect(errors).toEqual([])
})
