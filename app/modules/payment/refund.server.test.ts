import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { markOrderPaid } from '#app/modules/order/mark-paid.server.ts'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { placeTestOrder } from '#tests/orders.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { listen, sendJson, type RecordedRequest } from '#tests/stand-ins/http.ts'
import { startMercadoPagoStandIn } from '#tests/stand-ins/mercadopago.ts'
import { mercadoPagoProvider } from './mercadopago.server.ts'
import { noOnlinePayments, PaymentProviderError, type PaymentProvider } from './provider.ts'
import { REFUND_EVENT_TYPES, REFUND_MESSAGES, refundOrderPayment } from './refund.server.ts'
import { simulatedPayments } from './schema.ts'
import { simulatedProvider } from './simulated.server.ts'

const t = setupTestDatabase()
const standIn = standInForFile(startMercadoPagoStandIn)

const mercadoPago = () =>
  mercadoPagoProvider({ baseUrl: standIn().url, accessToken: standIn().accessToken, timeoutMs: 2_000 })
const deps = (payments: PaymentProvider = mercadoPago()) => ({
  db: t.db,
  providers: { mercadopago: payments, wompi: noOnlinePayments },
})

/** Our webhook as the simulator reaches it: answers 200 and keeps what it was sent. */
const webhook = standInForFile(async () => {
  const requests: RecordedRequest[] = []
  const server = await listen(requests, (_request, response) => sendJson(response, 200, { ok: true }))
  return { url: server.origin, requests, reset: () => (requests.length = 0), stop: server.close }
})

let nextPaymentId = 2_000_000_001

/** An online order paid with a Mercado Pago payment the stand-in knows (approved, 45.000 pesos). */
async function paidOrder(options: { paymentStatus?: string } = {}) {
  const product = await createProduct(t.db, { pesos: 45000, stock: 5 })
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, paymentMethod: 'mercadopago' })
  const paymentId = String(nextPaymentId++)
  await t.db.transaction((tx) =>
    markOrderPaid(tx, order.id, { id: paymentId, status: 'approved' }, recordingJobQueue()),
  )
  standIn().addPayment({
    id: Number(paymentId),
    status: options.paymentStatus ?? 'approved',
    external_reference: order.id,
    transaction_amount: 45000,
  })
  return { order, paymentId }
}

const refundEvents = async (orderId: string) =>
  (await listOrderEvents(t.db, orderId)).filter((event) =>
    (REFUND_EVENT_TYPES as readonly string[]).includes(event.type),
  )

const refundRequests = () => standIn().requests.filter((request) => request.path.endsWith('/refunds'))

