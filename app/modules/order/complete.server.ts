import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { enqueueBuyerMessage } from './buyer-message.server.ts'
import { lockOrder, recordOrderEvent } from './order.server.ts'
import { orderNotFound, shipLockedOrder } from './ship.server.ts'
import { isPaidBeforeShipping, orders } from './schema.ts'
import { ORDER_DESK_MESSAGES } from './messages.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { assertTransition } from './status.ts'

/**
 * "Completado": the order was delivered (`deliveredAt`, now unless the carrier said when). One not
 * marked shipped yet is shipped in the same transaction (the shop handed it over), so a completed
 * order never keeps units held. The electronic invoice is queued with it (the job issues it for
 * cash on delivery, by the setting), and the buyer's "Pedido entregado" message when it is on (not
 * the shipped one too, for an order shipped on the way).
 */
export async function completeOrder(
  db: DbOrTx,
  jobs: JobQueue,
  orderId: string,
  by: string,
  deliveredAt = new Date(),
) {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) throw orderNotFound()
    assertTransition(order.status, 'Completado')
    // Paid before it ships (online, transfer): delivered unpaid would be a sale nobody paid for.
    if (order.status === 'pendiente de pago' && isPaidBeforeShipping(order.paymentMethod)) {
      throw new Refusal(ORDER_DESK_MESSAGES.completeUnpaid, { status: 409 })
    }
    if (!order.shippedAt) await shipLockedOrder(tx, jobs, order, {}, by, { tellBuyer: false })
    await tx
      .update(orders)
      .set({ status: 'Completado', deliveredAt, updatedAt: new Date() })
      .where(eq(orders.id, orderId))
    await recordOrderEvent(tx, orderId, 'completed', 'Pedido completado (entregado).', undefined, by)
    await jobs.send(tx, 'invoice-issue', { orderId, trigger: 'delivered' })
    await enqueueBuyerMessage(tx, jobs, orderId, 'completed')
  })
}
