import { asc, desc, eq, inArray } from 'drizzle-orm'
import { discountedPrice } from '#app/modules/catalog/pricing.ts'
import { categories, media, productCategories, products } from '#app/modules/catalog/schema.ts'
import { isShareVariant, mediaUrl, type MediaReads } from '#app/modules/media/image-source.ts'
import type { MediaVariant } from '#app/modules/media/variants.ts'
import { runningAutomaticPromotions } from '#app/modules/promotions/promotions.server.ts'
import { shelfPriceOf, type PricingLine, type PromotionRule } from '#app/modules/promotions/rules.ts'
import { promotions } from '#app/modules/promotions/schema.ts'
import type { Env } from '#app/utils/env.server.ts'
import { absoluteUrl } from '#app/utils/seo.ts'
import { slugOf } from '#app/utils/slug.ts'
import {
  catalogFeed,
  FEED_PLATFORMS,
  feedXml,
  type CatalogFeed,
  type FeedPlatform,
  type FeedProduct,
  type FeedShop,
} from './feeds.ts'

/** What the feeds read: the database and media base (the registry's `reads`), and the shop. */
export type FeedDeps = { reads: MediaReads; shop: FeedShop }

/** The shop as the feeds name it: the storefront's name (the brand) and public origin. */
export function feedShopOf(env: Pick<Env, 'STORE_NAME' | 'publicUrl'>): FeedShop {
  return { name: env.STORE_NAME, origin: env.publicUrl }
}

type Line = Omit<PricingLine, 'quantity'>
type Window = { starts: number; ends: number | null }

/**
 * Every product with what the feeds say of it, in sku order: priced as its storefront page prices
 * it (level 1, its own discount, then the running automatic promotions, as `withShelfPrices`),
 * with its main image (the gallery's first) at the shop's public origin and its available units.
 * Products hidden from retail are read too, so the feeds can say why they left them out.
 */
export async function readFeedProducts(
  { db, publicBase }: MediaReads,
  origin: string,
  now = new Date(),
): Promise<FeedProduct[]> {
  const rows = await db
    .select({
      sku: products.sku,
      name: products.name,
      slug: products.slug,
      description: products.description,
      showRetail: products.showRetail,
      showWholesale: products.showWholesale,
      listPrice: products.priceLevel1,
      discountPercent: products.discountPercent,
      stock: products.stock,
      reserved: products.reserved,
    })
    .from(products)
    .orderBy(asc(products.sku))
  if (!rows.length) return []
  // The gallery's order (main first), as the product page shows it: the first image is the feed's.
  const images = await db
    .select({ sku: media.productSku, path: media.path, variants: media.variants })
    .from(media)
    .where(eq(media.kind, 'image'))
    .orderBy(asc(media.productSku), desc(media.isMain), asc(media.position), asc(media.id))
  const imageOf = new Map<string, (typeof images)[number]>()
  for (const image of images) if (image.sku && !imageOf.has(image.sku)) imageOf.set(image.sku, image)
  const links = await db
    .select({ sku: productCategories.productSku, id: categories.id, name: categories.name })
    .from(productCategories)
    .innerJoin(categories, eq(categories.id, productCategories.categoryId))
    .orderBy(asc(productCategories.productSku), asc(productCategories.position), asc(categories.name))
  const categoriesOf = new Map<string, { id: string; name: string }[]>()
  for (const link of links) {
    const list = categoriesOf.get(link.sku)
    if (list) list.push(link)
    else categoriesOf.set(link.sku, [link])
  }

  const rules = await runningAutomaticPromotions(db, now)
  const windows = await promotionWindows(db, rules)

  const publicLink = (path: string) => httpUrl(absoluteUrl(mediaUrl(path, publicBase), origin))
  return rows.map((row) => {
    const image = imageOf.get(row.sku)
    const share = image?.variants.find(isShareVariant)
    const productCategoriesOf = categoriesOf.get(row.sku) ?? []
    const line: Line = {
      sku: row.sku,
      listPrice: row.listPrice,
      unitPrice: discountedPrice(row.listPrice, row.discountPercent),
      categoryIds: productCategoriesOf.map((category) => category.id),
    }
    const price = priceWith(line, rules)
    return {
      sku: row.sku,
      name: row.name,
      slug: slugOf(row),
      description: row.description,
      showRetail: row.showRetail,
      showWholesale: row.showWholesale,
      listPrice: row.listPrice,
      price,
      saleWindow: price < line.unitPrice ? saleWindowOf(line, price, rules, windows) : null,
      available: Math.max(row.stock - row.reserved, 0),
      image: image ? publicLink(largestPath(image)) : null,
      jpegImage: share ? publicLink(share.path) : null,
      productType: productCategoriesOf[0]?.name ?? null,
    }
  })
}

