import { eq } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { lockOrder, recordOrderEvent, type OrderRow } from './order.server.ts'
import { orderNotFound } from './ship.server.ts'
import { orders } from './schema.ts'
import { assertTransition } from './status.ts'

/**
 * "pagado" by an approved online payment: the reservation stays (the units still have to ship).
 * Idempotent: an order already paid or completed changes nothing and gives false. A change the
 * status map refuses (a cancelled order) throws `TransitionRefused`. The electronic invoice is
 * queued in the same transaction; the invoicing job decides, by the shop's setting, whether this
 * payment issues it.
 */
export async function markOrderPaid(
  tx: Tx,
  orderId: string,
  payment: { id: string; status: string },
  jobs: JobQueue,
  /** Who approved it, as the timeline names it. */
  providerLabel = 'Mercado Pago',
): Promise<boolean> {
  const order = await lockOrder(tx, orderId)
  if (!order) throw new Error(`Pedido ${orderId} no encontrado`)
  if (order.status === 'pagado' || order.status === 'Completado') return false
  assertTransition(order.status, 'pagado')
  await tx
    .update(orders)
    .set({ status: 'pagado', paymentId: payment.id, paymentStatus: payment.status, updatedAt: new Date() })
    .where(eq(orders.id, orderId))
  await recordOrderEvent(
    tx,
    orderId,
    'paid',
    `Pago aprobado en ${providerLabel} (pago ${payment.id}).`,
    payment,
  )
  await jobs.send(tx, 'invoice-issue', { orderId, trigger: 'paid' })
  return true
}

/**
 * "Marcar como pagado" at the desk (cash received, a transfer seen): only while "pendiente de
 * pago"; anything else is refused by the status map.
 */
export async function markOrderPaidAtDesk(db: DbOrTx, orderId: string, by: string) {
  await db.transaction((tx) => markOrderPaidAtDeskIn(tx, orderId, by))
}

/**
 * The desk's "pagado" inside the caller's transaction, for a payment the caller records with it
 * (a transfer's ledger row and invoice): the order row stays locked until that transaction ends.
 * Gives the order as it was before the change.
 */
export async function markOrderPaidAtDeskIn(
  tx: Tx,
  orderId: string,
  by: string,
  message = 'Marcado como pagado.',
): Promise<OrderRow> {
  const order = await lockOrder(tx, orderId)
  if (!order) throw orderNotFound()
  assertTransition(order.status, 'pagado')
  await tx.update(orders).set({ status: 'pagado', updatedAt: new Date() }).where(eq(orders.id, orderId))
  await recordOrderEvent(tx, orderId, 'paid', message, undefined, by)
  return order
}
