import { and, asc, desc, eq, exists, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { availableUnitsSql } from '#app/modules/inventory/stock.server.ts'
import {
  imageSource,
  joinedImage,
  mediaUrl,
  shareImage,
  type ImageSource,
  type MediaReads,
} from '#app/modules/media/image-source.ts'
import { slugOf } from '#app/utils/slug.ts'
import { containsPattern, hasNul, normalizeSearchText } from '#app/utils/text.ts'
import { discountedPrice } from './pricing.ts'
import { categories, media, productCategories, products } from './schema.ts'

/** Spec §5: shoppers see only products with units available and retail visibility on. */
export const retailVisible = sql`${products.showRetail} and ${products.stock} > ${products.reserved}`

export type ProductCard = {
  sku: string
  name: string
  /** The readable part of its URL (`productPath`): the one saved, or one from the name. */
  slug: string
  /** Level-1 price in centavos. */
  price: number
  /** What the shopper pays: level 1 less the discount. */
  finalPrice: number
  discountPercent: number
  available: number
  image: ImageSource | null
  /** A running "lleve N pague M" on it (promotions' `withShelfPrices`); absent: none. */
  buyPay?: { buy: number; pay: number } | null
  /**
   * When running promotions make `finalPrice` and end, the moment it changes (promotions'
   * `withShelfPrices`); absent: the price holds with no end.
   */
  priceValidUntil?: Date | null
}

export type CategorySummary = { id: string; name: string; slug: string; image: ImageSource | null }

const productCardColumns = {
  sku: products.sku,
  name: products.name,
  slug: products.slug,
  price: products.priceLevel1,
  discountPercent: products.discountPercent,
  available: availableUnitsSql.as('available'),
  shuffleKey: products.shuffleKey,
}

const mainMediaColumns = {
  mediaKind: media.kind,
  mediaPath: media.path,
  mediaWidth: media.width,
  mediaHeight: media.height,
  mediaVariants: media.variants,
}

type ProductCardRow = {
  sku: string
  name: string
  slug: string | null
  price: number
  discountPercent: number
  available: number
  shuffleKey: number
}

type CardRow = ProductCardRow & {
  mediaKind: 'image' | 'video' | null
  mediaPath: string | null
  mediaWidth: number | null
  mediaHeight: number | null
  mediaVariants: ProductMediaVariants | null
}
type ProductMediaVariants = (typeof media.$inferSelect)['variants']

function toCard(row: CardRow, publicBase: string): ProductCard {
  return {
    sku: row.sku,
    name: row.name,
    slug: slugOf(row),
    price: row.price,
    finalPrice: discountedPrice(row.price, row.discountPercent),
    discountPercent: row.discountPercent,
    available: row.available,
    image: joinedImage(row, row.name, publicBase),
  }
}

const mainMedia = and(eq(media.productSku, products.sku), eq(media.isMain, true))

/** Card lists pick and order their page from `products` alone; the images come after. */
function cardQuery(db: DbOrTx) {
  return db.select(productCardColumns).from(products)
}

/**
 * The main image of each product of a page, by index. Joining media inside the list queries made
 * the database join every visible product's image before sorting and limiting, so each list
 * read the whole catalogue.
 */
async function withMainMedia(db: DbOrTx, rows: ProductCardRow[]): Promise<CardRow[]> {
  if (!rows.length) return []
  const mediaRows = await db
    .select({ productSku: media.productSku, ...mainMediaColumns })
    .from(media)
    .where(
      and(
        inArray(
          media.productSku,
          rows.map((row) => row.sku),
        ),
        eq(media.isMain, true),
      ),
    )
  const bySku = new Map(mediaRows.map((row) => [row.productSku, row]))
  return rows.map((row) => {
    const image = bySku.get(row.sku)
    return {
      ...row,
      mediaKind: image?.mediaKind ?? null,
      mediaPath: image?.mediaPath ?? null,
      mediaWidth: image?.mediaWidth ?? null,
      mediaHeight: image?.mediaHeight ?? null,
      mediaVariants: image?.mediaVariants ?? null,
    }
  })
}

export async function listCategories({ db, publicBase }: MediaReads): Promise<CategorySummary[]> {
  const rows = await db
    .select({
      id: categories.id,
      name: categories.name,
      slug: categories.slug,
      imageMediaId: categories.imageMediaId,
    })
    .from(categories)
    .orderBy(asc(categories.name))
  // Images by primary key in a second query: a join let the planner hash the whole media table
  // (one row per product image) on every page, since the layout lists the categories.
  const imageIds = rows.flatMap((row) => (row.imageMediaId === null ? [] : [row.imageMediaId]))
  const images = imageIds.length
    ? await db
        .select({
          id: media.id,
          path: media.path,
          width: media.width,
          height: media.height,
          variants: media.variants,
        })
        .from(media)
        .where(inArray(media.id, imageIds))
    : []
  const byId = new Map(images.map((image) => [image.id, image]))
  return rows.map((row) => {
    const image = row.imageMediaId === null ? undefined : byId.get(row.imageMediaId)
    return {
      id: row.id,
      name: row.name,
      slug: slugOf(row),
      image: image
        ? imageSource(
            {
              kind: 'image',
              path: image.path,
              width: image.width,
              height: image.height,
              variants: image.variants ?? [],
            },
            row.name,
            publicBase,
          )
        : null,
    }
  })
}

export async function getCategory(db: DbOrTx, id: string) {
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(id)) return null
  const [row] = await db.select().from(categories).where(eq(categories.id, id))
  return row ?? null
}

