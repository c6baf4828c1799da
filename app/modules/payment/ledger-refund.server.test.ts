import { and, eq } from 'drizzle-orm'
import { describe, expect, test, vi } from 'vitest'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { logger } from '#app/utils/logger.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { placeTestOrder } from '#tests/orders.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { startMercadoPagoStandIn } from '#tests/stand-ins/mercadopago.ts'
import { recordLedgerPayment } from './ledger.server.ts'
import { ledgerRefundKey, refundLedgerPayment, type LedgerRefundJob } from './ledger-refund.server.ts'
import { mercadoPagoProvider } from './mercadopago.server.ts'
import {
  noOnlinePayments,
  PaymentProviderError,
  type Payment,
  type PaymentProvider,
  type PaymentProviders,
  type Refund,
} from './provider.ts'
import { payments } from './schema.ts'

const t = setupTestDatabase()
const standIn = standInForFile(startMercadoPagoStandIn)
const mercadoPago = () =>
  mercadoPagoProvider({ baseUrl: standIn().url, accessToken: standIn().accessToken, timeoutMs: 2_000 })

/** Wompi as the tests need it: answers `refund` (or throws it) and keeps the keys it was sent. */
function fakeWompi(
  refund: Refund | PaymentProviderError | Error,
  payment: Partial<Payment> = { status: 'approved' },
) {
  const keys: string[] = []
  const provider: PaymentProvider = {
    ...noOnlinePayments,
    name: 'wompi',
    label: 'Wompi',
    async refundPayment(_id, key) {
      keys.push(key)
      if (refund instanceof Error) throw refund
      return refund
    },
    async getPayment(id) {
      return { id, externalReference: null, amount: 4_500_000, status: 'approved', ...payment }
    },
  }
  return { provider, keys }
}

const deps = (providers: Partial<PaymentProviders>) => ({
  db: t.db,
  providers: { mercadopago: noOnlinePayments, wompi: noOnlinePayments, ...providers },
})

let nextPaymentId = 3_000_000_001

/** An order with an approved ledger payment whose refund was asked for in "Pagos". */
async function requested(provider: 'mercadopago' | 'wompi', standInStatus = 'approved') {
  const product = await createProduct(t.db, { pesos: 45000, stock: 5 })
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  await t.db.update(orders).set({ status: 'cancelado' }).where(eq(orders.id, order.id))
  const paymentId = String(nextPaymentId++)
  await recordLedgerPayment(t.db, {
    provider,
    providerPaymentId: paymentId,
    orderId: order.id,
    status: 'approved',
    amount: 4_500_000,
  })
  await t.db
    .update(payments)
    .set({ refundStatus: 'requested' })
    .where(eq(payments.providerPaymentId, paymentId))
  if (provider === 'mercadopago') {
    standIn().addPayment({
      id: Number(paymentId),
      status: standInStatus,
      external_reference: order.id,
      transaction_amount: 45000,
    })
  }
  const job: LedgerRefundJob = { provider, paymentId, orderId: order.id, by: 'duena@vitrina.test' }
  return { order, paymentId, job }
}

async function ledgerRow(job: LedgerRefundJob) {
  const [row] = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, job.provider), eq(payments.providerPaymentId, job.paymentId)))
  return row!
}

const refundEvents = async (orderId: string) =>
  (await listOrderEvents(t.db, orderId)).filter((event) => ['refunded', 'refund-failed'].includes(event.type))

const refundRequests = () => standIn().requests.filter((request) => request.path.endsWith('/refunds'))

