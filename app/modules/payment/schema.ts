import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { bytea } from '#app/db/columns.ts'
import { orders } from '#app/modules/order/schema.ts'

/** Every payment notification received, keyed by the provider's id so a repeat does nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: text().primaryKey(),
    provider: text().notNull(),
    topic: text().notNull(),
    resourceId: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('payment_events_resource_idx').on(t.resourceId)],
)

/**
 * Payments made on the local simulated provider pages (no keys configured): Mercado Pago's and
 * Wompi's, each read back only by its own provider.
 */
export const simulatedPayments = pgTable('simulated_payments', {
  id: text().primaryKey(),
  provider: text({ enum: ['mercadopago', 'wompi'] })
    .notNull()
    .default('mercadopago'),
  orderId: text().notNull(),
  status: text().notNull(),
  amount: integer().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/** Who a ledger row's money went through: the online providers, or a transfer the owner saw. */
export const PAYMENT_LEDGER_PROVIDERS = ['mercadopago', 'wompi', 'transferencia'] as const
export type PaymentLedgerProvider = (typeof PAYMENT_LEDGER_PROVIDERS)[number]

/**
 * The payments ledger ("Pagos"): one row per payment a provider told us of (or a transfer marked
 * paid at the desk), as last seen, so every peso can be reconciled against the provider's report.
 * Written only by the payment module. Money in centavos.
 */
export const payments = pgTable(
  'payments',
  {
    provider: text({ enum: PAYMENT_LEDGER_PROVIDERS }).notNull(),
    /** The provider's id of the payment; a transfer's is `transferencia-{orderId}`. */
    providerPaymentId: text().notNull(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    /** The provider's word for how it was paid: CARD, PSE, NEQUI, account_money, bank_transfer… */
    method: text(),
    /** Our payment status words (`PaymentStatus`): approved, pending, rejected, refunded… */
    status: text().notNull(),
    amount: integer().notNull(),
    /** What the provider kept, where it reports it. */
    fee: integer(),
    /** Who marked a transfer as paid (an admin's e-mail); null for a provider's payment. */
    recordedBy: text(),
    /** The refund started from "Pagos" or the order: its provider id and last known status. */
    refundId: text(),
    refundStatus: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerPaymentId] }),
    index('payments_order_idx').on(t.orderId),
    index('payments_created_idx').on(t.createdAt),
    check('payments_amount_check', sql`${t.amount} >= 0`),
  ],
)

/**
 * The receipt a buyer uploads for a transfer or Bre-B payment: an image or PDF, checked like
 * product media, kept privately in the database and shown only in the back office. One per order
 * (a new upload replaces it).
 */
export const paymentReceipts = pgTable('payment_receipts', {
  orderId: text()
    .primaryKey()
    .references(() => orders.id),
  contentType: text().notNull(),
  bytes: bytea().notNull(),
  fileName: text().notNull().default(''),
  uploadedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