/** Spec §2 "Más vendidos": the visible products with the most units out. */
export async function listBestSellers({ db, publicBase }: MediaReads, limit = 4): Promise<ProductCard[]> {
  const rows = await cardQuery(db)
    .where(retailVisible)
    // "nulls last" as in products_retail_best_sellers_idx, or the index cannot give this order.
    .orderBy(sql`${products.unitsOut} desc nulls last`, asc(products.sku))
    .limit(limit)
  return (await withMainMedia(db, rows)).map((row) => toCard(row, publicBase))
}

/** A visit's shuffle: its seed and the next slot to look at (see `listShuffledProducts`). */
export type ShuffleCursor = { seed: number; slot?: number }

export const SHUFFLE_KEY_SPACE = 2_147_483_647

export function encodeShuffleCursor(cursor: Required<ShuffleCursor>): string {
  return `${cursor.seed}.${cursor.slot}`
}

export function decodeShuffleCursor(value: string | null): ShuffleCursor | null {
  const match = value?.match(/^(\d{1,10})\.(\d{1,9})$/)
  if (!match) return null
  const seed = Number(match[1])
  return seed < SHUFFLE_KEY_SPACE ? { seed, slot: Number(match[2]) } : null
}

/** Key ranges a visit deals from; more buckets mean more shuffling but more probes per round. */
const SHUFFLE_BUCKETS = 64
const SHUFFLE_BUCKET_WIDTH = Math.ceil(SHUFFLE_KEY_SPACE / SHUFFLE_BUCKETS)

