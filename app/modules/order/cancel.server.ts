import { and, eq } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { returnShippedUnits } from '#app/modules/inventory/movement.server.ts'
import { releaseUnits } from '#app/modules/inventory/stock.server.ts'
import { enqueueBuyerMessage } from './buyer-message.server.ts'
import { lockOrder, recordOrderEvent, type OrderRow } from './order.server.ts'
import { orderItems, orders } from './schema.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { CANCEL_REASON_MAX, ORDER_DESK_MESSAGES } from './messages.ts'
import { orderNotFound } from './ship.server.ts'
import { assertReturnable, assertTransition } from './status.ts'

/**
 * Gives the order's reserved units back through inventory, once: the flag flip and the stock
 * update happen in the caller's transaction.
 */
async function releaseReservation(tx: Tx, jobs: JobQueue, orderId: string) {
  const [held] = await tx
    .update(orders)
    .set({ reservationHeld: false, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.reservationHeld, true)))
    .returning({ id: orders.id })
  if (!held) return false
  const items = await tx
    .select({ sku: orderItems.productSku, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
  await releaseUnits(tx, jobs, items)
  return true
}

/**
 * "cancelado": releases the order's units; a shipped order's units come back through inventory as
 * a return of its exits (refused at delivery). Returns false when it was already cancelled, or, with
 * `onlyIfPending`, when it is no longer pending (a payment may have landed a moment ago: the check
 * runs on the locked row). A change the status map refuses throws `TransitionRefused`.
 */
export async function cancelOrder(
  db: DbOrTx,
  jobs: JobQueue,
  orderId: string,
  reason: string,
  options: {
    by?: string
    onlyIfPending?: boolean
    /**
     * Frees the order's checkout key, so the same form sent again places a new order instead of
     * finding this cancelled one (a payment that could not even start).
     */
    releaseCheckoutKey?: boolean
    /**
     * Leaves the order alone when a payment link was made for it: a twin request (double submit)
     * may have sent the shopper to pay while this one failed to start its own payment.
     */
    unlessPaymentStarted?: boolean
    /** Leaves a cash-on-delivery order alone once confirmed or shipped (the confirmation window). */
    unlessConfirmed?: boolean
    /**
     * Leaves a shipped order alone: an automatic expiry must never turn units already handed to the
     * courier back into stock (only the desk cancels a shipped order, as a refused delivery).
     */
    unlessShipped?: boolean
  } = {},
) {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order || order.status === 'cancelado') return false
    if (options.onlyIfPending && order.status !== 'pendiente de pago') return false
    if (options.unlessPaymentStarted && order.paymentPreferenceId) return false
    if (options.unlessConfirmed && (order.confirmedAt || order.shippedAt)) return false
    if (options.unlessShipped && order.shippedAt) return false
    await cancelLockedOrder(tx, jobs, order, reason, options.by ?? 'sistema', {
      releaseCheckoutKey: options.releaseCheckoutKey,
    })
    return true
  })
}

/**
 * Cancels an order the caller's transaction has locked and found not cancelled yet. `asReturn`: an
 * accepted withdrawal or reversal, which may also end a delivered order (`assertReturnable`). An
 * order that was paid or delivered may have its electronic invoice: the credit-note job is queued,
 * and it decides whether there is one to credit. The buyer's "Pedido cancelado" message is queued
 * when the owner turned it on, except for a payment that could not even start
 * (`releaseCheckoutKey`): the shopper is still on the checkout, reading why.
 */
export async function cancelLockedOrder(
  tx: Tx,
  jobs: JobQueue,
  order: OrderRow,
  reason: string,
  by: string,
  { releaseCheckoutKey = false, asReturn = false }: { releaseCheckoutKey?: boolean; asReturn?: boolean } = {},
) {
  if (asReturn) assertReturnable(order.status)
  else assertTransition(order.status, 'cancelado')
  await tx
    .update(orders)
    .set({ status: 'cancelado', updatedAt: new Date(), ...(releaseCheckoutKey ? { checkoutKey: null } : {}) })
    .where(eq(orders.id, order.id))
  await releaseReservation(tx, jobs, order.id)
  if (order.shippedAt) await returnShippedUnits(tx, jobs, { id: order.id, number: order.number }, by)
  await recordOrderEvent(tx, order.id, 'cancelled', reason, { returned: Boolean(order.shippedAt) }, by)
  if (order.status === 'pagado' || order.status === 'Completado') {
    await jobs.send(tx, 'invoice-credit-note', { orderId: order.id })
  }
  if (!releaseCheckoutKey) await enqueueBuyerMessage(tx, jobs, order.id, 'cancelled')
}

/**
 * "Cancelado" at the desk, with the admin's reason: like `cancelOrder`, but an order that is not
 * there or already cancelled is a refusal the admin reads, checked on the row it locks.
 */
export async function cancelOrderAtDesk(
  db: DbOrTx,
  jobs: JobQueue,
  orderId: string,
  reason: string,
  by: string,
) {
  // The event adds its own period: "motivo." must not end in "..".
  const text = reason.trim().replace(/[.\s]+$/, '')
  if (!text) throw new Refusal(ORDER_DESK_MESSAGES.reasonRequired, { status: 400, standsAlone: true })
  if (text.length > CANCEL_REASON_MAX) {
    throw new Refusal(ORDER_DESK_MESSAGES.tooLong(CANCEL_REASON_MAX), { status: 400, standsAlone: true })
  }
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) throw orderNotFound()
    if (order.status === 'cancelado') throw new Refusal(ORDER_DESK_MESSAGES.alreadyCancelled, { status: 409 })
    await cancelLockedOrder(tx, jobs, order, `Cancelado: ${text}.`, by)
  })
}
