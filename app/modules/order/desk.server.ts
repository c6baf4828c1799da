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
import {
  DEPARTMENTS,
  departmentCoded,
  departmentNamed,
  type Department,
} from '#app/modules/places/departments.ts'
import {
  municipalitiesOf,
  municipalityCoded,
  municipalityMatching,
  type Municipality,
} from '#app/modules/places/places.server.ts'
import { confirmationDeadline } from './expire-unconfirmed.server.ts'
import { holdingUnconfirmed, isHoldingUnconfirmed } from './holding.ts'
import { getOrder, listOrderEvents, orderDiscountsOf, type OrderRow } from './order.server.ts'
import { orderItems, orders } from './schema.ts'
import type { OrderStatus } from './status.ts'
import type { DeskView } from './desk-views.ts'
import { cleanText } from '#app/utils/text.ts'

export const DESK_PAGE_SIZE = 20

/** A cash-on-delivery order nobody confirmed yet, still holding its units. */
const awaitingConfirmation = and(eq(orders.paymentMethod, 'acordar'), holdingUnconfirmed)

/** Transfer or Bre-B orders waiting for the owner to see the money arrive. */
const awaitingTransfer = and(
  eq(orders.paymentMethod, 'transferencia'),
  eq(orders.status, 'pendiente de pago'),
  isNull(orders.shippedAt),
)

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
    case 'transferencias':
      return awaitingTransfer
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
      transfers: sql<number>`count(*) filter (where ${awaitingTransfer})`.mapWith(Number),
    })
    .from(orders)
  return { toConfirm: row?.toConfirm ?? 0, toShip: row?.toShip ?? 0, transfers: row?.transfers ?? 0 }
}

/** The columns that say where an order goes. */
type OrderPlaceColumns = Pick<
  OrderRow,
  'customerCity' | 'customerDepartment' | 'customerDepartmentCode' | 'customerMunicipalityCode'
>

/** The order's department: its municipality's, else its DANE code's, else the one its name is. */
function departmentOf(
  order: OrderPlaceColumns,
  municipality: Municipality | undefined,
): Department | undefined {
  return (
    (municipality && departmentCoded(municipality.departmentCode)) ??
    (order.customerDepartmentCode ? departmentCoded(order.customerDepartmentCode) : undefined) ??
    departmentNamed(order.customerDepartment)
  )
}

/**
 * Where an order goes, as the desk and its packing slips show it: the department (the shop's name
 * for it) and the municipality by DANE code, with DANE's name. An order placed before the checkout
 * asked for the municipality, or imported, has none (`municipalityCode` null, as for a code that is
 * not DIVIPOLA's): then `suggestedMunicipalityCode` is the one municipality of its department its
 * free-text city names, if exactly one does. `typedCity` is the city as the shopper wrote it, when
 * there is no municipality or it is not the municipality's name; null when it says nothing more.
 */
export function deliveryPlaceOf(order: OrderPlaceColumns) {
  const code = order.customerMunicipalityCode
  const municipality = code ? municipalityCoded(code) : undefined
  const department = departmentOf(order, municipality)
  const suggested =
    !municipality && department ? municipalityMatching(department, order.customerCity) : undefined
  return {
    departmentCode: department?.code ?? null,
    departmentName: department?.name ?? order.customerDepartment,
    municipalityCode: municipality?.code ?? null,
    municipalityName: municipality?.name ?? null,
    typedCity: municipality && order.customerCity === municipality.name ? null : order.customerCity,
    suggestedMunicipalityCode: suggested?.code ?? null,
  }
}
export type DeliveryPlace = ReturnType<typeof deliveryPlaceOf>

/** A department's municipalities, as the desk's select groups them. */
export type MunicipalityChoiceGroup = {
  departmentCode: string
  departmentName: string
  municipalities: { code: string; name: string }[]
}

/**
 * What the owner picks an order's missing municipality from: its department's municipalities
 * (alphabetical), or, when the order's department is not one the shop knows, every department's,
 * each a group. Empty when the order already has its municipality.
 */
export function municipalityChoicesFor(place: DeliveryPlace): MunicipalityChoiceGroup[] {
  if (place.municipalityCode) return []
  const departments = place.departmentCode
    ? DEPARTMENTS.filter((department) => department.code === place.departmentCode)
    : DEPARTMENTS
  return departments.map((department) => ({
    departmentCode: department.code,
    departmentName: department.name,
    municipalities: municipalitiesOf(department.code).map(({ code, name }) => ({ code, name })),
  }))
}

/**
 * Everything the detail page shows: the order, its items and timeline, where it goes (`place`, and
 * what to pick its municipality from when it has none), and the shopper's earlier orders by phone
 * (a refused delivery is an order cancelled after it was shipped).
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
  const place = deliveryPlaceOf(order)
  return {
    ...order,
    /** Each discount the order got, as kept when placed (the page names them per line and in all). */
    appliedDiscounts: await orderDiscountsOf(db, id),
    events,
    movements,
    place,
    municipalityChoices: municipalityChoicesFor(place),
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
 * courier collects (the total, net of its discounts, while unpaid; 0 once paid or cancelled). Before shipping, the locations
 * holding the product today (largest stock first, `locationsFrom: 'stock'`); once shipped, the
 * locations its units were actually taken from, by the ledger's exits for the order
 * (`locationsFrom: 'shipment'`). A cancelled order's slip is marked `cancelled`: nothing to dispatch.
 * `place` says where it goes by DANE code (`deliveryPlaceOf`).
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
      customerIdentificationType: order.customerIdentificationType,
      customerIdentificationNumber: order.customerIdentificationNumber,
      customerDepartmentCode: order.customerDepartmentCode,
      customerMunicipalityCode: order.customerMunicipalityCode,
      place: deliveryPlaceOf(order),
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
