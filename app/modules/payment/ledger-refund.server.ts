import { and, eq } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { recordOrderEvent } from '#app/modules/order/order.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import type { PaymentProviderError, PaymentProviders, Refund } from './provider.ts'
import { REFUND_MESSAGES, reasonOf, worthRetrying } from './refund.server.ts'
import { payments } from './schema.ts'

export type LedgerRefundOutcome = 'refunded' | 'in-process' | 'already-done' | 'failed' | 'unknown-payment'

/** A refund in these states was made (or is being made): never asked for again. */
const REFUND_MADE = ['approved', 'in_process']

export type LedgerRefundJob = {
  provider: 'mercadopago' | 'wompi'
  paymentId: string
  orderId: string
  /** The admin who pressed "Reembolsar" (named on the timeline). */
  by: string
}

/** The one key per ledger payment: a retried job gets the provider's first refund back, not a second. */
export const ledgerRefundKey = (job: Pick<LedgerRefundJob, 'provider' | 'paymentId'>) =>
  `refund-payment-${job.provider}-${job.paymentId}`

/**
 * Job `payment-refund`: refunds one whole payment of the ledger ("Reembolsar" in "Pagos", for an
 * order paid twice or paid once cancelled) and writes the refund's id and status on the ledger
 * row and how it went on the order's timeline, both in one transaction.
 *
 * Safe to run more than once: a row whose refund is already made (or in process), or whose payment
 * the provider already shows refunded, is left alone, and the idempotency key makes the provider
 * answer the refund it already made. An outage is thrown so the queue retries (and at the end
 * dead-letters the job where the dashboard shows it); a refusal is written for a person to return
 * the money another way, as the claims refund does (refund.server.ts).
 */
export async function refundLedgerPayment(
  deps: { db: Db; providers: PaymentProviders },
  job: LedgerRefundJob,
): Promise<LedgerRefundOutcome> {
  const { db, providers } = deps
  const where = and(eq(payments.provider, job.provider), eq(payments.providerPaymentId, job.paymentId))
  const [row] = await db.select().from(payments).where(where)
  if (!row || row.orderId !== job.orderId) {
    logger.warn(`[reembolso] pago ${job.provider} ${job.paymentId} del pedido ${job.orderId} no encontrado`)
    return 'unknown-payment'
  }
  if (row.status === 'refunded') {
    // The provider's notice came first: the page stops saying "Reembolso pedido".
    await db.update(payments).set({ refundStatus: 'approved' }).where(where)
    return 'already-done'
  }
  if (row.refundId && row.refundStatus && REFUND_MADE.includes(row.refundStatus)) return 'already-done'

  const provider = providers[job.provider]
  const settle = (
    ledger: Partial<typeof payments.$inferInsert>,
    type: 'refunded' | 'refund-failed',
    message: string,
    data: Record<string, unknown>,
  ) =>
    db.transaction(async (tx) => {
      await tx.update(payments).set(ledger).where(where)
      await recordOrderEvent(
        tx,
        row.orderId,
        type,
        message,
        { source: 'pagos', provider: job.provider, paymentId: job.paymentId, ...data },
        job.by,
      )
    })

  let refund: Refund
  try {
    refund = await provider.refundPayment(job.paymentId, ledgerRefundKey(job))
  } catch (error) {
    if (worthRetrying(error)) throw error
    const refusal = error as PaymentProviderError
    // Refunded before under another key (by hand at the provider, or a claim's refund): done.
    const payment = await provider.getPayment(job.paymentId).catch((lookup: unknown) => {
      if (worthRetrying(lookup)) throw lookup
      return null
    })
    if (payment?.status === 'refunded') {
      await settle(
        { status: 'refunded', refundStatus: 'approved', updatedAt: new Date() },
        'refunded',
        REFUND_MESSAGES.alreadyRefunded(provider.label, payment.amount, job.paymentId),
        { amount: payment.amount, alreadyRefunded: true },
      )
      return 'already-done'
    }
    await settle(
      { refundStatus: 'failed' },
      'refund-failed',
      REFUND_MESSAGES.failed(provider.label, reasonOf(refusal)),
      { error: refusal.message, status: refusal.status ?? null },
    )
    return 'failed'
  }

  const data = { refundId: refund.id, amount: refund.amount, status: refund.status }
  if (refund.status === 'rejected') {
    await settle(
      { refundId: refund.id, refundStatus: 'rejected' },
      'refund-failed',
      REFUND_MESSAGES.failed(provider.label, `el reembolso ${refund.id} quedó rechazado`),
      data,
    )
    return 'failed'
  }
  const inProcess = refund.status === 'in_process'
  await settle(
    { refundId: refund.id, refundStatus: refund.status },
    'refunded',
    inProcess
      ? REFUND_MESSAGES.inProcess(provider.label, refund.amount, refund.id)
      : REFUND_MESSAGES.refunded(provider.label, refund.amount, refund.id),
    data,
  )
  return inProcess ? 'in-process' : 'refunded'
}
