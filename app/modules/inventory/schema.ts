import { bigint, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { products } from '#app/modules/catalog/schema.ts'

/**
 * Append-only ledger of stock entries (Entrada), exits (Salida) and cost adjustments (a cost typed in
 * the product form, quantity 0). Money in centavos.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: serial().primaryKey(),
    productSku: text()
      .notNull()
      .references(() => products.sku, { onUpdate: 'cascade' }),
    type: text({ enum: ['in', 'out', 'adjust'] }).notNull(),
    quantity: integer().notNull(),
    unitPrice: integer().notNull(),
    // quantity × unit price passes 2^31 centavos at 200 units of $ 150.000, so 64 bits.
    total: bigint({ mode: 'number' }).notNull(),
    receipt: text().notNull().default(''),
    note: text().notNull().default(''),
    location: text().notNull(),
    orderId: text(),
    stockAfter: integer().notNull(),
    averageCostAfter: integer().notNull(),
    createdBy: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The kardex lists a product's rows by id: ids follow the per-product lock order.
    index('stock_movements_product_id_idx').on(t.productSku, t.id),
    index('stock_movements_order_idx').on(t.orderId),
  ],
)

/** Where units of a product are kept; code format in `locations.ts` (P1-C1-A1-E1-X1-Y1-Z1). */
export const productLocations = pgTable(
  'product_locations',
  {
    productSku: text()
      .notNull()
      .references(() => products.sku, { onDelete: 'cascade', onUpdate: 'cascade' }),
    code: text().notNull(),
    stock: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.productSku, t.code] })],
)
