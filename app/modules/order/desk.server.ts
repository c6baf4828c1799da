import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
import { confirmationDeadline } from './expire-unconfirmed.server.ts'
import { holdingUnconfirmed, isHoldingUnconfirmed } from './holding.ts'
import { getOrder, listOrderEvents } from './order.server.ts'
import { orderItems, orders } from './schema.ts'
import type { OrderStatus } from './status.ts'
import type { DeskView } from './desk-views.ts'
import { cleanText } from '#app/utils/text.ts'

export const DESK_PAGE_SIZE = 20

/** A cash-on-delivery order nobody confirmed yet, still holding its units. */
const awaitingConfirmation = and(eq(orders.paymentMethod, 'acordar'), holdingUnconfirmed)

/** Paid, or cash on delivery confirmed with the customer, and not shipped yet. */
const readyToShip = and(
  isNull(orders.shippedAt),
  or(
    eq(orders.status, 'pagado'),
    and(
      eq(orders.paymentMethod, 'acordar'),
      eq(orders.status, 'pendiente de pago'),
      isNotNull(orders.confirmedAt),
    ),
  ),
)

function viewFilter(view: DeskView): SQL | undefined {
  const status = (...values: OrderStatus[]) => inArray(orders.status, values)
  switch (view) {
    case 'abiertos':
      return status('pendiente de pago', 'pagado')
    case 'pagados':
      return status('pagado')
    case 'pendientes':
      return status('pendiente de pago')
    case 'por-confirmar':
      return awaitingConfirmation
    case 'por-enviar':
      return readyToShip
    case 'cancelados':
      return status('cancelado')
    case 'completados':
      return status('Completado')
    case 'todos':
      return undefined
  }
}

/**
 * By order number (up to 6 digits, with or without "#"), customer name, or phone (7 digits or
 * more, spaces and dashes ignored): a short number is an order, never part of a phone.
 */
