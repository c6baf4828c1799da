import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'

/** Clicks per element per month (YYYY-MM). */
export const clickCounts = pgTable(
  'click_counts',
  {
    month: text().notNull(),
    elementName: text().notNull(),
    clickCount: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.elementName] })],
)

/** Page views and total seconds on page per page per month (YYYY-MM). */
export const pageViews = pgTable(
  'page_views',
  {
    month: text().notNull(),
    pageName: text().notNull(),
    visits: integer().notNull().default(0),
    totalTimeSeconds: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.pageName] })],
)
