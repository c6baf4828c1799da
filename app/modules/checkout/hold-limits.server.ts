import { and, eq, isNull, sql, type SQL } from 'drizzle-orm'
import type { Tx } from '#app/db/client.server.ts'
import { orderItems, orders } from '#app/modules/order/schema.ts'

/** How much one customer may hold with cash-on-delivery orders nobody has confirmed yet. */
export type HoldLimits = { maxOpenOrders: number; maxOpenUnits: number }

export const HOLD_LIMIT_MESSAGES = {
  orders: (max: number) =>
    `Ya tienes ${max === 1 ? 'un pedido' : `${max} pedidos`} contra entrega sin confirmar. ` +
    'Te escribiremos por WhatsApp para confirmarlo; después podrás hacer otro pedido.',
  units: (max: number) =>
    `Los pedidos contra entrega sin confirmar pueden apartar hasta ${max} unidades en total. ` +
    'Reduce las cantidades o espera a que confirmemos tus pedidos por WhatsApp.',
  payOnline: ' También puedes pagar en línea con Mercado Pago.',
} as const

/** Open, unconfirmed cash-on-delivery orders: the ones that hold units on nobody's word. */
const unconfirmedCashOrder = and(
  eq(orders.paymentMethod, 'acordar'),
  eq(orders.status, 'pendiente de pago'),
  eq(orders.reservationHeld, true),
  isNull(orders.confirmedAt),
  isNull(orders.shippedAt),
)

async function holdings(tx: Tx, who: SQL) {
  const [row] = await tx
    .select({
      orders: sql<number>`count(distinct ${orders.id})`.mapWith(Number),
      units: sql<number>`coalesce(sum(${orderItems.quantity}), 0)`.mapWith(Number),
    })
    .from(orders)
    .leftJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(and(unconfirmedCashOrder, who))
  return { orders: row?.orders ?? 0, units: row?.units ?? 0 }
}

/**
 * In the checkout's transaction, before a cash-on-delivery order reserves: what the customer (by
 * phone, and by client address when known) already holds plus this order must stay within the
 * limits, or the refusal's message says why. Checks of one phone or address run one at a time
 * (transaction advisory locks, phone before address so two checkouts never wait on each other),
 * so two posts at once cannot both slip under the limit.
 */
export async function holdLimitRefusal(
  tx: Tx,
  limits: HoldLimits,
  who: { phone: string; clientAddress: string | null },
  units: number,
): Promise<string | null> {
  const keys: [string, SQL][] = [[`cod-phone:${who.phone}`, eq(orders.customerPhone, who.phone)]]
  if (who.clientAddress) {
    keys.push([`cod-address:${who.clientAddress}`, eq(orders.clientAddress, who.clientAddress)])
  }
  for (const [key] of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`)
  for (const [, condition] of keys) {
    const held = await holdings(tx, condition)
    if (held.orders + 1 > limits.maxOpenOrders) return HOLD_LIMIT_MESSAGES.orders(limits.maxOpenOrders)
    if (held.units + units > limits.maxOpenUnits) return HOLD_LIMIT_MESSAGES.units(limits.maxOpenUnits)
  }
  return null
}