function searchFilter(query: string): SQL | undefined {
  // A NUL would make PostgreSQL refuse the query: no name or phone has one.
  const text = cleanText(query).trim().slice(0, 80)
  if (!text) return undefined
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`)
  const conditions: SQL[] = [
    ilike(sql`${orders.customerName} || ' ' || ${orders.customerLastName}`, `%${escaped}%`),
  ]
  const number = text.replace(/^#/, '')
  if (/^\d{1,6}$/.test(number)) conditions.push(eq(orders.number, Number(number)))
  const phoneDigits = text.replace(/[\s().-]/g, '')
  if (/^\+?\d{7,}$/.test(phoneDigits)) {
    const national = phoneDigits.replace(/^\+/, '').replace(/^57(?=\d{10}$)/, '')
    conditions.push(ilike(orders.customerPhone, `%${national}%`))
  }
  return or(...conditions)
}

export type DeskListInput = { view: DeskView; query: string; page: number }

/** One page of a desk list, newest first, with when each unconfirmed cash order lets go of its units. */
export async function listDeskOrders(db: DbOrTx, input: DeskListInput, confirmationHours: number) {
  const where = and(viewFilter(input.view), searchFilter(input.query))
  const [{ total }] = (await db.select({ total: count() }).from(orders).where(where)) as [{ total: number }]
  const pageCount = Math.max(1, Math.ceil(total / DESK_PAGE_SIZE))
  const page = Math.min(Math.max(1, Math.trunc(input.page) || 1), pageCount)
  const rows = await db
    .select({
      id: orders.id,
      number: orders.number,
      createdAt: orders.createdAt,
      customerName: orders.customerName,
      customerLastName: orders.customerLastName,
      customerPhone: orders.customerPhone,
      city: orders.customerCity,
      department: orders.customerDepartment,
      total: orders.total,
      paymentMethod: orders.paymentMethod,
      status: orders.status,
      shippedAt: orders.shippedAt,
      confirmedAt: orders.confirmedAt,
      reservationHeld: orders.reservationHeld,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(DESK_PAGE_SIZE)
    .offset((page - 1) * DESK_PAGE_SIZE)
  return {
    items: rows.map((row) => ({ ...row, releaseAt: releaseAtOf(row, confirmationHours) })),
    total,
    page,
    pageCount,
  }
}

/** When the order lets go of its units unless someone confirms it; null when it never will. */
export function releaseAtOf(
  order: {
    paymentMethod: string
    status: string
    confirmedAt: Date | null
    shippedAt: Date | null
    reservationHeld: boolean
    createdAt: Date
  },
  confirmationHours: number,
): Date | null {
  const waiting = order.paymentMethod === 'acordar' && isHoldingUnconfirmed(order)
  return waiting ? confirmationDeadline(order.createdAt, confirmationHours) : null
}

/** The dashboard's work queues. */
export async function deskCounts(db: DbOrTx) {
  const [row] = await db
    .select({
      toConfirm: sql<number>`count(*) filter (where ${awaitingConfirmation})`.mapWith(Number),
      toShip: sql<number>`count(*) filter (where ${readyToShip})`.mapWith(Number),
    })
    .from(orders)
  return { toConfirm: row?.toConfirm ?? 0, toShip: row?.toShip ?? 0 }
}

/**
 * Everything the detail page shows: the order, its items and timeline, and the shopper's earlier
 * orders by phone (a refused delivery is an order cancelled after it was shipped).
 */
export async function getDeskOrder(db: DbOrTx, id: string, confirmationHours: number) {
  const order = await getOrder(db, id)
  if (!order) return null
  const events = await listOrderEvents(db, id)
  const earlierWhere = and(
    eq(orders.customerPhone, order.customerPhone),
    ne(orders.id, order.id),
    lt(orders.createdAt, order.createdAt),
  )
  const [history] = await db
    .select({
      count: count(),
      cancelled:
        sql<number>`count(*) filter (where ${orders.status} = 'cancelado' and ${orders.shippedAt} is null)`.mapWith(
          Number,
        ),
      refused:
        sql<number>`count(*) filter (where ${orders.status} = 'cancelado' and ${orders.shippedAt} is not null)`.mapWith(
          Number,
        ),
    })
    .from(orders)
    .where(earlierWhere)
  const earlier = await db
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      createdAt: orders.createdAt,
      total: orders.total,
    })
    .from(orders)
    .where(earlierWhere)
    .orderBy(desc(orders.createdAt))
    .limit(10)
  // Read-only: the ledger rows this order caused (exits when shipped, the return if refused).
  const movements = await db
    .select({
      id: stockMovements.id,
      sku: stockMovements.productSku,
      type: stockMovements.type,
      quantity: stockMovements.quantity,
      unitPrice: stockMovements.unitPrice,
      location: stockMovements.location,
      receipt: stockMovements.receipt,
      createdBy: stockMovements.createdBy,
      createdAt: stockMovements.createdAt,
    })
    .from(stockMovements)
    .where(eq(stockMovements.orderId, id))
    .orderBy(asc(stockMovements.id))
  return {
    ...order,
    events,
    movements,
    releaseAt: releaseAtOf(order, confirmationHours),
    history: {
      count: history?.count ?? 0,
      cancelled: history?.cancelled ?? 0,
      refused: history?.refused ?? 0,
      earlier,
    },
  }
}
export type DeskOrder = NonNullable<Awaited<ReturnType<typeof getDeskOrder>>>

/**
 * Packing slips: each order's items with where to pick them, the delivery details and what the
 * courier collects (the total while unpaid, 0 once paid or cancelled). Before shipping, the locations
 * holding the product today (largest stock first, `locationsFrom: 'stock'`); once shipped, the
 * locations its units were actually taken from, by the ledger's exits for the order
 * (`locationsFrom: 'shipment'`). A cancelled order's slip is marked `cancelled`: nothing to dispatch.
 */
export async function getPackingSlips(db: DbOrTx, ids: string[]) {
  if (!ids.length) return []
  const rows = await db.select().from(orders).where(inArray(orders.id, ids)).orderBy(asc(orders.number))
  if (!rows.length) return []
  const orderIds = rows.map((row) => row.id)
  const items = await db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.productSku))
  const skus = [...new Set(items.map((item) => item.productSku))]
  const locations = skus.length
    ? await db
        .select()
        .from(productLocations)
        .where(and(inArray(productLocations.productSku, skus), sql`${productLocations.stock} > 0`))
        .orderBy(desc(productLocations.stock), asc(productLocations.code))
    : []
  // Read-only: the exits shipping each order wrote, per product and location.
  const exits = await db
    .select({
      orderId: stockMovements.orderId,
      sku: stockMovements.productSku,
      code: stockMovements.location,
      units: sql<number>`sum(${stockMovements.quantity})`.mapWith(Number),
    })
    .from(stockMovements)
    .where(and(inArray(stockMovements.orderId, orderIds), eq(stockMovements.type, 'out')))
    .groupBy(stockMovements.orderId, stockMovements.productSku, stockMovements.location)
    .orderBy(desc(sql`sum(${stockMovements.quantity})`), asc(stockMovements.location))
  return rows.map((order) => {
    const shipped = Boolean(order.shippedAt)
    const cancelled = order.status === 'cancelado'
    return {
      id: order.id,
      number: order.number,
      createdAt: order.createdAt,
      status: order.status,
      cancelled,
      paymentMethod: order.paymentMethod,
      customerName: `${order.customerName} ${order.customerLastName}`.trim(),
      customerPhone: order.customerPhone,
      customerAddress: order.customerAddress,
      customerCity: order.customerCity,
      customerDepartment: order.customerDepartment,
      carrier: order.carrier,
      trackingNumber: order.trackingNumber,
      total: order.total,
      toCollect: order.status === 'pendiente de pago' ? order.total : 0,
      locationsFrom: shipped ? ('shipment' as const) : ('stock' as const),
      items: items
        .filter((item) => item.orderId === order.id)
        .map((item) => ({
          sku: item.productSku,
          title: item.title,
          quantity: item.quantity,
          locations: shipped
            ? exits
                .filter((exit) => exit.orderId === order.id && exit.sku === item.productSku)
                .map((exit) => ({ code: exit.code, units: exit.units }))
            : locations
                .filter((location) => location.productSku === item.productSku)
                .map((location) => ({ code: location.code, units: location.stock })),
        })),
    }
  })
}