describe('refunding an order paid with Mercado Pago', () => {
  test('refunds the whole payment once and writes it on the timeline', async () => {
    const { order, paymentId } = await paidOrder()
    expect(await refundOrderPayment(deps(), { orderId: order.id, claimId: 11 })).toBe('refunded')

    expect(refundRequests()).toHaveLength(1)
    expect(refundRequests()[0]!.headers['x-idempotency-key']).toBe('refund-claim-11')
    expect(standIn().paymentStatus(paymentId)).toBe('refunded')
    const [refund] = standIn().refunds.get(paymentId)!
    const events = await refundEvents(order.id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'refunded',
      message: `Reembolso hecho en Mercado Pago: ${formatCOP(4_500_000)} (reembolso ${refund!.id}).`,
      data: { claimId: 11, paymentId, refundId: String(refund!.id), amount: 4_500_000, status: 'approved' },
      createdBy: 'sistema',
    })
    expect(events[0]!.message).toBe(
      `Reembolso hecho en Mercado Pago: $\u00a045.000,00 (reembolso ${refund!.id}).`,
    )
  })

  test('the same job run twice refunds once and writes once', async () => {
    const { order, paymentId } = await paidOrder()
    const job = { orderId: order.id, claimId: 12 }
    expect(await refundOrderPayment(deps(), job)).toBe('refunded')
    expect(await refundOrderPayment(deps(), job)).toBe('already-done')
    expect(standIn().refunds.get(paymentId)).toHaveLength(1)
    expect(refundRequests()).toHaveLength(1)
    expect(await refundEvents(order.id)).toHaveLength(1)
  })

  test('a run that refunded but died before writing finds the same refund by its key', async () => {
    const { order, paymentId } = await paidOrder()
    const made = await mercadoPago().refundPayment(paymentId, 'refund-claim-13')
    expect(await refundOrderPayment(deps(), { orderId: order.id, claimId: 13 })).toBe('refunded')
    expect(standIn().refunds.get(paymentId)).toHaveLength(1)
    const [event] = await refundEvents(order.id)
    expect(event).toMatchObject({ type: 'refunded', data: { refundId: made.id } })
  })

  test('a payment already refunded another way counts as done, never refunded twice', async () => {
    const { order, paymentId } = await paidOrder()
    await mercadoPago().refundPayment(paymentId, 'a-mano-en-mercado-pago')
    expect(await refundOrderPayment(deps(), { orderId: order.id, claimId: 14 })).toBe('already-done')
    expect(standIn().refunds.get(paymentId)).toHaveLength(1)
    const events = await refundEvents(order.id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'refunded',
      message: `Mercado Pago ya tenía reembolsado el pago ${paymentId}: ${formatCOP(4_500_000)}.`,
      data: { claimId: 14, alreadyRefunded: true },
    })
  })

  test('a 500 is thrown for the queue to retry, and the retry refunds', async () => {
    const { order, paymentId } = await paidOrder()
    const job = { orderId: order.id, claimId: 15 }
    standIn().failNext(1, 500)
    await expect(refundOrderPayment(deps(), job)).rejects.toMatchObject({ kind: 'rejected', status: 500 })
    expect(await refundEvents(order.id)).toEqual([])
    expect(standIn().paymentStatus(paymentId)).toBe('approved')

    expect(await refundOrderPayment(deps(), job)).toBe('refunded')
    expect(standIn().refunds.get(paymentId)).toHaveLength(1)
    expect(await refundEvents(order.id)).toHaveLength(1)
  })

  test('a 429 and no answer at all are thrown too', async () => {
    const { order } = await paidOrder()
    const job = { orderId: order.id, claimId: 16 }
    standIn().failNext(1, 429)
    await expect(refundOrderPayment(deps(), job)).rejects.toMatchObject({ status: 429 })
    standIn().hang('headers')
    const slow = mercadoPagoProvider({
      baseUrl: standIn().url,
      accessToken: standIn().accessToken,
      timeoutMs: 200,
    })
    await expect(refundOrderPayment(deps(slow), job)).rejects.toMatchObject({ kind: 'network' })
    expect(await refundEvents(order.id)).toEqual([])
  })

  test('a refusal is written for a person to return the money another way, without a retry', async () => {
    const { order, paymentId } = await paidOrder({ paymentStatus: 'in_mediation' })
    expect(await refundOrderPayment(deps(), { orderId: order.id, claimId: 17 })).toBe('failed')
    const events = await refundEvents(order.id)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'refund-failed',
      message:
        'Mercado Pago no hizo el reembolso: Invalid payment status: in_mediation. Devuelve el dinero por otro medio y anótalo en el pedido.',
      data: { claimId: 17, paymentId, status: 400 },
    })
    // Written once: the job is done, a rerun leaves it alone.
    expect(await refundOrderPayment(deps(), { orderId: order.id, claimId: 17 })).toBe('already-done')
    expect(refundRequests()).toHaveLength(1)
  })

  test('an order without an online payment is skipped', async () => {
    const product = await createProduct(t.db, { stock: 5 })
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    expect(await refundOrderPayment(deps(), { orderId: order.id, claimId: 18 })).toBe('skipped')
    expect(refundRequests()).toEqual([])
    expect(await refundEvents(order.id)).toEqual([
      expect.objectContaining({
        type: 'refund-skipped',
        message: REFUND_MESSAGES.skipped,
        data: { claimId: 18 },
      }),
    ])
    expect(REFUND_MESSAGES.skipped).toBe('Sin pago en línea que reembolsar.')
  })

  test('an unknown order writes nothing', async () => {
    expect(await refundOrderPayment(deps(), { orderId: 'no-existe', claimId: 19 })).toBe('unknown-order')
    expect(refundRequests()).toEqual([])
  })

  test('a shop without online payments any more writes the refusal', async () => {
    const { order } = await paidOrder()
    expect(await refundOrderPayment(deps(noOnlinePayments), { orderId: order.id, claimId: 20 })).toBe(
      'failed',
    )
    const [event] = await refundEvents(order.id)
    expect(event!.type).toBe('refund-failed')
    expect(event!.message).toMatch(/^El proveedor de pagos no hizo el reembolso: Esta tienda no recibe pagos/)
  })

  test('anything but a provider error is thrown', async () => {
    const { order } = await paidOrder()
    const broken: PaymentProvider = {
      ...mercadoPago(),
      async refundPayment() {
        throw new TypeError('boom')
      },
    }
    await expect(refundOrderPayment(deps(broken), { orderId: order.id, claimId: 21 })).rejects.toThrow('boom')
    expect(await refundEvents(order.id)).toEqual([])
  })
})

