import { eq } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { shipOrderUnits } from '#app/modules/inventory/movement.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { enqueueBuyerMessage } from './buyer-message.server.ts'
import { ORDER_DESK_MESSAGES, SHIPMENT_TEXT_MAX } from './messages.ts'
import { lockOrder, recordOrderEvent, type OrderRow } from './order.server.ts'
import { orderItems, orders } from './schema.ts'

/**
 * Carrier and tracking number ("guía"), both optional; the carrier's public tracking page when the
 * guía was bought through the shop.
 */
export type Shipment = {
  carrier?: string | null
  trackingNumber?: string | null
  trackingUrl?: string | null
}

export function orderNotFound() {
  return new Refusal(ORDER_DESK_MESSAGES.notFound, { status: 404 })
}

/**
 * Ships an order already locked by the caller's transaction: its reservation becomes exits in the
 * ledger through inventory, so no unit stays held. Used by "Marcar como Enviado" and by
 * "Completado" of an order the shop handed over without marking it shipped first. The buyer's
 * "Pedido enviado" message is queued with it when the owner turned it on (`tellBuyer: false`:
 * the caller sends another one instead).
 */
export async function shipLockedOrder(
  tx: Tx,
  jobs: JobQueue,
  order: OrderRow,
  shipment: Shipment,
  by: string,
  { tellBuyer = true }: { tellBuyer?: boolean } = {},
) {
  const carrier = shipment.carrier?.trim() || null
  const trackingNumber = shipment.trackingNumber?.trim() || null
  if ((carrier?.length ?? 0) > SHIPMENT_TEXT_MAX || (trackingNumber?.length ?? 0) > SHIPMENT_TEXT_MAX) {
    throw new Refusal(ORDER_DESK_MESSAGES.tooLong(SHIPMENT_TEXT_MAX), { status: 400, standsAlone: true })
  }
  if (order.shippedAt) throw new Refusal(ORDER_DESK_MESSAGES.alreadyShipped, { status: 409 })
  if (order.status === 'cancelado' || order.status === 'Completado') {
    throw new Refusal(ORDER_DESK_MESSAGES.closedNoShip, { status: 409 })
  }
  if (!order.reservationHeld) throw new Refusal(ORDER_DESK_MESSAGES.nothingHeld, { status: 409 })
  const lines = await tx
    .select({ sku: orderItems.productSku, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
  const exits = await shipOrderUnits(tx, jobs, { id: order.id, number: order.number, lines }, by)
  await tx
    .update(orders)
    .set({
      shippedAt: new Date(),
      reservationHeld: false,
      carrier,
      trackingNumber,
      trackingUrl: shipment.trackingUrl ?? null,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, order.id))
  const how = [carrier && `transportadora ${carrier}`, trackingNumber && `guía ${trackingNumber}`]
    .filter(Boolean)
    .join(', ')
  await recordOrderEvent(
    tx,
    order.id,
    'shipped',
    `Marcado como enviado${how ? ` (${how})` : ''}.`,
    { carrier, trackingNumber, exits },
    by,
  )
  if (tellBuyer) await enqueueBuyerMessage(tx, jobs, order.id, 'shipped')
}

/** "Marcar como Enviado": one transaction on the locked order. */
export async function shipOrder(
  db: DbOrTx,
  jobs: JobQueue,
  orderId: string,
  shipment: Shipment,
  by: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) throw orderNotFound()
    await shipLockedOrder(tx, jobs, order, shipment, by)
  })
}
