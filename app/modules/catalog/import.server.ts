import { bulkInsert } from '#app/db/bulk-insert.server.ts'
import type { Tx } from '#app/db/client.server.ts'
import { storedMediaColumns, type StoredMedia } from '#app/modules/media/media.server.ts'
import { addressWithoutCredentials } from '#app/modules/media/remote-file.server.ts'
import { normalizeSearchText } from '#app/utils/text.ts'
import { categories, media, missingMedia, productCategories, products } from './schema.ts'

export type ImportedCategory = { id: string; name: string; createdAt: Date }

/**
 * A file the import stored here, or one it could not bring over: that one is never a media row
 * (the shop would show its address), but a `missing_media` row the owner is shown.
 */
export type ImportedMedia =
  | { stored: StoredMedia; main: boolean }
  | { missing: { url: string; kind: 'image' | 'video'; reason: string | null }; main: boolean }

/** A product of another shop, money in centavos. Stock columns are inventory's (`replayHistories`). */
export type ImportedProduct = Pick<
  typeof products.$inferSelect,
  | 'sku'
  | 'name'
  | 'description'
  | 'priceLevel1'
  | 'priceLevel2'
  | 'priceLevel3'
  | 'priceLevel4'
  | 'priceLevel5'
  | 'discountPercent'
  | 'purchaseLink'
  | 'supplierInfo'
  | 'showWholesale'
  | 'showRetail'
  | 'createdAt'
> & { categoryIds: string[]; media: ImportedMedia[] }

/**
 * Writes categories and products brought from another shop, as they were there (their ids, SKUs,
 * price levels and dates), in the caller's transaction and in bulk. The caller has checked that
 * none exists yet and that every category a product names is among them or already here.
 */
export async function insertImportedCatalogue(
  tx: Tx,
  input: { categories: ImportedCategory[]; products: ImportedProduct[] },
): Promise<void> {
  await bulkInsert(tx, categories, input.categories)
  await bulkInsert(
    tx,
    products,
    input.products.map((product) => ({
      sku: product.sku,
      name: product.name,
      searchName: normalizeSearchText(product.name),
      description: product.description,
      priceLevel1: product.priceLevel1,
      priceLevel2: product.priceLevel2,
      priceLevel3: product.priceLevel3,
      priceLevel4: product.priceLevel4,
      priceLevel5: product.priceLevel5,
      discountPercent: product.discountPercent,
      purchaseLink: product.purchaseLink,
      supplierInfo: product.supplierInfo,
      showWholesale: product.showWholesale,
      showRetail: product.showRetail,
      createdAt: product.createdAt,
      updatedAt: product.createdAt,
    })),
  )
  await bulkInsert(
    tx,
    productCategories,
    input.products.flatMap((product) =>
      product.categoryIds.map((categoryId, position) => ({ productSku: product.sku, categoryId, position })),
    ),
  )
  await bulkInsert(
    tx,
    media,
    input.products.flatMap((product) => {
      const stored = product.media.flatMap((file) => ('stored' in file ? [file] : []))
      // The main file may be among those missing: the first image that came is main instead, so
      // the product's card still has a picture.
      const main = stored.some((file) => file.main)
        ? stored.findIndex((file) => file.main)
        : stored.findIndex((file) => file.stored.kind === 'image')
      return stored.map((file, position) => ({
        productSku: product.sku,
        ...storedMediaColumns(file.stored),
        position,
        isMain: position === main,
        createdAt: product.createdAt,
      }))
    }),
  )
  await bulkInsert(
    tx,
    missingMedia,
    input.products.flatMap((product) =>
      product.media.flatMap((file, position) =>
        'missing' in file
          ? [
              {
                productSku: product.sku,
                kind: file.missing.kind,
                url: addressWithoutCredentials(file.missing.url),
                reason: file.missing.reason,
                position,
                createdAt: product.createdAt,
              },
            ]
          : [],
      ),
    ),
  )
}
