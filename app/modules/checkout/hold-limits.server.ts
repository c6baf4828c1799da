import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Tx } from '#app/db/client.server.ts'
import { holdingUnconfirmed } from '#app/modules/order/holding.ts'
import { orderItems, orders } from '#app/modules/order/schema.ts'

/**
 * How much one customer may hold with orders nobody has paid or confirmed yet: cash on delivery
 * awaiting its WhatsApp confirmation and Mercado Pago awaiting its payment alike, since both keep
 * units from other shoppers until they expire.
 */
export type HoldLimits = { maxOpenOrders: number; maxOpenUnits: number }

export const HOLD_LIMIT_MESSAGES = {
  orders: (max: number) =>
    `Ya tienes ${max === 1 ? 'un pedido pendiente' : `${max} pedidos pendientes`} sin pagar ni confirmar. ` +
    'Cuando pagues o confirmemos por WhatsApp alguno de ellos, podrás hacer otro pedido.',
  units: (max: number) =>
    `Los pedidos sin pagar ni confirmar pueden apartar hasta ${max} unidades en total. ` +
    'Reduce las cantidades, o paga o confirma por WhatsApp tus pedidos pendientes.',
} as const

async function holdings(tx: Tx, who: SQL) {
  const [row] = await tx
    .select({
      orders: sql<number>`count(distinct ${orders.id})`.mapWith(Number),
      units: sql<number>`coalesce(sum(${orderItems.quantity}), 0)`.mapWith(Number),
    })
    .from(orders)
    .leftJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(and(holdingUnconfirmed, who))
  return { orders: row?.orders ?? 0, units: row?.units ?? 0 }
}

/**
 * In the checkout's transaction, before an order of either payment method reserves: what the customer (by
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
