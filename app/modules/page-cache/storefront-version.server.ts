import type { DbOrTx } from '#app/db/client.server.ts'
import { storefrontVersion } from './schema.ts'

/**
 * The storefront's change counter: it grows at the commit of every transaction that changes a
 * product, category, media row, banner or setting (database triggers, migration
 * 0018_storefront_version_triggers), on whichever instance made the change.
 */
export async function readStorefrontVersion(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ version: storefrontVersion.version }).from(storefrontVersion)
  return row?.version ?? 0
}