/** The largest WebP variant of a stored image (its own path when it has none, as an import's). */
function largestPath(image: { path: string; variants: MediaVariant[] }): string {
  const variants = image.variants.filter((variant) => !isShareVariant(variant))
  return (
    variants.reduce<(typeof variants)[number] | null>(
      (largest, variant) => (!largest || variant.width > largest.width ? variant : largest),
      null,
    )?.path ?? image.path
  )
}

/** A link the platforms can fetch: an absolute http(s) URL, encoded (ASCII only), or null. */
function httpUrl(url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null
  } catch {
    return null
  }
}

/** When each running promotion started (its start, or its creation when it has none) and ends. */
async function promotionWindows(
  db: MediaReads['db'],
  rules: readonly PromotionRule[],
): Promise<Map<number, Window>> {
  if (!rules.length) return new Map()
  const rows = await db
    .select({
      id: promotions.id,
      startsAt: promotions.startsAt,
      endsAt: promotions.endsAt,
      createdAt: promotions.createdAt,
    })
    .from(promotions)
    .where(
      inArray(
        promotions.id,
        rules.map((rule) => rule.id),
      ),
    )
  return new Map(
    rows.map((row) => [
      row.id,
      { starts: (row.startsAt ?? row.createdAt).getTime(), ends: row.endsAt?.getTime() ?? null },
    ]),
  )
}

/** One unit's price with these promotions running: what `withShelfPrices` shows. */
function priceWith(line: Line, rules: readonly PromotionRule[]): number {
  return rules.length ? shelfPriceOf(line, rules).finalPrice : line.unitPrice
}

/**
 * From when until when promotions give this price: the first end after which the price would
 * change (null when none of the promotions that matter ends), and the last start before which it
 * was different. Two promotions giving the same price both have to end before it changes.
 */
function saleWindowOf(
  line: Line,
  price: number,
  rules: readonly PromotionRule[],
  windows: ReadonlyMap<number, Window>,
): { starts: Date; ends: Date } | null {
  const windowOf = (rule: PromotionRule): Window => windows.get(rule.id) ?? { starts: 0, ends: null }
  const ends = [...new Set(rules.flatMap((rule) => windowOf(rule).ends ?? []))].sort((a, b) => a - b)
  const end = ends.find(
    (moment) =>
      priceWith(
        line,
        rules.filter((rule) => (windowOf(rule).ends ?? Infinity) > moment),
      ) !== price,
  )
  if (end === undefined) return null
  const starts = [...new Set(rules.map((rule) => windowOf(rule).starts))].sort((a, b) => b - a)
  const start =
    starts.find(
      (moment) =>
        priceWith(
          line,
          rules.filter((rule) => windowOf(rule).starts < moment),
        ) !== price,
    ) ?? starts.at(-1)!
  return { starts: new Date(start), ends: new Date(end) }
}

/** Both feeds from one read: what the Marketing page shows. */
export async function readCatalogFeeds(
  { reads, shop }: FeedDeps,
  now = new Date(),
): Promise<Record<FeedPlatform, CatalogFeed>> {
  const feedProducts = await readFeedProducts(reads, shop.origin, now)
  return Object.fromEntries(
    FEED_PLATFORMS.map((platform) => [platform, catalogFeed(platform, feedProducts, shop)]),
  ) as Record<FeedPlatform, CatalogFeed>
}

/** One platform's feed as the XML its URL serves. */
export async function catalogFeedXml(
  { reads, shop }: FeedDeps,
  platform: FeedPlatform,
  now = new Date(),
): Promise<string> {
  const feed = catalogFeed(platform, await readFeedProducts(reads, shop.origin, now), shop)
  return feedXml(feed, shop)
}
