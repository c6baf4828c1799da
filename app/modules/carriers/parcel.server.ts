import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { parcelFor, type PackageSize, type PackedLine } from './parcel.ts'
import type { Parcel } from './provider.ts'

/** The packed box for these lines (SKU and quantity), from each product's measures or the default. */
export async function parcelOfLines(
  db: DbOrTx,
  lines: readonly { sku: string; quantity: number }[],
  defaults: PackageSize,
  declaredValue: number,
): Promise<Parcel> {
  const skus = [...new Set(lines.map((line) => line.sku))]
  const rows = skus.length
    ? await db
        .select({
          sku: products.sku,
          weightGrams: products.weightGrams,
          lengthCm: products.lengthCm,
          widthCm: products.widthCm,
          heightCm: products.heightCm,
        })
        .from(products)
        .where(inArray(products.sku, skus))
    : []
  const sizes = new Map(rows.map(({ sku, ...size }) => [sku, size]))
  const none = { weightGrams: null, lengthCm: null, widthCm: null, heightCm: null }
  const packed: PackedLine[] = lines.map((line) => ({
    quantity: line.quantity,
    size: sizes.get(line.sku) ?? none,
  }))
  return parcelFor(packed, defaults, declaredValue)
}
