import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import { departmentNamed } from '#app/modules/places/departments.ts'
import type { IdentificationType } from './customer-fields.ts'
import { recordOrderEvent } from './order.server.ts'
import { orderDiscounts, orderItems, orders, type PaymentMethod } from './schema.ts'

/** Who an order goes to, as the shopper (or the shop it was imported from) gave it. */
export type OrderCustomer = {
  name: string
  lastName: string
  identificationNumber: string
  phone: string
  email: string
  address: string
  city: string
  department: string
  /** Absent on orders imported from the original shop, which never asked for them. */
  identificationType?: IdentificationType | null
  departmentCode?: string | null
  municipalityCode?: string | null
}

/** The order's customer columns: placed and imported orders keep their customer the same way. */
export function customerColumns(customer: OrderCustomer) {
  return {
    customerName: customer.name,
    customerLastName: customer.lastName,
    customerIdentificationNumber: customer.identificationNumber,
    customerPhone: customer.phone,
    customerEmail: customer.email,
    customerAddress: customer.address,
    customerCity: customer.city,
    customerDepartment: customer.department,
    customerIdentificationType: customer.identificationType ?? null,
    customerDepartmentCode: customer.departmentCode ?? departmentNamed(customer.department)?.code ?? null,
    customerMunicipalityCode: customer.municipalityCode ?? null,
  }
}

/** An order checkout has priced and whose units it has reserved; money in centavos. */
export type NewOrder = {
  paymentMethod: PaymentMethod
  customer: OrderCustomer
  /** `personalUse`: the product was a personal-use good when sold (no withdrawal for it). */
  /** `discount`: what promotions took off the whole line (centavos; none when absent). */
  items: {
    productSku: string
    title: string
    quantity: number
    unitPrice: number
    discount?: number
    personalUse?: boolean
  }[]
  /** `total` = `subtotal + shipping − discount`. */
  totals: { subtotal: number; shipping: number; discount?: number; total: number }
  /** Each discount a promotion gave, per line (`productSku`) or on the shipping (null). */
  discounts?: OrderDiscount[]
  checkoutKey?: string
  clientAddress: string | null
  clientNetwork: string | null
  /** Where the shopper came from (analytics' first touch of the session); null: not known. */
  campaign?: OrderCampaign | null
}

/** An order's campaign attribution: every field null is a direct visit. */
export type OrderCampaign = {
  source: string | null
  medium: string | null
  campaign: string | null
  referrerHost: string | null
}

/** One discount as the order keeps it (a copy: later changes to the promotion never reach it). */
export type OrderDiscount = {
  promotionId: number
  name: string
  code: string | null
  productSku: string | null
  amount: number
}

/** What the shopper is told of a placed order (and what a repeated checkout form finds again). */
export type PlacedOrder = {
  id: string
  number: number
  total: number
  paymentMethod: PaymentMethod
}

/**
 * Writes a new order, its lines and the "placed" event in the caller's transaction: the one that
 * reserved its units, so an order never exists without them (nor units held without an order).
 */
export async function recordPlacedOrder(tx: Tx, order: NewOrder): Promise<PlacedOrder> {
  const id = randomUUID()
  const [created] = await tx
    .insert(orders)
    .values({
      id,
      paymentMethod: order.paymentMethod,
      ...customerColumns(order.customer),
      subtotal: order.totals.subtotal,
      shippingCost: order.totals.shipping,
      discount: order.totals.discount ?? 0,
      total: order.totals.total,
      checkoutKey: order.checkoutKey,
      clientAddress: order.clientAddress,
      clientNetwork: order.clientNetwork,
      ...(order.campaign
        ? {
            campaignKnown: true,
            utmSource: order.campaign.source,
            utmMedium: order.campaign.medium,
            utmCampaign: order.campaign.campaign,
            referrerHost: order.campaign.referrerHost,
          }
        : {}),
    })
    .returning({ number: orders.number })
  await tx.insert(orderItems).values(order.items.map((item) => ({ ...item, orderId: id })))
  const discounts = (order.discounts ?? []).filter((discount) => discount.amount > 0)
  if (discounts.length) {
    await tx.insert(orderDiscounts).values(discounts.map((discount) => ({ ...discount, orderId: id })))
  }
  const how = PLACED_WITH[order.paymentMethod]
  await recordOrderEvent(
    tx,
    id,
    'placed',
    `Pedido creado (${how}).`,
    { items: order.items, ...order.totals, ...(discounts.length ? { discounts } : {}) },
    'cliente',
  )
  return { id, number: created!.number, total: order.totals.total, paymentMethod: order.paymentMethod }
}

/** How the timeline's "Pedido creado (…)" names the way to pay. */
const PLACED_WITH: Record<PaymentMethod, string> = {
  acordar: 'pago contra entrega',
  mercadopago: 'pago en línea con Mercado Pago',
  wompi: 'pago en línea con Wompi',
  transferencia: 'pago por transferencia o Bre-B',
}

/** The order a checkout form already placed, found by the form's one-time key. */
export async function orderByCheckoutKey(db: DbOrTx, checkoutKey: string): Promise<PlacedOrder | null> {
  const [row] = await db
    .select({
      id: orders.id,
      number: orders.number,
      total: orders.total,
      paymentMethod: orders.paymentMethod,
    })
    .from(orders)
    .where(eq(orders.checkoutKey, checkoutKey))
  return row ?? null
}
