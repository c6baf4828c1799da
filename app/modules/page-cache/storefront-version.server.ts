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