/** A small deterministic PRNG: the same seed always deals the same order. */
function mulberry32(seed: number) {
  let a = seed | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * The key ranges ("buckets") of one seed, in the order the visit deals from them: the 64 equal
 * ranges shifted by a seeded offset (plus the part before the first one), in a seeded order.
 * The first and last ranges are open so no key is ever missed.
 */
export function shuffleBuckets(seed: number): { lo: number; hi: number }[] {
  const random = mulberry32(seed)
  const shift = Math.floor(random() * SHUFFLE_BUCKET_WIDTH)
  const bounds = [-(2 ** 31)]
  for (let b = 0; b < SHUFFLE_BUCKETS; b++) bounds.push(shift + b * SHUFFLE_BUCKET_WIDTH)
  bounds.push(2 ** 31)
  const buckets = bounds.slice(1).map((hi, index) => ({ lo: bounds[index]!, hi }))
  for (let i = buckets.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[buckets[i], buckets[j]] = [buckets[j]!, buckets[i]!]
  }
  return buckets
}

/** The `round`-th product (in key order) of each bucket, for consecutive slots of one round. */
async function dealRound(db: DbOrTx, round: number, buckets: { lo: number; hi: number }[]) {
  const slots = sql`unnest(${`{${buckets.map((b) => b.lo).join(',')}}`}::bigint[], ${`{${buckets.map((b) => b.hi).join(',')}}`}::bigint[]) with ordinality as slot(lo, hi, ord)`
  const pick = cardQuery(db)
    .where(and(retailVisible, sql`${products.shuffleKey} >= slot.lo and ${products.shuffleKey} < slot.hi`))
    .orderBy(asc(products.shuffleKey), asc(products.sku))
    .offset(round)
    .limit(1)
    .as('pick')
  return db
    .select({
      ord: sql<number>`slot.ord::int`.as('ord'),
      sku: pick.sku,
      name: pick.name,
      slug: pick.slug,
      price: pick.price,
      discountPercent: pick.discountPercent,
      available: pick.available,
      shuffleKey: pick.shuffleKey,
    })
    .from(slots)
    .crossJoinLateral(pick)
    .orderBy(sql`slot.ord`)
}

/**
 * Spec §2 "Seguro te gusta": every visible product once, in an order of its own for each visit.
 * Every product has a fixed random key. A seed shifts 65 key ranges and shuffles their order; the
 * visit deals like cards: the first product of each range in that order, then the second of each,
 * and so on. Slot `i` is the product of rank `i ÷ 65` in range `i mod 65` (if it has one), so the
 * cursor is one number and pages never repeat or skip a product. Each slot is one index probe that
 * skips `rank` entries of its range, so the first pages cost the same with any catalogue size and
 * only pages deep into a large one (rank in the hundreds) cost more. Two seeds give different
 * neighbours, not one order from another starting point.
 */
export async function listShuffledProducts(
  { db, publicBase }: MediaReads,
  cursor: ShuffleCursor,
  limit: number,
): Promise<{ items: ProductCard[]; next: string | null }> {
  const buckets = shuffleBuckets(cursor.seed)
  const perRound = buckets.length
  const found: { slot: number; row: ProductCardRow }[] = []
  let slot = cursor.slot ?? 0
  let probed = 0
  let hits = 0
  let roundHits = 0
  let wholeRound = slot % perRound === 0
  while (found.length <= limit) {
    const round = Math.floor(slot / perRound)
    const inRound = slot % perRound
    // Probe about as many slots as the page still needs, more when ranges have run dry.
    const want = limit + 1 - found.length
    const rate = probed ? Math.max(hits / probed, 0.05) : 1
    const count = Math.min(perRound - inRound, Math.max(4, Math.ceil(want / rate)))
    const rows = await dealRound(db, round, buckets.slice(inRound, inRound + count))
    for (const { ord, ...row } of rows) found.push({ slot: slot + ord - 1, row })
    probed += count
    hits += rows.length
    roundHits += rows.length
    slot += count
    if (slot % perRound === 0) {
      // A whole round with nothing: every range has run out, so later rounds are empty too.
      if (wholeRound && roundHits === 0) break
      wholeRound = true
      roundHits = 0
    }
  }
  const page = found.slice(0, limit).map((entry) => entry.row)
  const following = found[limit]
  return {
    items: (await withMainMedia(db, page)).map((row) => toCard(row, publicBase)),
    next: following ? encodeShuffleCursor({ seed: cursor.seed, slot: following.slot }) : null,
  }
}

/** Spec §2 category page, newest first. */
export async function listCategoryProducts(
  { db, publicBase }: MediaReads,
  categoryId: string,
  offset: number,
  limit: number,
): Promise<{ items: ProductCard[]; hasMore: boolean }> {
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(categoryId)) return { items: [], hasMore: false }
  // Walks products newest first (products_created_idx, hence "nulls last") and keeps those in the
  // category, so a page reads about `limit` rows instead of sorting the whole category.
  const rows = await cardQuery(db)
    .where(
      and(
        retailVisible,
        exists(
          db
            .select({ one: sql`1` })
            .from(productCategories)
            .where(
              and(
                eq(productCategories.productSku, products.sku),
                eq(productCategories.categoryId, categoryId),
              ),
            ),
        ),
      ),
    )
    .orderBy(sql`${products.createdAt} desc nulls last`, asc(products.sku))
    .offset(offset)
    .limit(limit + 1)
  const items = await withMainMedia(db, rows.slice(0, limit))
  return { items: items.map((row) => toCard(row, publicBase)), hasMore: rows.length > limit }
}

/**
 * Spec §5 search: case- and accent-insensitive substring of the name, visible products only, in
 * name order (which lets a common term stop after one page of an index).
 */
