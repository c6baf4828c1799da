import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import type { MediaVariant } from '#app/modules/media/variants.ts'
import { VAT_RATES } from '#app/utils/vat.ts'

export const categories = pgTable('categories', {
  id: text().primaryKey(),
  name: text().notNull(),
  imageMediaId: integer(),
  /** "SEO": the readable part of its URL beside the id; null follows the name (`slugOf`, slug.ts). */
  slug: text(),
  /** "SEO": the search result's title and description; null takes the defaults (seo.ts). */
  seoTitle: text(),
  seoDescription: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/** Money columns are integer centavos. `searchName` is the name lowercased and without accents. */
export const products = pgTable(
  'products',
  {
    sku: text().primaryKey(),
    name: text().notNull(),
    searchName: text().notNull(),
    description: text().notNull().default(''),
    cost: integer().notNull().default(0),
    priceLevel1: integer().notNull().default(0),
    priceLevel2: integer().notNull().default(0),
    priceLevel3: integer().notNull().default(0),
    priceLevel4: integer().notNull().default(0),
    priceLevel5: integer().notNull().default(0),
    discountPercent: integer().notNull().default(0),
    purchaseLink: text(),
    supplierInfo: text(),
    showWholesale: boolean().notNull().default(false),
    showRetail: boolean().notNull().default(true),
    /** IVA on its invoices (`VAT_RATES`); null follows the shop's default ("Configuraciones"). */
    vat: text({ enum: VAT_RATES }),
    /**
     * A personal-use good (earrings, say): Ley 1480, art. 47 lets the shop exclude it from the
     * right of withdrawal, as long as the shopper is told before buying (the product page says so).
     */
    personalUse: boolean().notNull().default(false),
    /**
     * "SEO": the readable part of its URL beside the SKU (`/producto/{sku}/{slug}`); null follows
     * the name (`slugOf`, slug.ts) until the product is saved from its form, which keeps it.
     */
    slug: text(),
    /** "SEO": the search result's title and description; null takes the defaults (seo.ts). */
    seoTitle: text(),
    seoDescription: text(),
    /**
     * The packed item for carriers' quotes and guías: grams and centimetres; null takes the shop's
     * default package ("Configuraciones", "Envíos con transportadora").
     */
    weightGrams: integer(),
    lengthCm: integer(),
    widthCm: integer(),
    heightCm: integer(),
    stock: integer().notNull().default(0),
    reserved: integer().notNull().default(0),
    unitsIn: integer().notNull().default(0),
    unitsOut: integer().notNull().default(0),
    /** A fixed random permutation key: "Seguro te gusta" walks it from a random start. */
    shuffleKey: integer()
      .notNull()
      .default(sql`floor(random() * 2147483647)::int`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('products_retail_shuffle_idx')
      .on(t.shuffleKey)
      .where(sql`${t.showRetail} and ${t.stock} > ${t.reserved}`),
    index('products_retail_best_sellers_idx')
      .on(t.unitsOut.desc(), t.sku)
      .where(sql`${t.showRetail} and ${t.stock} > ${t.reserved}`),
    index('products_created_idx').on(t.createdAt.desc(), t.sku),
    // Search results come in name order: a common term walks this index and stops after one page;
    // a rare one is found through the trigram index below. Either way the work does not grow
    // with the catalogue.
    index('products_retail_search_order_idx')
      .on(sql`${t.searchName} collate "C"`, t.sku)
      .where(sql`${t.showRetail} and ${t.stock} > ${t.reserved}`),
    // `search_name like '%…%'` uses this (pg_trgm, migration 0001) instead of scanning every name.
    index('products_search_name_trgm_idx').using('gin', t.searchName.op('gin_trgm_ops')),
    check('products_stock_not_negative', sql`${t.stock} >= 0`),
    check('products_reserved_within_stock', sql`${t.reserved} >= 0 and ${t.reserved} <= ${t.stock}`),
    check('products_discount_percent_range', sql`${t.discountPercent} between 0 and 100`),
    check(
      'products_package_positive',
      sql`coalesce(${t.weightGrams}, 1) > 0 and coalesce(${t.lengthCm}, 1) > 0 and coalesce(${t.widthCm}, 1) > 0 and coalesce(${t.heightCm}, 1) > 0`,
    ),
    check(
      'products_vat_rate',
      sql`${t.vat} in (${sql.raw(VAT_RATES.map((rate) => `'${rate}'`).join(', '))})`,
    ),
  ],
)

export const productCategories = pgTable(
  'product_categories',
  {
    productSku: text()
      .notNull()
      .references(() => products.sku, { onDelete: 'cascade', onUpdate: 'cascade' }),
    categoryId: text()
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.productSku, t.categoryId] }),
    index('product_categories_category_idx').on(t.categoryId, t.productSku),
  ],
)

/** Files of a product or category: images with WebP variants, or videos. */
export const media = pgTable(
  'media',
  {
    id: serial().primaryKey(),
    productSku: text().references(() => products.sku, { onDelete: 'cascade', onUpdate: 'cascade' }),
    kind: text({ enum: ['image', 'video'] }).notNull(),
    /** Storage path of the original (video) or of the largest variant (image). */
    path: text().notNull(),
    mimeType: text().notNull(),
    width: integer(),
    height: integer(),
    variants: jsonb().$type<MediaVariant[]>().notNull().default([]),
    position: integer().notNull().default(0),
    isMain: boolean().notNull().default(false),
    alt: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('media_product_idx').on(t.productSku, t.position),
    uniqueIndex('media_one_main_per_product_idx')
      .on(t.productSku)
      .where(sql`${t.isMain}`),
  ],
)

/**
 * Files a product should have that never reached storage: an import could not download one, or
 * what it downloaded was no usable image or video. They are never shown in the shop (its pages
 * load media from this shop only, and the address may be internal or carry a password); the
 * product's edit page lists them so the owner can upload them again, until dismissed.
 */
export const missingMedia = pgTable(
  'missing_media',
  {
    id: serial().primaryKey(),
    productSku: text()
      .notNull()
      .references(() => products.sku, { onDelete: 'cascade', onUpdate: 'cascade' }),
    kind: text({ enum: ['image', 'video'] }).notNull(),
    /** The original address without `user:password@`. */
    url: text().notNull(),
    /** Why it could not be brought, in Spanish; null for those older imports left as addresses. */
    reason: text(),
    /** Its place among the product's files in the original shop. */
    position: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('missing_media_product_idx').on(t.productSku, t.position)],
)