describe('refunding a ledger payment at Mercado Pago', () => {
  test('refunds once under its own key and writes the refund on the ledger and the timeline', async () => {
    const { order, paymentId, job } = await requested('mercadopago')
    expect(await refundLedgerPayment(deps({ mercadopago: mercadoPago() }), job)).toBe('refunded')

    expect(refundRequests().at(-1)!.headers['x-idempotency-key']).toBe(
      `refund-payment-mercadopago-${paymentId}`,
    )
    expect(ledgerRefundKey(job)).toBe(`refund-payment-mercadopago-${paymentId}`)
    const [refund] = standIn().refunds.get(paymentId)!
    expect(await ledgerRow(job)).toMatchObject({ refundId: String(refund!.id), refundStatus: 'approved' })
    const events = await refundEvents(order.id)
    expect(events).toEqual([
      expect.objectContaining({
        type: 'refunded',
        message: `Reembolso hecho en Mercado Pago: ${formatCOP(4_500_000)} (reembolso ${refund!.id}).`,
        data: expect.objectContaining({ source: 'pagos', paymentId, refundId: String(refund!.id) }),
        createdBy: 'duena@vitrina.test',
      }),
    ])

    // Run again (a retried job): nothing is asked or written twice.
    const before = refundRequests().length
    expect(await refundLedgerPayment(deps({ mercadopago: mercadoPago() }), job)).toBe('already-done')
    expect(refundRequests()).toHaveLength(before)
    expect(await refundEvents(order.id)).toHaveLength(1)
  })

  test('an outage is thrown for the queue to retry, and the retry refunds', async () => {
    const { order, paymentId, job } = await requested('mercadopago')
    standIn().failNext(1, 500)
    await expect(refundLedgerPayment(deps({ mercadopago: mercadoPago() }), job)).rejects.toMatchObject({
      status: 500,
    })
    expect(await ledgerRow(job)).toMatchObject({ refundStatus: 'requested', refundId: null })
    expect(await refundEvents(order.id)).toEqual([])
    expect(await refundLedgerPayment(deps({ mercadopago: mercadoPago() }), job)).toBe('refunded')
    expect(standIn().refunds.get(paymentId)).toHaveLength(1)
  })

  test('a payment refunded another way counts as done and the ledger says refunded', async () => {
    const { order, paymentId, job } = await requested('mercadopago')
    await mercadoPago().refundPayment(paymentId, 'a-mano-en-mercado-pago')
    expect(await refundLedgerPayment(deps({ mercadopago: mercadoPago() }), job)).toBe('already-done')
    expect(standIn().refunds.get(paymentId)).toHaveLength(1)
    expect(await ledgerRow(job)).toMatchObject({ status: 'refunded', refundStatus: 'approved' })
    expect((await refundEvents(order.id))[0]).toMatchObject({
      type: 'refunded',
      message: `Mercado Pago ya tenía reembolsado el pago ${paymentId}: ${formatCOP(4_500_000)}.`,
    })
  })

  test('a refusal is written for a person to return the money another way', async () => {
    const { order, job } = await requested('mercadopago', 'in_mediation')
    expect(await refundLedgerPayment(deps({ mercadopago: mercadoPago() }), job)).toBe('failed')
    expect(await ledgerRow(job)).toMatchObject({ refundStatus: 'failed' })
    expect(await refundEvents(order.id)).toEqual([
      expect.objectContaining({
        type: 'refund-failed',
        message:
          'Mercado Pago no hizo el reembolso: Invalid payment status: in_mediation. Devuelve el dinero por otro medio y anótalo en el pedido.',
        data: expect.objectContaining({ status: 400, source: 'pagos' }),
      }),
    ])
  })
})

describe('refunding a ledger payment at Wompi', () => {
  test('a refund in process is written as such, and not asked for again', async () => {
    const { order, job } = await requested('wompi')
    const wompi = fakeWompi({ id: 'rf-1', status: 'in_process', amount: 4_500_000 })
    expect(await refundLedgerPayment(deps({ wompi: wompi.provider }), job)).toBe('in-process')
    expect(wompi.keys).toEqual([`refund-payment-wompi-${job.paymentId}`])
    expect(await ledgerRow(job)).toMatchObject({ refundId: 'rf-1', refundStatus: 'in_process' })
    expect((await refundEvents(order.id))[0]!.message).toBe(
      `Reembolso pedido a Wompi, en proceso: ${formatCOP(4_500_000)} (reembolso rf-1).`,
    )
    expect(await refundLedgerPayment(deps({ wompi: wompi.provider }), job)).toBe('already-done')
    expect(wompi.keys).toHaveLength(1)
  })

  test('a rejected refund is a failure on the timeline', async () => {
    const { order, job } = await requested('wompi')
    const wompi = fakeWompi({ id: 'rf-2', status: 'rejected', amount: 4_500_000 })
    expect(await refundLedgerPayment(deps({ wompi: wompi.provider }), job)).toBe('failed')
    expect(await ledgerRow(job)).toMatchObject({ refundId: 'rf-2', refundStatus: 'rejected' })
    expect((await refundEvents(order.id))[0]!.message).toBe(
      'Wompi no hizo el reembolso: el reembolso rf-2 quedó rechazado. Devuelve el dinero por otro medio y anótalo en el pedido.',
    )
  })

  test('no answer, or a lookup that gets none, is thrown; anything unexpected too', async () => {
    const { order, job } = await requested('wompi')
    const down = fakeWompi(new PaymentProviderError('network', 'sin respuesta'))
    await expect(refundLedgerPayment(deps({ wompi: down.provider }), job)).rejects.toMatchObject({
      kind: 'network',
    })
    const lookupDown = fakeWompi(new PaymentProviderError('rejected', 'no', 400))
    lookupDown.provider.getPayment = async () => {
      throw new PaymentProviderError('network', 'sin respuesta')
    }
    await expect(refundLedgerPayment(deps({ wompi: lookupDown.provider }), job)).rejects.toMatchObject({
      kind: 'network',
    })
    await expect(
      refundLedgerPayment(deps({ wompi: fakeWompi(new TypeError('boom')).provider }), job),
    ).rejects.toThrow('boom')
    expect(await refundEvents(order.id)).toEqual([])
    expect(await ledgerRow(job)).toMatchObject({ refundStatus: 'requested' })
  })

  test('a payment the ledger does not have (or of another order) writes nothing', async () => {
    const { job } = await requested('wompi')
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
    const wompi = fakeWompi({ id: 'rf-3', status: 'approved', amount: 1 })
    expect(
      await refundLedgerPayment(deps({ wompi: wompi.provider }), { ...job, paymentId: 'no-existe' }),
    ).toBe('unknown-payment')
    expect(await refundLedgerPayment(deps({ wompi: wompi.provider }), { ...job, orderId: 'otro' })).toBe(
      'unknown-payment',
    )
    expect(wompi.keys).toEqual([])
    expect(warn).toHaveBeenCalledTimes(2)
    warn.mockRestore()
  })
})
