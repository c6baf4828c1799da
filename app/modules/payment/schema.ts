import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

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

/** Payments made on the local simulated Mercado Pago page (no access token configured). */
export const simulatedPayments = pgTable('simulated_payments', {
  id: text().primaryKey(),
  orderId: text().notNull(),
  status: text().notNull(),
  amount: integer().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
