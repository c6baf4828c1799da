import { eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '#app/db/client.server.ts'
import type { JobName, JobQueue } from '#app/jobs/jobs.server.ts'
import { cancelOrder } from '#app/modules/order/cancel.server.ts'
import { expireUnpaidOrders, type PaymentCheck } from '#app/modules/order/expire.server.ts'
import { expireUnpaidTransfers } from './transfer.server.ts'
import { readPaymentSettings } from '#app/modules/settings/settings.server.ts'
import { enqueuePaidOrderPurchase } from '#app/modules/marketing/events.server.ts'
import { markOrderPaid } from '#app/modules/order/mark-paid.server.ts'
import {
  getOrder,
  lockOrder,
  recordOrderEvent,
  recordPaymentPreference,
  recordPaymentState,
} from '#app/modules/order/order.server.ts'
import { isOnlinePaymentMethod, orders, type OnlinePaymentMethod } from '#app/modules/order/schema.ts'
import { shippingDiscountOf } from '#app/modules/order/discounts.ts'
import { PAYMENT_METHOD_LABELS } from '#app/modules/order/messages.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { cleanText } from '#app/utils/text.ts'
import { PAYMENT_MESSAGES } from './messages.ts'
import { chargedAmount, PaymentProviderError, type Payment, type PaymentProviders } from './provider.ts'
import { recordLedgerPayment } from './ledger.server.ts'
import { paymentEvents } from './schema.ts'
import {
  CHECKOUT_RESULT_PATHS,
  PAYMENT_WEBHOOK_PATH,
  WOMPI_EVENTS_PATH,
  wompiReturnPath,
} from '#app/utils/paths.ts'
import { logger } from '#app/utils/logger.server.ts'

export type PaymentDeps = {
  db: Db
  jobs: JobQueue
  /** Each online method's provider (Mercado Pago's, Wompi's, a simulation, or none). */
  providers: PaymentProviders
  /** Unpaid online orders are cancelled after this; their payment links stop an hour before. */
  paymentTimeoutHours?: number
}

/**
 * A link stops taking payments an hour before the order expires, so nobody pays for units already
 * released; a late retry still gets ten minutes, never past the expiry itself.
 */
export function paymentLinkExpiry(createdAt: Date, timeoutHours: number, now = new Date()): Date {
  const expiry = createdAt.getTime() + timeoutHours * 3_600_000
  const preferred = expiry - 3_600_000
  return new Date(Math.min(expiry, Math.max(preferred, now.getTime() + 10 * 60_000)))
}

/**
 * A payment that could not start, as the shopper reads it (spec §8): the provider, not the shopper,
 * failed, so 502; the provider's error is the cause, logged where the refusal is answered.
 */
function paymentStartRefusal(error: unknown): Refusal {
  const message =
    error instanceof PaymentProviderError
      ? error.kind === 'network'
        ? PAYMENT_MESSAGES.noServer
        : error.kind === 'invalid-response'
          ? PAYMENT_MESSAGES.noPaymentUrl
          : PAYMENT_MESSAGES.paymentError(error.message)
      : PAYMENT_MESSAGES.noServer
  return new Refusal(message, { status: 502, standsAlone: true, cause: error })
}

/**
 * Starts the online payment of a pending order with its method's provider (a Mercado Pago
 * preference, a signed Wompi checkout) and returns the payment link. A payment that cannot start
 * throws a `Refusal` (502; 404 or 409 for an order that is not, or no longer, pending). When the
 * provider fails and `cancelOnFailure` is set (a new order), the order is cancelled and its units
 * released, so a failed start never keeps stock.
 */
export async function startOnlinePayment(
  deps: PaymentDeps,
  orderId: string,
  origin: string,
  options: { cancelOnFailure: boolean },
): Promise<string> {
  const order = await getOrder(deps.db, orderId)
  // The shopper's order (or its id) is at fault, not Mercado Pago: a 4xx, not the 502 of a failed start.
  if (!order || order.status !== 'pendiente de pago' || !isOnlinePaymentMethod(order.paymentMethod)) {
    throw new Refusal(PAYMENT_MESSAGES.paymentError('El pedido ya no está pendiente de pago.'), {
      status: order ? 409 : 404,
      standsAlone: true,
    })
  }
  const provider = deps.providers[order.paymentMethod]
  try {
    const preference = await provider.createPreference({
      orderId: order.id,
      orderNumber: order.number,
      items: order.items.map((item) => ({
        sku: item.productSku,
        title: item.title,
        quantity: item.quantity,
        unitPrice: item.unitPrice,
        discount: item.discount,
      })),
      shippingCost: order.shippingCost,
      shippingDiscount: shippingDiscountOf(order),
      total: order.total,
      payer: {
        name: order.customerName,
        surname: order.customerLastName,
        email: order.customerEmail,
        phone: order.customerPhone,
        identification: order.customerIdentificationNumber,
        identificationType: order.customerIdentificationType,
      },
      backUrls: {
        success: `${origin}${CHECKOUT_RESULT_PATHS.success}`,
        pending: `${origin}${CHECKOUT_RESULT_PATHS.pending}`,
        failure: `${origin}${CHECKOUT_RESULT_PATHS.failure}`,
      },
      returnUrl: `${origin}${wompiReturnPath(order.id)}`,
      notificationUrl: `${origin}${order.paymentMethod === 'wompi' ? WOMPI_EVENTS_PATH : PAYMENT_WEBHOOK_PATH}`,
      expiresAt: deps.paymentTimeoutHours
        ? paymentLinkExpiry(order.createdAt, deps.paymentTimeoutHours)
        : undefined,
    })
    await deps.db.transaction(async (tx) => {
      await recordPaymentPreference(tx, order.id, preference.id)
      await recordOrderEvent(tx, order.id, 'payment-started', `Pago iniciado en ${provider.label}.`, {
        preferenceId: preference.id,
      })
    })
    return preference.initPoint
  } catch (error) {
    // One transaction: the failure is on the timeline exactly when the units were given back.
    await deps.db.transaction(async (tx) => {
      await recordOrderEvent(
        tx,
        order.id,
        'payment-start-failed',
        `No se pudo iniciar el pago: ${providerText(error)}`,
      )
      if (options.cancelOnFailure) {
        await cancelOrder(
          tx,
          deps.jobs,
          order.id,
          'Cancelado: no se pudo iniciar el pago; unidades liberadas.',
          {
            onlyIfPending: true,
            unlessPaymentStarted: true,
            // The shopper's form still holds this key: sent again, it must place a new order.
            releaseCheckoutKey: true,
          },
        )
      }
    })
    throw paymentStartRefusal(error)
  }
}

/** How long past the payment timeout an order with a payment still in process keeps waiting. */
const IN_FLIGHT_GRACE_HOURS = 24

/** Whether the order was placed less than `hours` ago. */
async function placedWithin(db: PaymentDeps['db'], orderId: string, hours: number) {
  const [order] = await db.select({ createdAt: orders.createdAt }).from(orders).where(eq(orders.id, orderId))
  return Boolean(order && Date.now() - order.createdAt.getTime() < hours * 3_600_000)
}

/** A provider's error text as PostgreSQL takes it: cleaned, bounded. */
function providerText(error: unknown) {
  return cleanText(error instanceof Error ? error.message : String(error)).slice(0, 500)
}

/** Whether a processing job for this notification is still queued, running or retrying. */
async function hasLiveJob(tx: Tx, eventId: string): Promise<boolean> {
  const result = await tx.execute(
    sql`select 1 from pgboss.job where name = ${'payment-notification' satisfies JobName} and data->>'eventId' = ${eventId} and state in ('created', 'retry', 'active') limit 1`,
  )
  return (result as unknown as { rows: unknown[] }).rows.length > 0
}

/**
 * Webhook step: remembers the notification and enqueues its processing in the same transaction.
 * The answer goes back at once. A repeat of a processed notification, or of one whose job is still
 * in the queue, does nothing; a repeat of one whose job ran out of retries is queued again
 * (processing is idempotent).
 */
export async function receivePaymentNotification(
  deps: Pick<PaymentDeps, 'db' | 'jobs'>,
  notification: {
    provider: OnlinePaymentMethod
    eventId: string
    topic: string
    resourceId: string
    payload: Record<string, unknown>
  },
): Promise<'accepted' | 'requeued' | 'duplicate' | 'ignored'> {
  if (notification.topic !== 'payment' && notification.topic !== 'transaction.updated') return 'ignored'
  return deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(paymentEvents)
      .values({
        id: notification.eventId,
        provider: notification.provider,
        topic: notification.topic,
        resourceId: notification.resourceId,
        payload: notification.payload,
      })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id })
    let outcome: 'accepted' | 'requeued' = 'accepted'
    if (!inserted) {
      const [stored] = await tx
        .select({ processedAt: paymentEvents.processedAt })
        .from(paymentEvents)
        .where(eq(paymentEvents.id, notification.eventId))
        .for('update')
      if (!stored || stored.processedAt) return 'duplicate'
      // Still waiting or retrying in the queue: providers resend often, one job is enough.
      if (await hasLiveJob(tx, notification.eventId)) return 'duplicate'
      outcome = 'requeued'
    }
    await deps.jobs.send(tx, 'payment-notification', {
      eventId: notification.eventId,
      paymentId: notification.resourceId,
      provider: notification.provider,
    })
    return outcome
  })
}

