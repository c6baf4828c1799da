import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { products } from '#app/modules/catalog/schema.ts'

/** Admin home figures (spec §2): stock valued at cost, at level 1 and at level 5; all in centavos. */
export type InventoryTotals = {
  costValue: number
  level1Value: number
  level5Value: number
  units: number
}

/**
 * Sums over every product. Products are multiplied as bigint, because cost × stock of a single
 * product already overflows a 32-bit integer at about 21 million pesos.
 */
export async function inventoryTotals(db: DbOrTx): Promise<InventoryTotals> {
  const [row] = await db
    .select({
      costValue: sql<string>`coalesce(sum(${products.cost}::bigint * ${products.stock}), 0)`,
      level1Value: sql<string>`coalesce(sum(${products.priceLevel1}::bigint * ${products.stock}), 0)`,
      level5Value: sql<string>`coalesce(sum(${products.priceLevel5}::bigint * ${products.stock}), 0)`,
      units: sql<string>`coalesce(sum(${products.stock}::bigint), 0)`,
    })
    .from(products)
  return {
    costValue: Number(row?.costValue ?? 0),
    level1Value: Number(row?.level1Value ?? 0),
    level5Value: Number(row?.level5Value ?? 0),
    units: Number(row?.units ?? 0),
  }
}
