import { and, asc, eq, lt } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import { releaseUnits } from '#app/modules/inventory/stock.server.ts'
import { orderEvents, orderItems, orders, type OrderStatus } from './schema.ts'

export type OrderRow = typeof orders.$inferSelect
export type OrderItemRow = typeof orderItems.$inferSelect

export async function getOrder(db: DbOrTx, id: string) {
  const [order] = await db.select().from(orders).where(eq(orders.id, id))
  if (!order) return null
  const items = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, id))
    .orderBy(asc(orderItems.productSku))
  return { ...order, items }
}
export type OrderWithItems = NonNullable<Awaited<ReturnType<typeof getOrder>>>

export async function listOrderEvents(db: DbOrTx, orderId: string) {
  return db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id))
}

export async function recordOrderEvent(
  db: DbOrTx,
  orderId: string,
  type: string,
  message: string,
  data?: Record<string, unknown>,
  createdBy = 'sistema',
) {
  await db.insert(orderEvents).values({ orderId, type, message, data, createdBy })
}

/**
 * Gives the order's reserved units back to the catalogue, once: the flag flip and the stock
 * update happen in the caller's transaction.
 */
async function releaseReservation(tx: Tx, orderId: string) {
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
  await releaseUnits(tx, items)
  return true
}

/**
 * Cancels an order and releases its units. Returns false when it was already cancelled, or, with
 * `onlyIfPending`, when it is no longer pending (a payment may have landed a moment ago: the check
 * runs on the locked row).
 */
export async function cancelOrder(
  db: DbOrTx,
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
  } = {},
) {
  const by = options.by ?? 'sistema'
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
    if (!order || order.status === 'cancelado') return false
    if (options.onlyIfPending && order.status !== 'pendiente de pago') return false
    if (options.unlessPaymentStarted && order.paymentPreferenceId) return false
    await tx
      .update(orders)
      .set({
        status: 'cancelado',
        updatedAt: new Date(),
        ...(options.releaseCheckoutKey ? { checkoutKey: null } : {}),
      })
      .where(eq(orders.id, orderId))
    await releaseReservation(tx, orderId)
    await recordOrderEvent(tx, orderId, 'cancelled', reason, undefined, by)
    return true
  })
}

/** Sets a pending order "pagado". Idempotent: a second call changes nothing and returns false. */
export async function markOrderPaid(
  tx: Tx,
  orderId: string,
  payment: { id: string; status: string },
): Promise<boolean> {
  const [updated] = await tx
    .update(orders)
    .set({ status: 'pagado', paymentId: payment.id, paymentStatus: payment.status, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pendiente de pago')))
    .returning({ id: orders.id })
  if (!updated) return false
  await recordOrderEvent(tx, orderId, 'paid', `Pago aprobado en Mercado Pago (pago ${payment.id}).`, payment)
  return true
}

export async function setOrderStatus(tx: Tx, orderId: string, status: OrderStatus) {
  await tx.update(orders).set({ status, updatedAt: new Date() }).where(eq(orders.id, orderId))
}

/**
 * What the payment provider says of an order about to expire: `paid` (an approved payment was found
 * and settled it), `unpaid` (nothing approved: safe to cancel), `unknown` (the provider could not be
 * asked, or the payment needs a person: leave the order for now).
 */
export type PaymentCheck = (orderId: string) => Promise<'paid' | 'unpaid' | 'unknown'>

/**
 * Cancels Mercado Pago orders still unpaid after `maxAgeHours`, releasing their units. The provider
 * is asked first, so a payment whose notification got lost settles the order instead; when it
 * cannot be asked the order waits for the next run (never cancelled blind). Cash on delivery orders
 * are paid on delivery and never expire.
 */
export async function expireUnpaidOrders(
  db: DbOrTx,
  maxAgeHours: number,
  checkPayment: PaymentCheck,
  now = new Date(),
) {
  const cutoff = new Date(now.getTime() - maxAgeHours * 3_600_000)
  const stale = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pendiente de pago'),
        eq(orders.paymentMethod, 'mercadopago'),
        lt(orders.createdAt, cutoff),
      ),
    )
  const result = { cancelled: 0, paid: 0, skipped: 0 }
  const reason = `Cancelado: sin pago después de ${maxAgeHours} horas; unidades liberadas.`
  for (const { id } of stale) {
    const check = await checkPayment(id)
    if (check === 'paid') result.paid++
    else if (check === 'unknown') result.skipped++
    else if (await cancelOrder(db, id, reason, { onlyIfPending: true })) result.cancelled++
  }
  return result
}