/**
 * Job: asks the provider for the payment (never trusting the notification itself) and settles the
 * order. Safe to run more than once.
 */
export async function processPaymentNotification(
  deps: PaymentDeps,
  job: { eventId: string; paymentId: string; provider?: OnlinePaymentMethod },
) {
  // Jobs queued before Wompi came name no provider: they were Mercado Pago's.
  const method = job.provider ?? 'mercadopago'
  const payment = await deps.providers[method].getPayment(job.paymentId)
  return deps.db.transaction(async (tx) => {
    await tx
      .update(paymentEvents)
      .set({ processedAt: sql`now()` })
      .where(eq(paymentEvents.id, job.eventId))
    return settlePayment(tx, deps.jobs, method, payment)
  })
}

/**
 * The shopper back from Wompi's page: the transaction the return names settles the order at once,
 * as its event's job would (the event then finds it settled), but only as found among this shop's
 * own transactions for the order (the private key's search): an id from someone else's Wompi
 * account, with our order as its reference, settles nothing. Gives where the shopper goes: the
 * result page of the order's state.
 */
export async function settleReturnedPayment(
  deps: PaymentDeps,
  method: OnlinePaymentMethod,
  orderId: string,
  paymentId: string | null,
): Promise<keyof typeof CHECKOUT_RESULT_PATHS> {
  let payment: Payment | null = null
  if (paymentId) {
    try {
      const ours = await deps.providers[method].searchPayments(orderId)
      payment = ours.find((candidate) => candidate.id === paymentId) ?? null
    } catch (error) {
      logger.warn(`[pagos] no se pudo leer la transacción ${paymentId} al volver: ${providerText(error)}`)
    }
  }
  if (payment && payment.externalReference === orderId) {
    await deps.db.transaction((tx) => settlePayment(tx, deps.jobs, method, payment))
  }
  const [order] = await deps.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId))
  if (order?.status === 'cancelado') return 'failure'
  if (order?.status !== 'pendiente de pago') return 'success'
  if (payment?.externalReference !== orderId) return 'pending'
  return payment.status === 'rejected' || payment.status === 'cancelled'
    ? 'failure'
    : payment.status === 'approved'
      ? 'success'
      : 'pending'
}

