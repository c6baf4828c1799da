import { sql } from 'drizzle-orm'
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

/**
 * A checkout the shopper began and may not finish (issue 27, "Marketing"): kept only when they typed
 * a phone and ticked the data-policy authorization, one open draft per phone. An order that follows
 * marks it recovered (`orderId`); every draft goes 30 days after its last change.
 */
export const checkoutDrafts = pgTable(
  'checkout_drafts',
  {
    id: text().primaryKey(),
    /** The phone as the checkout normalizes it (10 digits). */
    phone: text().notNull(),
    name: text().notNull().default(''),
    email: text().notNull().default(''),
    /** The cart's lines when last seen: `{ sku, quantity }[]`. */
    lines: jsonb().$type<{ sku: string; quantity: number }[]>().notNull(),
    /** The secret of its recovery link (`/carrito/recuperar/{token}`), which refills the cart. */
    token: text().notNull().unique(),
    /** When the shopper opened the recovery link (the owner's message reached them). */
    linkOpenedAt: timestamp({ withTimezone: true }),
    /** The order placed afterwards by the same phone: recovered. */
    orderId: text(),
    recoveredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('checkout_drafts_open_phone')
      .on(table.phone)
      .where(sql`${table.orderId} is null`),
    index('checkout_drafts_updated_at').on(table.updatedAt),
  ],
)
