import { asc, eq } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import type { OrderDiscountRecord } from './discounts.ts'
import { orderDiscounts, orderEvents, orderItems, orders } from './schema.ts'

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

/**
 * Each discount the order got, as it kept them when placed (name, code, line or shipping, amount),
 * in the order they were applied.
 */
export async function orderDiscountsOf(db: DbOrTx, orderId: string): Promise<OrderDiscountRecord[]> {
  return db
    .select({
      promotionId: orderDiscounts.promotionId,
      name: orderDiscounts.name,
      code: orderDiscounts.code,
      productSku: orderDiscounts.productSku,
      amount: orderDiscounts.amount,
    })
    .from(orderDiscounts)
    .where(eq(orderDiscounts.orderId, orderId))
    .orderBy(asc(orderDiscounts.id))
}

/**
 * The order row locked for the rest of the caller's transaction: every state change reads the
 * status it starts from this way, so two changes of one order never both act on the same status.
 */
export async function lockOrder(tx: Tx, id: string): Promise<OrderRow | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update')
  return order ?? null
}

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

/** The payment link made for the order (Checkout Pro preference id). */
export async function recordPaymentPreference(db: DbOrTx, orderId: string, preferenceId: string) {
  await db.update(orders).set({ paymentPreferenceId: preferenceId }).where(eq(orders.id, orderId))
}

/** The payment the order follows and what the provider last said of it; the status is not touched. */
export async function recordPaymentState(
  db: DbOrTx,
  orderId: string,
  payment: { id: string; status: string },
) {
  await db
    .update(orders)
    .set({ paymentId: payment.id, paymentStatus: payment.status, updatedAt: new Date() })
    .where(eq(orders.id, orderId))
}
