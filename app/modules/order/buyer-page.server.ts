import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { municipalityCoded } from '#app/modules/places/places.server.ts'
import { claimsOf, retractoOption, reversalOption, type ClaimOption } from './request-claim.server.ts'
import { getOrder, type OrderWithItems } from './order.server.ts'
import { isPaidBeforeShipping, orders } from './schema.ts'

/** The order's state as the buyer reads it. */
export function buyerStatusOf(
  order: Pick<OrderWithItems, 'status' | 'shippedAt' | 'paymentMethod' | 'confirmedAt'>,
) {
  if (order.status === 'cancelado') return 'Cancelado'
  if (order.status === 'Completado') return 'Entregado'
  if (order.shippedAt) return 'Enviado'
  if (order.status === 'pagado') return 'Pagado: lo estamos preparando'
  // Paid online or by transfer: it waits for the money, not for a WhatsApp confirmation.
  if (isPaidBeforeShipping(order.paymentMethod)) return 'Pendiente de pago'
  return order.confirmedAt
    ? 'Confirmado: lo estamos preparando (pagas al recibir)'
    : 'Recibido: te escribiremos por WhatsApp para confirmarlo (pagas al recibir)'
}

const loose = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()

/** "Calle 1, Medellín, Antioquia"; a place that already names its department ("Bogotá, D.C.") once. */
export function destinationOf(address: string, place: string, department: string): string {
  const namesDepartment = place && department && loose(place).includes(loose(department))
  return [address, place, namesDepartment ? '' : department].filter(Boolean).join(', ')
}

/** The order of this human number, or null (a number that is not a whole number names none). */
export async function orderByNumber(db: DbOrTx, number: number) {
  if (!Number.isSafeInteger(number) || number < 1 || number > 2_147_483_647) return null
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.number, number))
  return row ? getOrder(db, row.id) : null
}

/**
 * Whether these are the last 4 digits of the order's phone: what "Consulta tu pedido" asks before
 * it gives the order's link, so only the buyer (or who has their phone) reads it.
 */
export function phoneEndsWith(order: Pick<OrderWithItems, 'customerPhone'>, digits: string): boolean {
  const phone = order.customerPhone.replace(/\D/g, '')
  return /^\d{4}$/.test(digits) && phone.length >= 4 && phone.endsWith(digits)
}

/** Everything the buyer's order page shows: state, items, where it goes, requests and what may be asked. */
export async function buyerOrderPage(db: DbOrTx, order: OrderWithItems, now = new Date()) {
  const claims = await claimsOf(db, order.id)
  const open = claims.some((claim) => claim.status === 'pendiente')
  const municipality = order.customerMunicipalityCode
    ? municipalityCoded(order.customerMunicipalityCode)
    : undefined
  const retracto: ClaimOption = retractoOption(order, order.items, now)
  return {
    number: order.number,
    createdAt: order.createdAt.toISOString(),
    status: buyerStatusOf(order),
    paymentMethod: order.paymentMethod,
    items: order.items.map(({ productSku, title, quantity, unitPrice, discount, personalUse }) => ({
      productSku,
      title,
      quantity,
      unitPrice,
      discount,
      personalUse,
    })),
    subtotal: order.subtotal,
    shippingCost: order.shippingCost,
    /** What promotions took off, lines and shipping (the page names them from `orderDiscountsOf`). */
    discount: order.discount,
    total: order.total,
    destination: destinationOf(
      order.customerAddress,
      municipality?.name ?? order.customerCity,
      order.customerDepartment,
    ),
    shipment: order.trackingNumber
      ? { carrier: order.carrier, trackingNumber: order.trackingNumber, trackingUrl: order.trackingUrl }
      : null,
    claims: claims.map((claim) => ({
      id: claim.id,
      kind: claim.kind,
      status: claim.status,
      cause: claim.cause,
      requestedAt: claim.requestedAt.toISOString(),
      deadline: claim.deadline,
      answer: claim.status === 'rechazada' ? claim.decisionNote : null,
    })),
    // What may be asked now: nothing while a request is open.
    retracto: open ? null : retracto,
    reversal: open ? null : reversalOption(order),
  }
}
export type BuyerOrderPage = Awaited<ReturnType<typeof buyerOrderPage>>
