import { asc, ilike, or, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { cleanText, containsPattern, normalizeSearchText } from '#app/utils/text.ts'
import { kardexProduct, locationsOf, type KardexProduct } from './kardex.server.ts'
import { recordEntry, recordExit, type MovementResult } from './movement.server.ts'
import { type EntryForm, type ExitForm } from './validators.ts'

/** How many products the entry and exit pickers offer for one search. */
export const PICKER_LIMIT = 20

export type PickerOption = { sku: string; name: string; stock: number }

/**
 * Products whose name (any case, accents ignored) or SKU contains the search text, for the entry
 * and exit forms' product picker; an exact SKU comes first, then by name.
 */
export async function searchStockProducts(db: DbOrTx, query: string): Promise<PickerOption[]> {
  const text = cleanText(query).trim().slice(0, 60)
  if (!text) return []
  const upper = text.toUpperCase()
  return db
    .select({ sku: products.sku, name: products.name, stock: products.stock })
    .from(products)
    .where(
      or(
        ilike(products.searchName, containsPattern(normalizeSearchText(text))),
        ilike(products.sku, containsPattern(text)),
      ),
    )
    .orderBy(sql`${products.sku} = ${upper} desc`, asc(products.searchName), asc(products.sku))
    .limit(PICKER_LIMIT)
}

/** The chosen product of an entry or exit form: its stock, reservation, cost and locations. */
export type StockFormProduct = KardexProduct & {
  locations: { code: string; stock: number }[]
}

export async function stockFormProduct(db: DbOrTx, sku: string): Promise<StockFormProduct | null> {
  const product = await kardexProduct(db, sku.trim())
  if (!product) return null
  return {
    ...product,
    locations: await locationsOf(db, product.sku),
  }
}

/** What the entry and exit pages load: the chosen product (`?sku=`) and the picker's results (`?q=`). */
export type StockFormPage = {
  product: StockFormProduct | null
  /** A `?sku=` that names no product. */
  unknownSku: string | null
  query: string
  options: PickerOption[]
}

export async function stockFormPage(db: DbOrTx, params: URLSearchParams): Promise<StockFormPage> {
  const sku = params.get('sku')?.trim().slice(0, 60) ?? ''
  const query = params.get('q')?.trim().slice(0, 60) ?? ''
  const product = sku ? await stockFormProduct(db, sku) : null
  return {
    product,
    unknownSku: sku && !product ? sku : null,
    query,
    options: query ? await searchStockProducts(db, query) : [],
  }
}

/** The entry form, parsed, as a movement by the signed-in admin `by`. */
export function registerEntry(db: Db, jobs: JobQueue, form: EntryForm, by: string): Promise<MovementResult> {
  return recordEntry(db, jobs, form, by)
}

/**
 * The exit form, parsed, as a movement by `by`. Without "Editar Precio" the unit price is the
 * product's average cost (spec §5: the read-only price is filled from it), read under the
 * movement's lock rather than trusted from the page, which may be older than the last movement.
 */
export function registerExit(db: Db, jobs: JobQueue, form: ExitForm, by: string): Promise<MovementResult> {
  const { editPrice, unitPrice, ...rest } = form
  const price = editPrice && unitPrice !== undefined ? unitPrice : 'average-cost'
  return recordExit(db, jobs, { ...rest, unitPrice: price }, by)
}
