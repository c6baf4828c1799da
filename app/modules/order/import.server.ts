import { inArray } from 'drizzle-orm'
import { bulkInsert } from '#app/db/bulk-insert.server.ts'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import { holdUnits, OutOfStock, UnknownProduct } from '#app/modules/inventory/stock.server.ts'
import { customerColumns, type OrderCustomer } from './place.server.ts'
import { orderEvents, orderItems, orders, type PaymentMethod } from './schema.ts'
import type { OrderStatus } from './status.ts'

/** An order of another shop in the state it reached there; money in centavos. */
export type ImportedOrder = {
  id: string
  status: OrderStatus
  shippedAt: Date | null
  paymentMethod: PaymentMethod
  customer: OrderCustomer
  items: { sku: string; title: string; quantity: number; unitPrice: number }[]
  subtotal: number
  shippingCost: number
  total: number
  createdAt: Date
  /** What the timeline says about where the order came from. */
  note: string
}

/** Orders still to be shipped hold their units here, as orders placed in Vitrina do. */
export const holdsUnits = (order: ImportedOrder) =>
  !order.shippedAt && (order.status === 'pendiente de pago' || order.status === 'pagado')

/**
 * Writes orders brought from another shop with their states, in the caller's transaction, oldest
 * first so their numbers follow their dates. The original shop kept no reservations: an order
 * still to be shipped holds its units now when they are available, so the desk can ship it (each
 * in a savepoint: one that cannot leaves the others alone); a cash-on-delivery one counts as
 * confirmed, since the shop was already handling it, so the confirmation expiry leaves it alone.
 * Gives the ids of the orders that could not hold their units. `holdOnly` holds units without
 * writing the orders, for a rehearsal rolled back afterwards.
 */
export async function insertImportedOrders(
  tx: Tx,
  imported: ImportedOrder[],
  by: string,
  options: { holdOnly?: boolean } = {},
): Promise<string[]> {
  if (!imported.length) return []
  const now = new Date()
  const sorted = [...imported].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  )
  const held = new Set<string>()
  for (const order of sorted.filter(holdsUnits)) {
    try {
      await tx.transaction(async (savepoint) => {
        await holdUnits(
          savepoint,
          order.items.map((item) => ({ sku: item.sku, quantity: item.quantity })),
        )
      })
      held.add(order.id)
    } catch (error) {
      // A missing product is not a lack of units: the caller refuses such an order (it is to come
      // with its product), so one reaching here is a bug, not an order imported without units.
      if (error instanceof UnknownProduct) {
        throw new Error(
          `Imported order ${order.id} is still to ship and names ${error.sku}, which is not in Vitrina`,
          { cause: error },
        )
      }
      if (!(error instanceof OutOfStock)) throw error
    }
  }
  const unheld = sorted.filter((order) => holdsUnits(order) && !held.has(order.id)).map((order) => order.id)
  // A rehearsal (the import's dry run) stops here: an identity value is used up even by a
  // transaction that rolls back, and order numbers are the shop's, not to be skipped.
  if (options.holdOnly) return unheld
  await bulkInsert(
    tx,
    orders,
    sorted.map((order) => ({
      id: order.id,
      status: order.status,
      shippedAt: order.shippedAt,
      paymentMethod: order.paymentMethod,
      ...customerColumns(order.customer),
      subtotal: order.subtotal,
      shippingCost: order.shippingCost,
      total: order.total,
      reservationHeld: held.has(order.id),
      confirmedAt: holdsUnits(order) && order.paymentMethod === 'acordar' ? now : null,
      createdAt: order.createdAt,
      updatedAt: now,
    })),
  )
  await bulkInsert(
    tx,
    orderItems,
    sorted.flatMap((order) =>
      order.items.map((item) => ({
        orderId: order.id,
        productSku: item.sku,
        title: item.title,
        quantity: item.quantity,
        unitPrice: item.unitPrice,
      })),
    ),
  )
  await bulkInsert(
    tx,
    orderEvents,
    sorted.map((order) => ({
      orderId: order.id,
      type: 'imported',
      message:
        holdsUnits(order) && !held.has(order.id)
          ? `${order.note} No se apartaron sus unidades: no había suficientes disponibles al importarlo.`
          : order.note,
      data: { status: order.status, shipped: Boolean(order.shippedAt), unitsHeld: held.has(order.id) },
      createdBy: by,
      createdAt: now,
    })),
  )
  return unheld
}

/** Which of these order ids exist already. */
export async function existingOrderIds(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set()
  const rows = await db.select({ id: orders.id }).from(orders).where(inArray(orders.id, ids))
  return new Set(rows.map((row) => row.id))
}
