import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * What has been brought over from the original shop, by the original's key (a product's SKU, a
 * category or order id, a month of clicks or page views): running the same import again finds
 * everything here and writes nothing.
 */
export const importRecords = pgTable(
  'import_records',
  {
    kind: text({ enum: ['category', 'product', 'order', 'clicks', 'page-views'] }).notNull(),
    key: text().notNull(),
    importedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
)