export async function searchProducts(
  { db, publicBase }: MediaReads,
  query: string,
  limit = 8,
  offset = 0,
): Promise<ProductCard[]> {
  const needle = normalizeSearchText(query)
  if (!needle) return []
  const rows = await cardQuery(db)
    .where(and(retailVisible, sql`${products.searchName} like ${containsPattern(needle)}`))
    .orderBy(sql`${products.searchName} collate "C"`, asc(products.sku))
    .offset(offset)
    .limit(limit)
  return (await withMainMedia(db, rows)).map((row) => toCard(row, publicBase))
}

export type ProductDetail = ProductCard & {
  description: string
  /** "SEO": the search result's title and description the owner wrote; null takes the defaults. */
  seoTitle: string | null
  seoDescription: string | null
  /** A personal-use good: no right of withdrawal, which the page tells the shopper before buying. */
  personalUse: boolean
  /** The JPEG link preview (og:image) of the first image that has one. */
  shareImage: ReturnType<typeof shareImage>
  media: ({ kind: 'image'; image: ImageSource } | { kind: 'video'; src: string })[]
  categories: { id: string; name: string; slug: string }[]
}

/** A product page; null when the sku is unknown or hidden from retail. */
export async function getProductDetail(
  { db, publicBase }: MediaReads,
  sku: string,
): Promise<ProductDetail | null> {
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(sku)) return null
  const [row] = await db
    .select({
      ...productCardColumns,
      ...mainMediaColumns,
      description: products.description,
      personalUse: products.personalUse,
      seoTitle: products.seoTitle,
      seoDescription: products.seoDescription,
    })
    .from(products)
    .leftJoin(media, mainMedia)
    .where(and(eq(products.sku, sku), eq(products.showRetail, true)))
  if (!row) return null
  const mediaRows = await db
    .select()
    .from(media)
    .where(eq(media.productSku, sku))
    .orderBy(desc(media.isMain), asc(media.position), asc(media.id))
  const categoryRows = await db
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(productCategories)
    .innerJoin(categories, eq(categories.id, productCategories.categoryId))
    .where(eq(productCategories.productSku, sku))
    .orderBy(asc(productCategories.position))
  return {
    ...toCard(row, publicBase),
    description: row.description,
    personalUse: row.personalUse,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    shareImage:
      mediaRows.flatMap((m) => (m.kind === 'image' ? [shareImage(m, publicBase)] : [])).find(Boolean) ?? null,
    media: mediaRows.map((m, index) =>
      m.kind === 'video'
        ? { kind: 'video' as const, src: mediaUrl(m.path, publicBase) }
        : { kind: 'image' as const, image: imageSource(m, `Slide ${index + 1}`, publicBase) },
    ),
    categories: categoryRows.map((category) => ({ ...category, slug: slugOf(category) })),
  }
}

/** Current data for the skus in a shopper's cart; unknown or hidden skus are left out. */
export async function getCartProducts(
  { db, publicBase }: MediaReads,
  skus: string[],
): Promise<ProductCard[]> {
  // A NUL is in no sku, and PostgreSQL would refuse the whole query for it.
  const unique = [...new Set(skus)].filter((sku) => !hasNul(sku)).slice(0, 100)
  if (!unique.length) return []
  const rows = await cardQuery(db).where(and(inArray(products.sku, unique), eq(products.showRetail, true)))
  return (await withMainMedia(db, rows)).map((row) => toCard(row, publicBase))
}

/**
 * Every page a search engine should know: visible products and all categories, each with its
 * slug; either list left unread when the "SEO" settings leave it out of the sitemap.
 */
export async function listSitemapEntries(
  db: DbOrTx,
  include: { products: boolean; categories: boolean } = { products: true, categories: true },
) {
  const productRows = include.products
    ? await db
        .select({
          sku: products.sku,
          name: products.name,
          slug: products.slug,
          updatedAt: products.updatedAt,
        })
        .from(products)
        .where(retailVisible)
        .orderBy(asc(products.sku))
    : []
  const categoryRows = include.categories
    ? await db
        .select({ id: categories.id, name: categories.name, slug: categories.slug })
        .from(categories)
        .orderBy(asc(categories.name))
    : []
  return {
    products: productRows.map((row) => ({ sku: row.sku, slug: slugOf(row), updatedAt: row.updatedAt })),
    categories: categoryRows.map((row) => ({ id: row.id, name: row.name, slug: slugOf(row) })),
  }
}