/**
 * Applies what the provider says of one payment to its order, in the caller's transaction:
 * approved (and covering the total) makes it "pagado"; anything odd goes on its timeline.
 */
async function settlePayment(tx: Tx, jobs: JobQueue, method: OnlinePaymentMethod, payment: Payment) {
  if (!payment.externalReference) return 'unknown-order'
  // Locked and read here, so the expiry job cannot cancel it between this read and the update.
  const locked = await lockOrder(tx, payment.externalReference)
  const order = locked ? await getOrder(tx, locked.id) : null
  if (!order) return 'unknown-order'
  // A payment of another method's order (a forged or mistaken reference) settles nothing.
  if (order.paymentMethod !== method) return 'unknown-order'
  if (payment.status !== 'not_found') {
    await recordLedgerPayment(tx, {
      provider: method,
      providerPaymentId: payment.id,
      orderId: order.id,
      method: payment.method,
      status: payment.status,
      amount: payment.amount,
      fee: payment.fee,
    })
  }
  // A pending order follows its latest payment; a settled one keeps the payment that settled it.
  // Told again of a state the order already shows (a notice repeated, a return page reloaded):
  // nothing new for its timeline.
  const alreadyShown = order.paymentId === payment.id && order.paymentStatus === payment.status
  if (order.status === 'pendiente de pago' || order.paymentId === payment.id || !order.paymentId) {
    await recordPaymentState(tx, order.id, payment)
  }
  if (payment.status === 'approved') {
    if (order.status === 'pagado' && order.paymentId && order.paymentId !== payment.id) {
      await recordOrderEvent(
        tx,
        order.id,
        'duplicate-payment',
        `Pago ${payment.id} aprobado para un pedido ya pagado con ${order.paymentId}: revisa el reembolso.`,
        payment,
      )
      return 'duplicate-payment'
    }
    if (order.status === 'cancelado') {
      await recordOrderEvent(
        tx,
        order.id,
        'paid-after-cancel',
        `Pago ${payment.id} aprobado para un pedido cancelado: revisa el reembolso.`,
        payment,
      )
      return 'paid-after-cancel'
    }
    if (payment.amount < chargedAmount(order)) {
      await recordOrderEvent(
        tx,
        order.id,
        'payment-amount-mismatch',
        `El pago ${payment.id} no cubre el total del pedido.`,
        payment,
      )
      return 'amount-mismatch'
    }
    // The order module makes the change ("pagado" keeps the reservation until shipping). The
    // business was told of the order when it was placed: no second notice here.
    if (!(await markOrderPaid(tx, order.id, payment, jobs, PAYMENT_METHOD_LABELS[method])))
      return 'already-paid'
    // Meta's Purchase of an online order is the approved payment (with advertising consent at checkout).
    await enqueuePaidOrderPurchase(tx, jobs, order.id)
    return 'paid'
  }
  if (payment.status === 'rejected' || payment.status === 'cancelled') {
    if (alreadyShown) return 'rejected'
    await recordOrderEvent(
      tx,
      order.id,
      'payment-rejected',
      `Pago ${payment.id} ${payment.status === 'rejected' ? 'rechazado' : 'cancelado'}; el pedido sigue pendiente de pago.`,
      payment,
    )
    return 'rejected'
  }
  if (
    order.status === 'pagado' &&
    order.paymentId === payment.id &&
    (payment.status === 'refunded' || payment.status === 'charged_back' || payment.status === 'cancelled')
  ) {
    await recordOrderEvent(
      tx,
      order.id,
      'payment-reversed',
      `Pago ${payment.id} ${payment.status === 'charged_back' ? 'con contracargo' : payment.status === 'cancelled' ? 'anulado' : 'reembolsado'}: no envíes el pedido sin revisarlo.`,
      payment,
    )
    return 'reversed'
  }
  if (alreadyShown) return 'pending'
  await recordOrderEvent(
    tx,
    order.id,
    'payment-update',
    `Pago ${payment.id} en estado ${payment.status}.`,
    payment,
  )
  return 'pending'
}

