import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { IDENTIFICATION_TYPE_CODES } from './customer-fields.ts'
import { PAYMENT_METHODS } from './payment-methods.ts'
import { ORDER_STATUSES } from './status.ts'

export {
  isOnlinePaymentMethod,
  isPaidBeforeShipping,
  ONLINE_PAYMENT_METHODS,
  PAYMENT_METHODS,
  type OnlinePaymentMethod,
  type PaymentMethod,
} from './payment-methods.ts'

/** A shopper's order. Money in centavos; `number` is the human order number. */
export const orders = pgTable(
  'orders',
  {
    id: text().primaryKey(),
    number: integer().generatedAlwaysAsIdentity({ startWith: 1001 }).notNull().unique(),
    status: text({ enum: ORDER_STATUSES }).notNull().default('pendiente de pago'),
    shippedAt: timestamp({ withTimezone: true }),
    paymentMethod: text({ enum: PAYMENT_METHODS }).notNull().default('acordar'),
    customerName: text().notNull(),
    customerLastName: text().notNull().default(''),
    customerIdentificationNumber: text().notNull().default(''),
    /** CC, CE, NIT, PP or TI (`IDENTIFICATION_TYPES`); null on orders from before it was asked. */
    customerIdentificationType: text({ enum: IDENTIFICATION_TYPE_CODES }),
    customerPhone: text().notNull(),
    customerEmail: text().notNull().default(''),
    customerAddress: text().notNull(),
    customerCity: text().notNull().default(''),
    customerDepartment: text().notNull(),
    /**
     * Where the order goes by DANE DIVIPOLA code (department "05", municipality "05001"), beside
     * the names: what invoices and carriers key places by. Null on orders placed before the checkout
     * asked for the municipality, or imported, until the owner picks it on the desk.
     */
    customerDepartmentCode: text(),
    customerMunicipalityCode: text(),
    subtotal: integer().notNull(),
    shippingCost: integer().notNull(),
    /**
     * What promotions and discount codes took off, lines and shipping together (`order_discounts`
     * holds each one): the total is what is left to pay.
     */
    discount: integer().notNull().default(0),
    total: integer().notNull(),
    /** True while the order holds reserved units (released on shipping or cancelling). */
    reservationHeld: boolean().notNull().default(true),
    /** The checkout form's one-time key: a resubmitted form finds its order instead of a twin. */
    checkoutKey: text().unique(),
    paymentPreferenceId: text(),
    paymentId: text(),
    paymentStatus: text(),
    /** Cash on delivery: when the shop confirmed the order with the customer (WhatsApp). */
    confirmedAt: timestamp({ withTimezone: true }),
    /** The shopper's network address at checkout: hold limits count open orders per address too. */
    clientAddress: text(),
    /**
     * The network the hold limits count that address as (`clientNetworkOf`: an IPv6 client by its
     * /64, since it rotates addresses within it).
     */
    clientNetwork: text(),
    /**
     * When the buyer received it ("Completado"): the buyer's right of withdrawal runs 5 business
     * days from this day (Ley 1480, art. 47).
     */
    deliveredAt: timestamp({ withTimezone: true }),
    /** Who carries the parcel and its tracking number ("guía"), once shipped. */
    carrier: text(),
    trackingNumber: text(),
    /** The carrier's public tracking page, when a guía bought through the shop gave one. */
    trackingUrl: text(),
    /**
     * Where the shopper came from, the first touch of their browsing session (analytics'
     * `CampaignTouch`): kept only when they allowed analytics. `campaignKnown` false: not allowed,
     * or placed before it was asked (the report tells these apart from a direct visit).
     */
    campaignKnown: boolean().notNull().default(false),
    utmSource: text(),
    utmMedium: text(),
    utmCampaign: text(),
    referrerHost: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_status_created_idx').on(t.status, t.createdAt),
    index('orders_customer_phone_idx').on(t.customerPhone),
    index('orders_client_network_idx').on(t.clientNetwork),
    check('orders_total_matches', sql`${t.total} = ${t.subtotal} + ${t.shippingCost} - ${t.discount}`),
  ],
)

export const orderItems = pgTable(
  'order_items',
  {
    orderId: text()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productSku: text().notNull(),
    title: text().notNull(),
    quantity: integer().notNull(),
    unitPrice: integer().notNull(),
    /**
     * What promotions took off this line, all its units together (`order_discounts` says which):
     * the line charges `unitPrice × quantity − discount`.
     */
    discount: integer().notNull().default(0),
    /** The product was a personal-use good when sold: no withdrawal (retracto) for it. */
    personalUse: boolean().notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.productSku] }),
    check('order_items_quantity_positive', sql`${t.quantity} > 0`),
    check('order_items_discount_range', sql`${t.discount} between 0 and ${t.unitPrice} * ${t.quantity}`),
  ],
)

/**
 * Each discount a promotion or code gave the order, as it was that moment (name, code, amount per
 * line; `productSku` null for shipping): later changes to the promotion never change a past order.
 */
export const orderDiscounts = pgTable(
  'order_discounts',
  {
    id: serial().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The promotion's id (promotions are never deleted once used). */
    promotionId: integer().notNull(),
    name: text().notNull(),
    code: text(),
    productSku: text(),
    amount: integer().notNull(),
  },
  (t) => [
    index('order_discounts_order_idx').on(t.orderId),
    index('order_discounts_promotion_idx').on(t.promotionId),
    check('order_discounts_amount_positive', sql`${t.amount} > 0`),
  ],
)

/** The order's timeline: placement, payment, shipping, cancellation, notices. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    message: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>(),
    createdBy: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.createdAt)],
)

/** A buyer's request under Ley 1480: withdrawal ("retracto", art. 47) or payment reversal (art. 51). */
export const CLAIM_KINDS = ['retracto', 'reversion'] as const
export type ClaimKind = (typeof CLAIM_KINDS)[number]
export const CLAIM_STATUSES = ['pendiente', 'aceptada', 'rechazada'] as const
export type ClaimStatus = (typeof CLAIM_STATUSES)[number]
/** Decreto 587 de 2016's causes for a payment reversal. */
export const REVERSAL_CAUSES = [
  'fraude',
  'no-solicitado',
  'no-recibido',
  'no-corresponde',
  'defectuoso',
] as const
export type ReversalCause = (typeof REVERSAL_CAUSES)[number]

/**
 * The buyer's withdrawal and payment-reversal requests, and the shop's answer. At most one of an
 * order's requests is open at a time.
 */
export const orderClaims = pgTable(
  'order_claims',
  {
    id: serial().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text({ enum: CLAIM_KINDS }).notNull(),
    status: text({ enum: CLAIM_STATUSES }).notNull().default('pendiente'),
    /** A reversal's cause, and the Bogotá day the buyer learned of it (the 5 business days run from it). */
    cause: text({ enum: REVERSAL_CAUSES }),
    learnedOn: date({ mode: 'string' }),
    /** What the buyer wrote. */
    description: text().notNull().default(''),
    /** The last Bogotá day of the shop's term: refund a withdrawal, answer a reversal. */
    deadline: date({ mode: 'string' }).notNull(),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp({ withTimezone: true }),
    decidedBy: text(),
    /** The refusal's reason, or how the money went back. */
    decisionNote: text(),
  },
  (t) => [
    index('order_claims_order_idx').on(t.orderId),
    uniqueIndex('order_claims_one_open_idx')
      .on(t.orderId)
      .where(sql`${t.status} = 'pendiente'`),
  ],
)
