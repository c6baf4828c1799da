import { and, asc, desc, eq, gt, ilike, inArray, not, or, sql, type SQL } from 'drizzle-orm'
import { productLocations } from '#app/modules/inventory/schema.ts'
import { availableUnitsSql } from '#app/modules/inventory/stock.server.ts'
import { imageSource, type ImageSource, type MediaReads } from '#app/modules/media/image-source.ts'
import { media, products } from './schema.ts'
import { INVENTORY_PAGE_SIZE, type InventoryFilters } from './validators.ts'
import { cleanText, containsPattern, normalizeSearchText } from '#app/utils/text.ts'

export type InventoryCard = {
  sku: string
  name: string
  stock: number
  /** Units held by open orders; available = stock − reserved. */
  reserved: number
  available: number
  priceLevel1: number
  cost: number
  showWholesale: boolean
  showRetail: boolean
  image: ImageSource | null
  locations: { code: string; stock: number }[]
}

/** The card's figures a role may see (issue 27): the cost only with `costs`, the price with `money`. */
export type InventoryFigures = { costs: boolean; money: boolean }

/** A card as it leaves the server: a figure the signed-in admin may not see is not in it at all. */
export type ShownInventoryCard = Omit<InventoryCard, 'cost' | 'priceLevel1'> & {
  cost?: number
  priceLevel1?: number
}

export function shownInventoryCard(
  { cost, priceLevel1, ...card }: InventoryCard,
  figures: InventoryFigures,
): ShownInventoryCard {
  return { ...card, ...(figures.costs ? { cost } : {}), ...(figures.money ? { priceLevel1 } : {}) }
}

function inventoryWhere(filters: InventoryFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = []
  const name = normalizeSearchText(filters.q)
  if (name) {
    // The name without accents or case (as the stock forms' picker finds it), or the SKU (spec §2).
    conditions.push(
      or(
        ilike(products.searchName, containsPattern(name)),
        ilike(products.sku, containsPattern(cleanText(filters.q).trim())),
      ),
    )
  }
  if (!filters.noStock) conditions.push(gt(products.stock, 0))
  const states: SQL[] = []
  if (filters.wholesale) states.push(eq(products.showWholesale, true))
  if (filters.retail) states.push(eq(products.showRetail, true))
  if (filters.inactive) states.push(and(not(products.showWholesale), not(products.showRetail))!)
  conditions.push(states.length ? or(...states) : sql`false`)
  return and(...conditions)
}

/**
 * One page of the admin inventory grid, newest first, filtered on the server (spec §2): the name
 * (any case, accents or not) or the SKU (any case) contains the search text; "Mayoristas"/"Detal" show products active in that channel,
 * "sin estados activos" those active in neither, and "sin stock" adds products at 0.
 */
export async function listInventory(
  { db, publicBase }: MediaReads,
  filters: InventoryFilters,
  offset = 0,
  limit = INVENTORY_PAGE_SIZE,
): Promise<{ items: InventoryCard[]; hasMore: boolean }> {
  const rows = await db
    .select({
      sku: products.sku,
      name: products.name,
      stock: products.stock,
      reserved: products.reserved,
      available: availableUnitsSql,
      priceLevel1: products.priceLevel1,
      cost: products.cost,
      showWholesale: products.showWholesale,
      showRetail: products.showRetail,
    })
    .from(products)
    .where(inventoryWhere(filters))
    .orderBy(desc(products.createdAt), asc(products.sku))
    .offset(offset)
    .limit(limit + 1)
  const page = rows.slice(0, limit)
  const skus = page.map((row) => row.sku)
  const [images, locations] = skus.length
    ? await Promise.all([
        db
          .select()
          .from(media)
          .where(and(inArray(media.productSku, skus), eq(media.isMain, true))),
        db
          .select()
          .from(productLocations)
          .where(and(inArray(productLocations.productSku, skus), gt(productLocations.stock, 0)))
          .orderBy(asc(productLocations.code)),
      ])
    : [[], []]
  const imageBySku = new Map(images.map((row) => [row.productSku, row]))
  return {
    hasMore: rows.length > limit,
    items: page.map((row) => {
      const image = imageBySku.get(row.sku)
      return {
        ...row,
        image: image && image.kind === 'image' ? imageSource(image, row.name, publicBase) : null,
        locations: locations
          .filter((location) => location.productSku === row.sku)
          .map(({ code, stock }) => ({ code, stock })),
      }
    }),
  }
}
