import type { SqlExecutor } from '#app/db/client.server.ts'

/**
 * The storefront's change counter: it grows at the commit of every transaction that changes a
 * product, category, media row, banner or setting (database triggers, migration
 * 0018_storefront_version_triggers), on whichever instance made the change. Read on every cached
 * page request, so as plain SQL (a fraction of the cost of a query built through the ORM).
 */
export async function readStorefrontVersion(executeSql: SqlExecutor): Promise<number> {
  const { rows } = await executeSql('select version from storefront_version')
  return Number((rows[0] as { version?: number | string | bigint } | undefined)?.version ?? 0)
}

/**
 * What cached storefront pages are kept for: the change counter, and how many promotion starts and
 * ends have passed at `now`. A promotion that starts or ends on its own changes prices on pages
 * without any write, so its moment passing must count as a change (the counter already counts every
 * write to `promotions`; an edit that moves a moment back bumps it too). One plain SQL read.
 */
export type StorefrontState = { version: number; boundaries: number }

export async function readStorefrontState(executeSql: SqlExecutor, now: Date): Promise<StorefrontState> {
  const { rows } = await executeSql(
    `select (select version from storefront_version) as version,
      (select count(*) filter (where starts_at <= $1::timestamptz)
        + count(*) filter (where ends_at <= $1::timestamptz) from promotions) as boundaries`,
    [now.toISOString()],
  )
  const row = rows[0] as { version?: number | string | bigint | null; boundaries?: number | string | bigint }
  return { version: Number(row?.version ?? 0), boundaries: Number(row?.boundaries ?? 0) }
}
