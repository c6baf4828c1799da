import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import { stockMovements } from '#app/modules/inventory/schema.ts'
import { adjustCost } from '#app/modules/inventory/movement.server.ts'
import { deleteStoredFiles, storedPaths, type Upload } from '#app/modules/media/media.server.ts'
import { imageSource, mediaUrl, type ImageSource, type MediaReads } from '#app/modules/media/image-source.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { withStoredFiles } from '#app/modules/media/stored-files.server.ts'
import { orderItems } from '#app/modules/order/schema.ts'
import { pesosToCentavos } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { priceLevelsWith } from './pricing.ts'
import { categories, media, productCategories, products } from './schema.ts'
import { generateSku } from './sku.ts'
import { PRODUCT_MESSAGES, seoColumns, type ProductFields } from './validators.ts'
import { mediaValues, PRODUCT_FILES, setMainImageInTx, type MainChoice } from './product-media.server.ts'
import { slugOf } from '#app/utils/slug.ts'
import { hasNul, normalizeSearchText } from '#app/utils/text.ts'
import type { VatRate } from '#app/utils/vat.ts'

/** Spec §5's validation texts stand alone, as the original showed them. */
const productRefusal = (message: string) => new Refusal(message, { standsAlone: true })

function columnsFrom(fields: ProductFields) {
  const level1 = pesosToCentavos(fields.level1)
  const level5 = fields.level5 === undefined ? undefined : pesosToCentavos(fields.level5)
  return {
    name: fields.name,
    searchName: normalizeSearchText(fields.name),
    description: fields.description,
    ...priceLevelsWith(level1, level5),
    discountPercent: fields.discountPercent,
    purchaseLink: fields.purchaseLink ?? null,
    supplierInfo: fields.supplierInfo ?? null,
    showWholesale: fields.showWholesale,
    showRetail: fields.showRetail,
    personalUse: fields.personalUse,
    // Absent (a form older than the field): the column is left as it is.
    ...(fields.vat === undefined ? {} : { vat: fields.vat }),
    ...(fields.weightGrams === undefined ? {} : { weightGrams: fields.weightGrams }),
    ...(fields.lengthCm === undefined ? {} : { lengthCm: fields.lengthCm }),
    ...(fields.widthCm === undefined ? {} : { widthCm: fields.widthCm }),
    ...(fields.heightCm === undefined ? {} : { heightCm: fields.heightCm }),
    ...seoColumns(fields, fields.name),
  }
}

async function assertCategoriesExist(tx: DbOrTx, ids: string[]) {
  const found = await tx.select({ id: categories.id }).from(categories).where(inArray(categories.id, ids))
  if (found.length !== ids.length) throw new Refusal(PRODUCT_MESSAGES.unknownCategory)
}

export type CreateProductInput = { fields: ProductFields; uploads: Upload[]; mainIndex: number | null }

/**
 * Spec §5 create: at least one image and a main image among them; SKU per spec §9, retried on a
 * collision; stock, units in and out start at 0 (column defaults: only inventory changes them).
 */
export async function createProduct(
  db: Db,
  storage: MediaStorage,
  { fields, uploads, mainIndex }: CreateProductInput,
  random: () => number = Math.random,
): Promise<{ sku: string }> {
  if (uploads.length === 0) throw productRefusal(PRODUCT_MESSAGES.imagesRequired)
  if (mainIndex === null || !Number.isInteger(mainIndex) || mainIndex < 0 || mainIndex >= uploads.length) {
    throw productRefusal(PRODUCT_MESSAGES.mainImageInvalid)
  }
  await assertCategoriesExist(db, fields.categoryIds)
  return withStoredFiles(storage, uploads, PRODUCT_FILES, (stored) =>
    db.transaction(async (tx) => {
      await assertCategoriesExist(tx, fields.categoryIds)
      let sku: string | undefined
      for (let attempt = 0; attempt < 8 && !sku; attempt++) {
        const candidate = generateSku(fields.name, fields.categoryIds[0], random)
        const [row] = await tx
          .insert(products)
          .values({ sku: candidate, ...columnsFrom(fields) })
          .onConflictDoNothing({ target: products.sku })
          .returning({ sku: products.sku })
        sku = row?.sku
      }
      if (!sku) throw new Error('No se pudo generar un SKU único')
      // The cost column starts at 0 and only inventory writes it; with no stock yet, no ledger row names anyone.
      await adjustCost(tx, sku, { from: 0, to: pesosToCentavos(fields.cost) }, '')
      await tx
        .insert(productCategories)
        .values(fields.categoryIds.map((categoryId, position) => ({ productSku: sku, categoryId, position })))
      await tx.insert(media).values(mediaValues(sku, stored, 0, mainIndex))
      return { sku }
    }),
  )
}

