import { and, eq, sql, type SQL } from 'drizzle-orm'
import type { Tx } from '#app/db/client.server.ts'
import { holdingUnconfirmed } from '#app/modules/order/holding.ts'
import { orderItems, orders } from '#app/modules/order/schema.ts'
import type { HoldLimits } from '#app/modules/settings/validators.ts'

export const HOLD_LIMIT_MESSAGES = {
  orderUnits: (max: number) =>
    `Un pedido en línea puede apartar hasta ${max} unidades. ` +
    'Para comprar más (por ejemplo, al por mayor), escríbenos por WhatsApp y lo coordinamos contigo.',
  orders: (max: number) =>
    `Ya tienes ${max === 1 ? 'un pedido pendiente' : `${max} pedidos pendientes`} sin pagar ni confirmar. ` +
    'Cuando pagues o confirmemos por WhatsApp alguno de ellos, podrás hacer otro pedido.',
  units: (max: number) =>
    `Los pedidos sin pagar ni confirmar pueden apartar hasta ${max} unidades en total. ` +
    'Reduce las cantidades, o paga o confirma por WhatsApp tus pedidos pendientes.',
  addressOrders: (max: number) =>
    `Desde tu conexión a internet ya hay ${max} pedidos sin pagar ni confirmar. ` +
    'Si la compartes con otras personas, intenta desde otra red o escríbenos por WhatsApp para hacer tu pedido.',
  addressUnits: (max: number) =>
    `Los pedidos sin pagar ni confirmar hechos desde tu conexión a internet pueden apartar hasta ${max} unidades en total. ` +
    'Reduce las cantidades, intenta desde otra red o escríbenos por WhatsApp para hacer tu pedido.',
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

/** Why an order may not hold its units, and whether the shopper is offered to order by WhatsApp. */
export type HoldLimitRefusal = { message: string; offerWhatsapp: boolean }

/**
 * In the checkout's transaction, before an order of either payment method reserves: what the
 * customer already holds plus this order must stay within the limits, counted by phone and by client
 * network (`clientNetworkOf`, when the address is known) with that network's own limits, or the
 * refusal's message says which one was reached. Checks of one phone or network run one at a time
 * (transaction advisory locks, phone before network so two checkouts never wait on each other), so
 * two posts at once cannot both slip under the limit.
 */
export async function holdLimitRefusal(
  tx: Tx,
  limits: HoldLimits,
  who: { phone: string; clientNetwork: string | null },
  units: number,
): Promise<HoldLimitRefusal | null> {
  const checks: { key: string; who: SQL; orders: number; units: number; messages: 'phone' | 'address' }[] = [
    {
      key: `cod-phone:${who.phone}`,
      who: eq(orders.customerPhone, who.phone),
      orders: limits.maxOpenOrders,
      units: limits.maxOpenUnits,
      messages: 'phone',
    },
  ]
  if (who.clientNetwork) {
    checks.push({
      key: `cod-network:${who.clientNetwork}`,
      who: eq(orders.clientNetwork, who.clientNetwork),
      orders: limits.maxOpenOrdersPerAddress,
      units: limits.maxOpenUnitsPerAddress,
      messages: 'address',
    })
  }
  for (const { key } of checks) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`)
  for (const check of checks) {
    const held = await holdings(tx, check.who)
    const byAddress = check.messages === 'address'
    if (held.orders + 1 > check.orders) {
      const message = byAddress ? HOLD_LIMIT_MESSAGES.addressOrders : HOLD_LIMIT_MESSAGES.orders
      return { message: message(check.orders), offerWhatsapp: byAddress }
    }
    if (held.units + units > check.units) {
      // An order too large by itself (a reseller's) is no matter of pending orders: it is talked over.
      const message =
        held.units === 0
          ? HOLD_LIMIT_MESSAGES.orderUnits
          : byAddress
            ? HOLD_LIMIT_MESSAGES.addressUnits
            : HOLD_LIMIT_MESSAGES.units
      return { message: message(check.units), offerWhatsapp: true }
    }
  }
  return null
}
