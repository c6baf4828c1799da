import { sql } from 'drizzle-orm'
import { bigint, check, integer, pgTable } from 'drizzle-orm/pg-core'

/**
 * One row (created by the first change; none reads as 0): a number that grows with every committed
 * change to what the storefront shows (catalogue, stock, media, banners, settings). Only database
 * triggers write it (migration 0018_storefront_version_triggers); the page cache keeps pages only
 * for the number they were rendered under.
 */
export const storefrontVersion = pgTable(
  'storefront_version',
  {
    id: integer().primaryKey().default(1),
    version: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [check('storefront_version_one_row', sql`${t.id} = 1`)],
)
