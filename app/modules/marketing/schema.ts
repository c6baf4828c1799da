import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { orders } from '#app/modules/order/schema.ts'

/**
 * What the shopper's browser said at checkout, for the order's Purchase event to Meta: kept only
 * with advertising consent, written in the checkout's transaction, deleted once the Purchase is
 * sent or dropped (and after 8 days in any case: Meta takes nothing older than 7).
 */
export const metaOrderContexts = pgTable(
  'meta_order_contexts',
  {
    orderId: text()
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    eventSourceUrl: text().notNull(),
    clientIpAddress: text(),
    clientUserAgent: text(),
    fbp: text(),
    fbc: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('meta_order_contexts_created_idx').on(t.createdAt)],
)
