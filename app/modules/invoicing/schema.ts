import { sql } from 'drizzle-orm'
import { check, index, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { orders } from '#app/modules/order/schema.ts'
import type { InvoiceLine, Vat } from './provider.ts'

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const
export type InvoiceKind = (typeof INVOICE_KINDS)[number]

/**
 * `issued`: DIAN validated it; `failed`: the provider (or our own check) refused it and the owner
 * must act; `skipped`: invoicing was not configured when the job ran.
 */
/** `retrying`: the provider did not answer; the job tries again and keeps its last answer here. */
export const INVOICE_STATUSES = ['issued', 'failed', 'skipped', 'retrying'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

/** What an issued document carried: its credit note credits exactly these lines. */
export type InvoicedLines = {
  items: InvoiceLine[]
  shipping: number
  /** What promotions took off the shipping, 0–100 (none when absent). */
  shippingDiscountPercent?: number
  shippingVat?: Vat
}

/**
 * An order's DIAN electronic invoice and its credit note, as the invoicing jobs last left them: at
 * most one of each kind per order (a new attempt updates the row). `referenceCode` is what the
 * provider knows the document by (the order id; `nc-{orderId}` for the credit note), so a retry
 * finds what DIAN already validated instead of issuing it twice.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text({ enum: INVOICE_KINDS }).notNull(),
    status: text({ enum: INVOICE_STATUSES }).notNull(),
    referenceCode: text().notNull().unique(),
    /** Who issued it ("factus"); null when it was skipped. */
    provider: text(),
    /** Prefix and consecutive as DIAN knows it ("SETP990000203"). */
    number: text(),
    /** The invoice's CUFE, or the credit note's CUDE. */
    cufe: text(),
    qrUrl: text(),
    pdfUrl: text(),
    xmlUrl: text(),
    /** The provider's own id of the document (Factus: the bill id a credit note needs). */
    providerReference: text(),
    lines: jsonb().$type<InvoicedLines>(),
    /** Why it failed or was skipped, as the owner reads it on the desk. */
    providerMessage: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    issuedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invoices_order_kind_idx').on(t.orderId, t.kind),
    index('invoices_status_idx').on(t.status),
    check('invoices_issued_has_number', sql`${t.status} <> 'issued' or ${t.number} is not null`),
  ],
)

export type InvoiceRow = typeof invoices.$inferSelect
