import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { products } from '#app/modules/catalog/schema.ts'

/** Append-only ledger of stock entries (Entrada) and exits (Salida). Money in centavos. */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: serial().primaryKey(),
    productSku: text()
      .notNull()
      .references(() => products.sku, { onUpdate: 'cascade' }),
    type: text({ enum: ['in', 'out'] }).notNull(),
    quantity: integer().notNull(),
    unitPrice: integer().notNull(),
    total: integer().notNull(),
    receipt: text().notNull().default(''),
    note: text().notNull().default(''),
    location: text().notNull(),
    orderId: text(),
    stockAfter: integer().notNull(),
    averageCostAfter: integer().notNull(),
    createdBy: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stock_movements_product_idx').on(t.productSku, t.createdAt)],
)