export type UpdateProductInput = {
  fields: ProductFields
  uploads: Upload[]
  main: MainChoice
  /** The admin's e-mail, named on the ledger row of a cost adjustment. */
  by: string
  /**
   * The cost (centavos) the form was loaded with: the cost changes only when the admin typed
   * another, and is refused when a movement moved it meanwhile.
   */
  loadedCost: number
}

/** Spec §5 edit: same fields (the sku never changes), new images added, main image chosen. */
export async function updateProduct(
  db: Db,
  storage: MediaStorage,
  sku: string,
  { fields, uploads, main, by, loadedCost }: UpdateProductInput,
): Promise<void> {
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(sku)) throw new Refusal(PRODUCT_MESSAGES.notFound, { status: 404 })
  const existing = await db.select({ id: media.id }).from(media).where(eq(media.productSku, sku))
  const [product] = await db.select({ sku: products.sku }).from(products).where(eq(products.sku, sku))
  if (!product) throw new Refusal(PRODUCT_MESSAGES.notFound, { status: 404 })
  if (existing.length + uploads.length === 0) throw productRefusal(PRODUCT_MESSAGES.imagesRequired)
  const mainValid =
    main !== null &&
    ('existing' in main
      ? existing.some((row) => row.id === main.existing)
      : main.upload >= 0 && main.upload < uploads.length)
  if (!mainValid) throw productRefusal(PRODUCT_MESSAGES.mainImageInvalid)
  await assertCategoriesExist(db, fields.categoryIds)

  await withStoredFiles(storage, uploads, PRODUCT_FILES, (stored) =>
    db.transaction(async (tx) => {
      const [updated] = await tx
        .update(products)
        .set({ ...columnsFrom(fields), updatedAt: new Date() })
        .where(eq(products.sku, sku))
        .returning({ sku: products.sku })
      if (!updated) throw new Refusal(PRODUCT_MESSAGES.notFound)
      // Once the product has stock a new cost is a ledger row (a cost adjustment) naming the admin.
      await adjustCost(tx, sku, { from: loadedCost, to: pesosToCentavos(fields.cost) }, by)
      await assertCategoriesExist(tx, fields.categoryIds)
      await tx.delete(productCategories).where(eq(productCategories.productSku, sku))
      await tx
        .insert(productCategories)
        .values(fields.categoryIds.map((categoryId, position) => ({ productSku: sku, categoryId, position })))
      const [{ next } = { next: 0 }] = await tx
        .select({ next: sql<number>`coalesce(max(${media.position}) + 1, 0)::int` })
        .from(media)
        .where(eq(media.productSku, sku))
      const uploadMain = 'upload' in main! ? main.upload : null
      if (stored.length) {
        if (uploadMain !== null) {
          await tx.update(media).set({ isMain: false }).where(eq(media.productSku, sku))
        }
        await tx.insert(media).values(mediaValues(sku, stored, next, uploadMain))
      }
      if ('existing' in main!) await setMainImageInTx(tx, sku, main.existing)
    }),
  )
}