describe('refunding with the payment simulator (offline)', () => {
  async function simulatedPaidOrder() {
    const payments = simulatedProvider({ db: t.db, publicUrl: webhook().url })
    const product = await createProduct(t.db, { pesos: 45000, stock: 5 })
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, paymentMethod: 'mercadopago' })
    const { id } = await payments.pay({ orderId: order.id, status: 'approved', amount: order.total })
    await t.db.transaction((tx) =>
      markOrderPaid(tx, order.id, { id, status: 'approved' }, recordingJobQueue()),
    )
    return { payments, order, paymentId: id }
  }
  const statusOf = async (id: string) =>
    (await t.db.select().from(simulatedPayments).where(eq(simulatedPayments.id, id)))[0]?.status

  test('refunds its own payment once, and writes it', async () => {
    const { payments, order, paymentId } = await simulatedPaidOrder()
    const job = { orderId: order.id, claimId: 31 }
    expect(await refundOrderPayment(deps(payments), job)).toBe('refunded')
    expect(await statusOf(paymentId)).toBe('refunded')
    expect((await payments.getPayment(paymentId)).status).toBe('refunded')
    expect(await refundOrderPayment(deps(payments), job)).toBe('already-done')
    // Like Mercado Pago, it tells our webhook the payment changed (once: the rerun made no refund).
    const notices = webhook().requests.filter((request) => request.query.get('data.id') === paymentId)
    expect(notices.map((notice) => (notice.body as { action: string }).action)).toEqual([
      'payment.created',
      'payment.updated',
    ])
    const events = await refundEvents(order.id)
    expect(events).toHaveLength(1)
    expect(events[0]!.message).toBe(
      `Reembolso hecho en el simulador de pagos: ${formatCOP(order.total)} (reembolso sim-reembolso-${paymentId}).`,
    )
  })

  test('asking again gives the same refund; a payment not approved or unknown is refused', async () => {
    const { payments, paymentId, order } = await simulatedPaidOrder()
    const first = await payments.refundPayment(paymentId, 'refund-claim-32')
    expect(first).toEqual({ id: `sim-reembolso-${paymentId}`, status: 'approved', amount: order.total })
    expect(await payments.refundPayment(paymentId, 'refund-claim-32')).toEqual(first)

    const pending = await payments.pay({ orderId: order.id, status: 'pending', amount: order.total })
    await expect(payments.refundPayment(pending.id, 'k')).rejects.toMatchObject({
      kind: 'rejected',
      status: 400,
    })
    expect(await statusOf(pending.id)).toBe('pending')
    const unknown = await payments.refundPayment('999', 'k').catch((error: unknown) => error)
    expect(unknown).toBeInstanceOf(PaymentProviderError)
    expect(unknown).toMatchObject({ kind: 'rejected', status: 404 })
  })
})
