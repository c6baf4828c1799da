import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * What has been brought over from the original shop, by the original's key (a product's SKU, a
 * category or order id, a month of clicks or page views) with a digest of its content: running the
 * same import again finds everything here and writes nothing.
 */
export const importRecords = pgTable(
  'import_records',
  {
    kind: text({ enum: ['category', 'product', 'order', 'clicks', 'page-views'] }).notNull(),
    key: text().notNull(),
    /**
     * `contentHash` of what the export said when it was brought (null for records brought before
     * it was kept): a later export that says otherwise is reported, not applied.
     */
    contentHash: text(),
    importedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
)
