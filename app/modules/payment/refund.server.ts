import { getOrder, listOrderEvents, recordOrderEvent } from '#app/modules/order/order.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { logger } from '#app/utils/logger.server.ts'
import { isOnlinePaymentMethod } from '#app/modules/order/schema.ts'
import { PaymentProviderError, type Refund } from './provider.ts'
import type { PaymentDeps } from './payment.server.ts'

/** The timeline events a refund job leaves; one of them per claim means the job already ran. */
export const REFUND_EVENT_TYPES = ['refunded', 'refund-failed', 'refund-skipped'] as const

export type RefundOutcome = 'refunded' | 'already-done' | 'skipped' | 'failed' | 'unknown-order'

/** Mercado Pago's own words can be long; the timeline keeps a line of them. */
const MESSAGE_MAX = 300

export const REFUND_MESSAGES = {
  refunded: (provider: string, amount: number, refundId: string) =>
    `Reembolso hecho en ${provider}: ${formatCOP(amount)} (reembolso ${refundId}).`,
  inProcess: (provider: string, amount: number, refundId: string) =>
    `Reembolso pedido a ${provider}, en proceso: ${formatCOP(amount)} (reembolso ${refundId}).`,
  alreadyRefunded: (provider: string, amount: number, paymentId: string) =>
    `${capitalized(provider)} ya tenía reembolsado el pago ${paymentId}: ${formatCOP(amount)}.`,
  skipped: 'Sin pago en línea que reembolsar.',
  failed: (provider: string, reason: string) =>
    `${capitalized(provider)} no hizo el reembolso: ${reason}. Devuelve el dinero por otro medio y anótalo en el pedido.`,
} as const

function capitalized(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The provider's reason, as one short line without its closing period (the message adds one). */
export function reasonOf(error: PaymentProviderError) {
  const line = error.message
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '')
  return (line.length > MESSAGE_MAX ? `${line.slice(0, MESSAGE_MAX - 1)}…` : line) || 'sin motivo'
}

/**
 * No answer, an answer we could not read, a provider error (5xx) or a throttle (429): the queue
 * tries again with backoff (the same idempotency key finds the same refund) and, at the end,
 * dead-letters the job where the dashboard shows it.
 */
export function worthRetrying(error: unknown) {
  if (!(error instanceof PaymentProviderError)) return true
  if (error.kind === 'network' || error.kind === 'invalid-response') return true
  return error.status !== undefined && (error.status >= 500 || error.status === 429)
}

/**
 * Job: refunds the whole online payment of an order whose withdrawal was accepted, and writes how it
 * went on the order's timeline. Safe to run more than once: a claim whose refund is already on the
 * timeline is left alone, the idempotency key (`refund-claim-{claimId}`) makes the provider answer
 * the refund it already made, and a payment the provider already shows refunded counts as done.
 * A refusal (too old, not approved) is written for a person to return the money another way; an
 * outage is thrown so the queue retries.
 */
export async function refundOrderPayment(
  deps: Pick<PaymentDeps, 'db' | 'providers'>,
  job: { orderId: string; claimId: number },
): Promise<RefundOutcome> {
  const { db } = deps
  const order = await getOrder(db, job.orderId)
  if (!order) {
    logger.warn(`[reembolso] pedido ${job.orderId} no encontrado (solicitud ${job.claimId})`)
    return 'unknown-order'
  }
  const events = await listOrderEvents(db, order.id)
  const done = events.some(
    (event) =>
      (REFUND_EVENT_TYPES as readonly string[]).includes(event.type) && event.data?.claimId === job.claimId,
  )
  if (done) return 'already-done'

  const record = (
    type: (typeof REFUND_EVENT_TYPES)[number],
    message: string,
    data: Record<string, unknown>,
  ) => recordOrderEvent(db, order.id, type, message, { claimId: job.claimId, ...data })

  const paymentId = order.paymentId
  if (!paymentId || !isOnlinePaymentMethod(order.paymentMethod)) {
    await record('refund-skipped', REFUND_MESSAGES.skipped, {})
    return 'skipped'
  }
  const payments = deps.providers[order.paymentMethod]
  const provider = payments.label

  let refund: Refund
  try {
    refund = await payments.refundPayment(paymentId, `refund-claim-${job.claimId}`)
  } catch (error) {
    if (worthRetrying(error)) throw error
    const refusal = error as PaymentProviderError
    // Refunded before, under another key (by hand in Mercado Pago, say): done, never twice.
    const payment = await payments.getPayment(paymentId).catch((lookup: unknown) => {
      if (worthRetrying(lookup)) throw lookup
      return null
    })
    if (payment?.status === 'refunded') {
      await record('refunded', REFUND_MESSAGES.alreadyRefunded(provider, payment.amount, paymentId), {
        paymentId,
        amount: payment.amount,
        alreadyRefunded: true,
      })
      return 'already-done'
    }
    await record('refund-failed', REFUND_MESSAGES.failed(provider, reasonOf(refusal)), {
      paymentId,
      error: refusal.message,
      status: refusal.status ?? null,
    })
    return 'failed'
  }

  const data = { paymentId, refundId: refund.id, amount: refund.amount, status: refund.status }
  if (refund.status === 'rejected') {
    await record(
      'refund-failed',
      REFUND_MESSAGES.failed(provider, `el reembolso ${refund.id} quedó rechazado`),
      data,
    )
    return 'failed'
  }
  await record(
    'refunded',
    refund.status === 'in_process'
      ? REFUND_MESSAGES.inProcess(provider, refund.amount, refund.id)
      : REFUND_MESSAGES.refunded(provider, refund.amount, refund.id),
    data,
  )
  return 'refunded'
}
