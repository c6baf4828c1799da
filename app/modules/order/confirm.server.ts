import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { enqueueBuyerMessage } from './buyer-message.server.ts'
import { ORDER_DESK_MESSAGES } from './messages.ts'
import { lockOrder, recordOrderEvent } from './order.server.ts'
import { orderNotFound } from './ship.server.ts'
import { orders } from './schema.ts'

/**
 * "Confirmado": the customer of a cash-on-delivery order answered on WhatsApp. A confirmed order
 * keeps its units past the confirmation window and no longer counts against the customer's limits.
 * The buyer's "Pedido confirmado" message is queued with it, when the owner turned it on.
 */
export async function confirmOrder(db: DbOrTx, jobs: JobQueue, orderId: string, by: string) {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) throw orderNotFound()
    if (order.paymentMethod !== 'acordar') {
      throw new Refusal(ORDER_DESK_MESSAGES.notCashOnDelivery, { status: 409 })
    }
    if (order.confirmedAt) throw new Refusal(ORDER_DESK_MESSAGES.alreadyConfirmed, { status: 409 })
    if (order.status === 'cancelado' || order.status === 'Completado' || order.shippedAt) {
      throw new Refusal(ORDER_DESK_MESSAGES.closedNoConfirm, { status: 409 })
    }
    await tx
      .update(orders)
      .set({ confirmedAt: new Date(), updatedAt: new Date() })
      .where(eq(orders.id, orderId))
    await recordOrderEvent(tx, orderId, 'confirmed', 'Confirmado con el cliente por WhatsApp.', undefined, by)
    await enqueueBuyerMessage(tx, jobs, orderId, 'confirmed')
  })
}
