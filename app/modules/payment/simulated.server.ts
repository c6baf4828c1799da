import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import {
  PaymentProviderError,
  type Payment,
  type PaymentProvider,
  type PaymentStatus,
  type Refund,
} from './provider.ts'
import { simulatedPayments } from './schema.ts'
import { signNotification } from './signature.server.ts'
import { PAYMENT_WEBHOOK_PATH, simulatedPaymentPath } from '#app/utils/paths.ts'
import { logger } from '#app/utils/logger.server.ts'

export type SimulatedChoice = Extract<PaymentStatus, 'approved' | 'pending' | 'rejected'>

/**
 * Stands in for Mercado Pago when no access token is configured: its payment link is a local page
 * whose buttons record a payment here and send our webhook a notification signed the way Mercado
 * Pago signs, so the flow runs offline.
 */
export type SimulatedProvider = PaymentProvider & {
  readonly name: 'simulado'
  /** What the webhook checks notifications against: only this process knows it. */
  readonly webhookSecret: string
  /**
   * Records the outcome chosen on the page and notifies the webhook. A second approval of one order
   * finds the first (`repeated`) and sends nothing.
   */
  pay(input: { orderId: string; status: SimulatedChoice; amount: number }): Promise<{
    id: string
    repeated: boolean
  }>
}

export function simulatedProvider(options: {
  db: DbOrTx
  /** Where the webhook is reached (PUBLIC_URL). */
  publicUrl: string
  /** Made fresh per process when omitted: a secret in the source would let anyone sign. */
  webhookSecret?: string
}): SimulatedProvider {
  const { db, publicUrl } = options
  const webhookSecret = options.webhookSecret ?? randomBytes(32).toString('base64url')
  return {
    name: 'simulado',
    webhookSecret,
    async createPreference(input) {
      return { id: `sim-pref-${input.orderId}`, initPoint: simulatedPaymentPath(input.orderId) }
    },
    async getPayment(id): Promise<Payment> {
      const [row] = await db.select().from(simulatedPayments).where(eq(simulatedPayments.id, id))
      if (!row) return { id, status: 'not_found', externalReference: null, amount: 0 }
      return { id: row.id, status: row.status, externalReference: row.orderId, amount: row.amount }
    },
    async searchPayments(orderId): Promise<Payment[]> {
      const rows = await db
        .select()
        .from(simulatedPayments)
        .where(eq(simulatedPayments.orderId, orderId))
        .orderBy(desc(simulatedPayments.createdAt), desc(simulatedPayments.id))
      return rows.map((row) => ({
        id: row.id,
        status: row.status,
        externalReference: row.orderId,
        amount: row.amount,
      }))
    },
    async refundPayment(id): Promise<Refund> {
      const refund = await refundSimulatedPayment(db, id)
      // Mercado Pago tells the webhook a refunded payment changed; so does the simulator.
      if (!refund.repeated) await notifyWebhook(publicUrl, webhookSecret, id, 'payment.updated')
      return { id: refund.id, status: refund.status, amount: refund.amount }
    },
    async pay(input) {
      const payment = await recordSimulatedPayment(db, input)
      if (!payment.repeated) await notifyWebhook(publicUrl, webhookSecret, payment.id)
      return payment
    },
  }
}

/**
 * Refunds a whole simulated payment: an approved one becomes "refunded". A payment is refunded at
 * most once, so its refund is named after it and asking again (any key) finds the same refund
 * (`repeated`); a payment not approved is refused as Mercado Pago refuses it, an unknown one too.
 */
async function refundSimulatedPayment(
  db: DbOrTx,
  paymentId: string,
): Promise<Refund & { repeated: boolean }> {
  const refundId = `sim-reembolso-${paymentId}`
  const [refunded] = await db
    .update(simulatedPayments)
    .set({ status: 'refunded' })
    .where(and(eq(simulatedPayments.id, paymentId), eq(simulatedPayments.status, 'approved')))
    .returning({ amount: simulatedPayments.amount })
  if (refunded) return { id: refundId, status: 'approved', amount: refunded.amount, repeated: false }
  const [row] = await db.select().from(simulatedPayments).where(eq(simulatedPayments.id, paymentId))
  if (!row) throw new PaymentProviderError('rejected', `Pago ${paymentId} no encontrado`, 404)
  if (row.status === 'refunded')
    return { id: refundId, status: 'approved', amount: row.amount, repeated: true }
  throw new PaymentProviderError(
    'rejected',
    `El pago ${paymentId} está en estado ${row.status}: solo se reembolsa un pago aprobado`,
    400,
  )
}

/**
 * Records the outcome chosen on the simulated page. Idempotent for approvals: an order gets at most
 * one approved payment, so a double click on "Aprobar pago" returns the first one (`repeated`).
 */
async function recordSimulatedPayment(
  db: DbOrTx,
  input: { orderId: string; status: SimulatedChoice; amount: number },
): Promise<{ id: string; repeated: boolean }> {
  return db.transaction(async (tx) => {
    // The order's row lock makes two clicks take turns: the second sees the first one's approval.
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, input.orderId)).for('update')
    if (input.status === 'approved') {
      const [earlier] = await tx
        .select({ id: simulatedPayments.id })
        .from(simulatedPayments)
        .where(and(eq(simulatedPayments.orderId, input.orderId), eq(simulatedPayments.status, 'approved')))
        .limit(1)
      if (earlier) return { id: earlier.id, repeated: true }
    }
    // Numeric like Mercado Pago's ids; random digits keep two payments of one millisecond apart.
    const id = `${Date.now()}${randomInt(100_000, 1_000_000)}`
    await tx.insert(simulatedPayments).values({ id, ...input })
    return { id, repeated: false }
  })
}

/** Sends our own webhook the signed notification Mercado Pago would send for this payment. */
async function notifyWebhook(
  publicUrl: string,
  secret: string,
  paymentId: string,
  action: 'payment.created' | 'payment.updated' = 'payment.created',
) {
  const ts = String(Date.now())
  const requestId = randomUUID()
  await fetch(`${publicUrl}${PAYMENT_WEBHOOK_PATH}?data.id=${paymentId}&type=payment`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'x-request-id': requestId,
      'x-signature': signNotification(secret, { dataId: paymentId, requestId, ts }),
    },
    body: JSON.stringify({
      id: Number(paymentId),
      type: 'payment',
      action,
      live_mode: false,
      date_created: new Date().toISOString(),
      data: { id: paymentId },
    }),
  }).catch((error) => logger.error({ err: error }, '[pago-simulado] webhook no entregado'))
}
