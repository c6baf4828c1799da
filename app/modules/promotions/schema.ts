import { sql } from 'drizzle-orm'
import { boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { PROMOTION_BENEFITS, PROMOTION_TARGETS } from './rules.ts'

/**
 * "Descuentos y Promociones": discount codes (`code` set, typed by the shopper) and automatic
 * promotions (`code` null). Money in centavos. A promotion is never deleted once an order used it:
 * the owner pauses or ends it, and past orders keep their own copy of what it gave
 * (`order_discounts`). Written only by the promotions module.
 */
export const promotions = pgTable(
  'promotions',
  {
    id: serial().primaryKey(),
    /** What the shopper reads beside the discount ("Black Friday", "Cupón de Laura"). */
    name: text().notNull(),
    /** Upper case, without spaces; null for an automatic promotion. */
    code: text(),
    benefit: text({ enum: PROMOTION_BENEFITS }).notNull(),
    target: text({ enum: PROMOTION_TARGETS }).notNull(),
    /** `percent` and `set_discount`: 1 to 100. */
    percent: integer().notNull().default(0),
    /** `fixed`: centavos off the target. */
    amount: integer().notNull().default(0),
    /** `buy_x_pay_y`: of every `buyQuantity` units, the shopper pays `payQuantity`. */
    buyQuantity: integer().notNull().default(0),
    payQuantity: integer().notNull().default(0),
    /** `target = 'products'`: the products and the categories it covers (either matches). */
    productSkus: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    categoryIds: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The cart's subtotal (prices after each product's own discount) it needs, centavos. */
    minSubtotal: integer().notNull().default(0),
    startsAt: timestamp({ withTimezone: true }),
    endsAt: timestamp({ withTimezone: true }),
    /** Orders that may use it in all, and per customer (by phone or e-mail); null: no limit. */
    maxUses: integer(),
    maxUsesPerCustomer: integer(),
    /** Whether it adds to other combinable promotions; one that does not competes alone. */
    combinable: boolean().notNull().default(false),
    /** False while the owner has it paused. */
    active: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('promotions_code_idx').on(t.code),
    check('promotions_percent_range', sql`${t.percent} between 0 and 100`),
    check('promotions_amount_not_negative', sql`${t.amount} >= 0 and ${t.minSubtotal} >= 0`),
    check('promotions_pay_below_buy', sql`${t.payQuantity} >= 0 and ${t.payQuantity} <= ${t.buyQuantity}`),
  ],
)
