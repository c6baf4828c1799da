import { and, asc, count, countDistinct, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { hasNul } from '#app/utils/text.ts'
import { missingMedia, products } from './schema.ts'

/** A file a product should have that never reached storage (see `missingMedia`). */
export type MissingFile = {
  id: number
  kind: 'image' | 'video'
  /** The original address, without credentials: text for the owner, never a link or a source. */
  url: string
  reason: string | null
}

/** What the owner still has to upload again for one product, in the original shop's order. */
export async function listMissingMedia(db: DbOrTx, sku: string): Promise<MissingFile[]> {
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(sku)) return []
  return db
    .select({
      id: missingMedia.id,
      kind: missingMedia.kind,
      url: missingMedia.url,
      reason: missingMedia.reason,
    })
    .from(missingMedia)
    .where(eq(missingMedia.productSku, sku))
    .orderBy(asc(missingMedia.position), asc(missingMedia.id))
}

/**
 * The owner has handled a missing file (uploaded it again, or does not want it): it leaves the
 * list. Gone already (a second click, another tab) is the same outcome, so it is no error.
 */
export async function dismissMissingMedia(db: DbOrTx, sku: string, id: number): Promise<void> {
  if (hasNul(sku)) return
  await db.delete(missingMedia).where(and(eq(missingMedia.id, id), eq(missingMedia.productSku, sku)))
}

export type MissingMediaSummary = {
  products: number
  files: number
  /** The first products to handle, newest first, for links. */
  first: { sku: string; name: string; files: number }[]
}

/** How many products have files still to upload again, for the inventory page's notice. */
export async function summarizeMissingMedia(db: DbOrTx, shown = 5): Promise<MissingMediaSummary> {
  const [totals] = await db
    .select({ products: countDistinct(missingMedia.productSku), files: count() })
    .from(missingMedia)
  if (!totals?.files) return { products: 0, files: 0, first: [] }
  const first = await db
    .select({ sku: products.sku, name: products.name, files: sql<number>`count(*)::int` })
    .from(missingMedia)
    .innerJoin(products, eq(products.sku, missingMedia.productSku))
    .groupBy(products.sku)
    .orderBy(sql`${products.createdAt} desc`, asc(products.sku))
    .limit(shown)
  return { products: totals.products, files: totals.files, first }
}
