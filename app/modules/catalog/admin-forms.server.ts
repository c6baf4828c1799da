import { eq } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { uploadsFrom } from '#app/modules/media/form-uploads.server.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { pesosToCentavos } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { createProduct, updateProduct } from './admin-products.server.ts'
import { parseMainChoice } from './product-media.server.ts'
import { products } from './schema.ts'
import { firstMessage, PRODUCT_MESSAGES, productFieldsFrom } from './validators.ts'

/**
 * The cost (centavos) the edit form was loaded with, posted in the hidden `loadedCost` (pesos, as
 * the cost field). A form without it predates the field: reloading the page is the way out.
 */
function loadedCost(form: FormData): number {
  const value = form.get('loadedCost')
  if (typeof value !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(value.trim())) {
    throw new Refusal(PRODUCT_MESSAGES.staleForm, { standsAlone: true })
  }
  return pesosToCentavos(Number(value))
}

/** A product's money columns, in centavos (the discount in percent), for the audit log. */
export type ProductFigures = Pick<
  typeof products.$inferSelect,
  'cost' | 'priceLevel1' | 'priceLevel2' | 'priceLevel3' | 'priceLevel4' | 'priceLevel5' | 'discountPercent'
>

async function figuresOf(db: Db, sku: string): Promise<ProductFigures | null> {
  // No SKU holds a NUL, and PostgreSQL refuses one in a text parameter: the update says "not found".
  if (sku.includes('\0')) return null
  const [row] = await db
    .select({
      cost: products.cost,
      priceLevel1: products.priceLevel1,
      priceLevel2: products.priceLevel2,
      priceLevel3: products.priceLevel3,
      priceLevel4: products.priceLevel4,
      priceLevel5: products.priceLevel5,
      discountPercent: products.discountPercent,
    })
    .from(products)
    .where(eq(products.sku, sku))
  return row ?? null
}

export type ProductSaved = {
  sku: string
  message: string
  /** Its prices and cost before the save (none for a new product) and after it. */
  figures: { before: ProductFigures | null; after: ProductFigures | null }
}

/**
 * The create (no sku) or edit form post, by the signed-in admin `by` (their e-mail: a cost typed
 * once the product has stock is a ledger row naming them): fields, new images (`images`) and the main-image choice
 * (`mainImage`: `nueva:{index}` or `existente:{mediaId}`). Throws a `Refusal` for anything the admin
 * must fix (the spec §5 texts stand alone); the route words it with `PRODUCT_SAVE_FAILURE`.
 */
export async function saveProductForm(
  db: Db,
  storage: MediaStorage,
  form: FormData,
  by: string,
  sku?: string,
): Promise<ProductSaved> {
  const parsed = productFieldsFrom(form)
  if (!parsed.success) throw new Refusal(firstMessage(parsed.error), { standsAlone: true })
  const main = parseMainChoice(form.get('mainImage'))
  const uploads = await uploadsFrom(form, 'images')
  if (!sku) {
    if (main !== null && !('upload' in main)) {
      throw new Refusal(PRODUCT_MESSAGES.mainImageInvalid, { standsAlone: true })
    }
    const created = await createProduct(db, storage, {
      fields: parsed.data,
      uploads,
      mainIndex: main ? main.upload : null,
    })
    const after = await figuresOf(db, created.sku)
    return { sku: created.sku, message: PRODUCT_MESSAGES.created, figures: { before: null, after } }
  }
  const before = await figuresOf(db, sku)
  await updateProduct(db, storage, sku, {
    fields: parsed.data,
    uploads,
    main,
    by,
    loadedCost: loadedCost(form),
  })
  return { sku, message: PRODUCT_MESSAGES.updated, figures: { before, after: await figuresOf(db, sku) } }
}