/**
 * Asks the provider, before an unpaid order expires, whether it was paid after all (a notification
 * lost, or its job out of retries). An approved payment settles the order instead of cancelling it;
 * a provider that cannot be asked leaves the order for the next run.
 */
export function paymentCheckBeforeExpiry(deps: PaymentDeps): PaymentCheck {
  return async (orderId) => {
    const [placed] = await deps.db
      .select({ method: orders.paymentMethod })
      .from(orders)
      .where(eq(orders.id, orderId))
    // A transfer has no provider to ask: the owner confirms it at the desk, or it expires.
    if (!placed || !isOnlinePaymentMethod(placed.method)) return 'unpaid'
    const method = placed.method
    let payments: Payment[]
    try {
      payments = await deps.providers[method].searchPayments(orderId)
    } catch (error) {
      logger.warn(`[pagos] no se pudo consultar los pagos del pedido ${orderId}: ${providerText(error)}`)
      return 'unknown'
    }
    const approved = payments.find((payment) => payment.status === 'approved')
    if (!approved) {
      // A PSE or Nequi payment still in the bank's hands may yet be approved: wait for it (a day at
      // most), rather than cancel an order whose money is on its way.
      const inFlight = payments.some(
        (payment) => payment.status === 'pending' || payment.status === 'in_process',
      )
      return inFlight &&
        (await placedWithin(deps.db, orderId, IN_FLIGHT_GRACE_HOURS + (deps.paymentTimeoutHours ?? 0)))
        ? 'unknown'
        : 'unpaid'
    }
    const [seen] = await deps.db
      .select({ paymentId: orders.paymentId, paymentStatus: orders.paymentStatus })
      .from(orders)
      .where(eq(orders.id, orderId))
    // Already looked at and left for a person (e.g. short of the total): not again every run.
    if (seen?.paymentId === approved.id && seen.paymentStatus === 'approved') return 'unknown'
    const outcome = await deps.db.transaction((tx) => settlePayment(tx, deps.jobs, method, approved))
    // Approved money that did not settle the order (e.g. short of the total) is for a person to see.
    return outcome === 'paid' || outcome === 'already-paid' ? 'paid' : 'unknown'
  }
}

/**
 * Job: cancels online orders unpaid for too long, after asking the provider about each one, and
 * transfer orders past the shop's deadline for transfers.
 */
export async function expireUnpaidOnlineOrders(deps: PaymentDeps, maxAgeHours: number, now = new Date()) {
  const online = await expireUnpaidOrders(
    deps.db,
    deps.jobs,
    maxAgeHours,
    paymentCheckBeforeExpiry(deps),
    now,
  )
  const { transferDeadlineHours } = await readPaymentSettings(deps.db)
  const transfers = await expireUnpaidTransfers(deps.db, deps.jobs, transferDeadlineHours, now)
  return { ...online, transfersCancelled: transfers.cancelled }
}
