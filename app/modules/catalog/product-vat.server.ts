import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { hasNul } from '#app/utils/text.ts'
import { isVatRate, type VatRate } from '#app/utils/vat.ts'
import { products } from './schema.ts'

/**
 * Each product's own IVA for its invoice lines, by SKU: a rate, or null when the product follows
 * the shop's default (`readInvoiceSettings` in settings). A SKU with no product (deleted, or never
 * there) is absent from the map. Runs in the caller's transaction when given one.
 */
export async function productVatOf(
  db: DbOrTx,
  skus: readonly string[],
): Promise<Map<string, VatRate | null>> {
  // A NUL is in no SKU, and PostgreSQL would refuse the query for it.
  const wanted = [...new Set(skus)].filter((sku) => !hasNul(sku))
  const result = new Map<string, VatRate | null>()
  if (wanted.length === 0) return result
  const rows = await db
    .select({ sku: products.sku, vat: products.vat })
    .from(products)
    .where(inArray(products.sku, wanted))
  // The column's check allows only these; anything else would be read as the default.
  for (const row of rows) result.set(row.sku, isVatRate(row.vat) ? row.vat : null)
  return result
}
