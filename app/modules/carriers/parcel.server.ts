import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { discountedPrice } from '#app/modules/catalog/pricing.ts'
import { products } from '#app/modules/catalog/schema.ts'
import type { PackageSize } from '#app/modules/settings/settings.server.ts'
import { parcelFor, type PackedLine } from './parcel.ts'
import type { Parcel } from './provider.ts'

/** A product as a parcel sees it: its own measures (null: the default's) and its retail price now. */
export type PackedProduct = { size: PackedLine['size']; finalPrice: number }

/** These products' measures and prices, by SKU, in one query (unknown SKUs are left out). */
export async function packedProductsOf(db: DbOrTx, skus: readonly string[]) {
  const unique = [...new Set(skus)]
  const rows = unique.length
    ? await db
        .select({
          sku: products.sku,
          weightGrams: products.weightGrams,
          lengthCm: products.lengthCm,
          widthCm: products.widthCm,
          heightCm: products.heightCm,
          level1: products.priceLevel1,
          discountPercent: products.discountPercent,
        })
        .from(products)
        .where(inArray(products.sku, unique))
    : []
  return new Map<string, PackedProduct>(
    rows.map(({ sku, level1, discountPercent, ...size }) => [
      sku,
      { size, finalPrice: discountedPrice(level1, discountPercent) },
    ]),
  )
}

const NO_MEASURES: PackedLine['size'] = { weightGrams: null, lengthCm: null, widthCm: null, heightCm: null }

/** The packed box for these lines (SKU and quantity), from each product's measures or the default. */
export async function parcelOfLines(
  db: DbOrTx,
  lines: readonly { sku: string; quantity: number }[],
  defaults: PackageSize,
  declaredValue: number,
): Promise<Parcel> {
  const packed = await packedProductsOf(
    db,
    lines.map((line) => line.sku),
  )
  return parcelFor(
    lines.map((line) => ({ quantity: line.quantity, size: packed.get(line.sku)?.size ?? NO_MEASURES })),
    defaults,
    declaredValue,
  )
}
