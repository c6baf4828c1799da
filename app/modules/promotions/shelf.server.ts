import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { ProductCard } from '#app/modules/catalog/catalog.server.ts'
import { productCategories } from '#app/modules/catalog/schema.ts'
import { runningAutomaticPromotions } from './promotions.server.ts'
import { shelfPriceEndsAt, shelfPriceOf } from './rules.ts'

/**
 * Product cards and pages as the running automatic promotions price them (`shelfPriceOf`): the
 * price of one unit and its percentage off level 1, shown like a product's own `descuento`, and a
 * "lleve N pague M" badge. The cart's lines keep each product's own price: there the promotions are
 * rows of their own, as the order records them. One read when nothing runs.
 */
export async function withShelfPrices<Card extends ProductCard>(
  db: DbOrTx,
  cards: Card[],
  now = new Date(),
): Promise<Card[]> {
  if (!cards.length) return cards
  const rules = await runningAutomaticPromotions(db, now)
  if (!rules.length) return cards
  const links = await db
    .select({ sku: productCategories.productSku, categoryId: productCategories.categoryId })
    .from(productCategories)
    .where(
      inArray(
        productCategories.productSku,
        cards.map((card) => card.sku),
      ),
    )
  return cards.map((card) => {
    const line = {
      sku: card.sku,
      listPrice: card.price,
      unitPrice: card.finalPrice,
      categoryIds: links.filter((link) => link.sku === card.sku).map((link) => link.categoryId),
    }
    const shelf = shelfPriceOf(line, rules)
    if (shelf.finalPrice === card.finalPrice && !shelf.buyPay) return card
    const priced = shelf.finalPrice !== card.finalPrice
    // When a promotion's price ends (the product page's structured data says until when it holds).
    const until = priced ? shelfPriceEndsAt(line, rules) : null
    return {
      ...card,
      finalPrice: shelf.finalPrice,
      discountPercent: priced ? shelf.discountPercent : card.discountPercent,
      buyPay: shelf.buyPay,
      ...(until ? { priceValidUntil: until } : {}),
    }
  })
}

/** The same for one page of a product list (`{ items, next }`). */
export async function withShelfPage<Page extends { items: ProductCard[] }>(
  db: DbOrTx,
  page: Page,
  now = new Date(),
): Promise<Page> {
  return { ...page, items: await withShelfPrices(db, page.items, now) }
}