/**
 * Deletes a product with its categories, locations and media rows in one transaction, then its
 * files. A product with stock movements or order lines keeps its history: refused (ADR 0003).
 */
export async function deleteProduct(db: Db, storage: MediaStorage, sku: string): Promise<void> {
  const removedMedia = await db.transaction(async (tx) => {
    const [product] = await tx
      .select({ sku: products.sku })
      .from(products)
      .where(eq(products.sku, sku))
      .for('update')
    if (!product) throw new Refusal(PRODUCT_MESSAGES.notFound, { status: 404 })
    const [movement] = await tx
      .select({ id: stockMovements.id })
      .from(stockMovements)
      .where(eq(stockMovements.productSku, sku))
      .limit(1)
    const [ordered] = await tx
      .select({ sku: orderItems.productSku })
      .from(orderItems)
      .where(eq(orderItems.productSku, sku))
      .limit(1)
    if (movement || ordered) throw new Refusal(PRODUCT_MESSAGES.hasHistory)
    const rows = await tx.select().from(media).where(eq(media.productSku, sku))
    await tx.delete(products).where(eq(products.sku, sku))
    return rows
  })
  await deleteStoredFiles(storage, removedMedia.flatMap(storedPaths))
}

export type EditableMedia = {
  id: number
  kind: 'image' | 'video'
  isMain: boolean
  url: string
  image: ImageSource | null
}

export type EditableProduct = {
  sku: string
  name: string
  /** "SEO": the slug of its URL now (saved, or made from the name), and what the owner wrote. */
  slug: string
  seoTitle: string | null
  seoDescription: string | null
  description: string
  cost: number
  priceLevel1: number
  priceLevel5: number
  discountPercent: number
  purchaseLink: string | null
  supplierInfo: string | null
  showWholesale: boolean
  showRetail: boolean
  personalUse: boolean
  /** IVA on its invoices; null follows the shop's default. */
  vat: VatRate | null
  /** "Empaque para envíos" (grams, centimetres); null takes the shop's default package. */
  weightGrams: number | null
  lengthCm: number | null
  widthCm: number | null
  heightCm: number | null
  stock: number
  categoryIds: string[]
  media: EditableMedia[]
}

/** What the edit form needs; null for an unknown sku ("Producto no encontrado."). */
export async function getEditableProduct(
  { db, publicBase }: MediaReads,
  sku: string,
): Promise<EditableProduct | null> {
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(sku)) return null
  const [product] = await db.select().from(products).where(eq(products.sku, sku))
  if (!product) return null
  const [categoryRows, mediaRows] = await Promise.all([
    db
      .select({ id: productCategories.categoryId })
      .from(productCategories)
      .where(eq(productCategories.productSku, sku))
      .orderBy(asc(productCategories.position)),
    db.select().from(media).where(eq(media.productSku, sku)).orderBy(asc(media.position), asc(media.id)),
  ])
  return {
    sku: product.sku,
    name: product.name,
    slug: slugOf(product),
    seoTitle: product.seoTitle,
    seoDescription: product.seoDescription,
    description: product.description,
    cost: product.cost,
    priceLevel1: product.priceLevel1,
    priceLevel5: product.priceLevel5,
    discountPercent: product.discountPercent,
    purchaseLink: product.purchaseLink,
    supplierInfo: product.supplierInfo,
    showWholesale: product.showWholesale,
    showRetail: product.showRetail,
    personalUse: product.personalUse,
    vat: product.vat,
    weightGrams: product.weightGrams,
    lengthCm: product.lengthCm,
    widthCm: product.widthCm,
    heightCm: product.heightCm,
    stock: product.stock,
    categoryIds: categoryRows.map((row) => row.id),
    media: mediaRows.map((row) => ({
      id: row.id,
      kind: row.kind,
      isMain: row.isMain,
      url: mediaUrl(row.path, publicBase),
      image: row.kind === 'image' ? imageSource(row, product.name, publicBase) : null,
    })),
  }
}
