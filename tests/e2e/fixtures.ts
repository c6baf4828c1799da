import sharp from 'sharp'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { media, products } from '#app/modules/catalog/schema.ts'
import { recordEntry } from '#app/modules/inventory/movement.server.ts'
import { promotions } from '#app/modules/promotions/schema.ts'
import { banners } from '#app/modules/settings/schema.ts'
import { createCategory, createProduct } from '../factories.ts'

/** Products with known skus and names that the browser tests rely on, beside the demo data. */
export const FIXTURES = {
  category: { id: 'Categoria_E2E', name: 'Pruebas E2E', slug: 'pruebas-e2e' },
  emptyCategory: { id: 'Categoria_VACIA', name: 'Vacía', slug: 'vacia' },
  /** Enough products to page through: 20 first, then 10 more, then the rest. */
  bulkCategory: { id: 'Categoria_MUCHOS', name: 'Muchos E2E', slug: 'muchos-e2e', products: 34 },
  /** Retail-visible, 3 units, 20 % off 80.000. */
  discounted: {
    sku: 'COL-E2E-DESCUENT',
    name: 'Collar Corazón de Prueba',
    pesos: 80000,
    discountPercent: 20,
    stock: 3,
  },
  /** Retail-visible but with no units: its page says "Agotado". */
  soldOut: { sku: 'ARE-E2E-AGOTADO1', name: 'Aretes Agotados de Prueba', pesos: 30000, stock: 0 },
  /** Has stock but hidden from retail: a 404 for shoppers. */
  hidden: { sku: 'PUL-E2E-OCULTO01', name: 'Pulsera Oculta de Prueba', pesos: 40000, showRetail: false },
  /** Exactly one unit: adding a second is refused. */
  single: { sku: 'ANI-E2E-UNICO001', name: 'Anillo Único de Prueba', pesos: 120000, stock: 1 },
  /** A name of exactly 14 characters is shown whole; no discount, so no badge. */
  shortName: { sku: 'DIJ-E2E-CORTO001', name: 'Dije Luna Azul', pesos: 30000, stock: 5 },
  /** No units, cost or movements, in no category and hidden from the store (its stock changes): the
   * stock forms' own product. */
  stockMoves: {
    sku: 'TOB-E2E-MOVIMI01',
    name: 'Tobillera Kardex de Prueba',
    pesos: 45000,
    stock: 0,
    cost: 0,
    showRetail: false,
  },
  /** Stocked through inventory (ledger and location), for the order desk's shipping and returns;
   * named apart from the "de prueba" products the search tests look for. */
  deskShipped: { sku: 'COL-E2E-DESPACHO', name: 'Collar Despacho Mostrador', pesos: 50000, stock: 6 },
  deskCancelled: { sku: 'COL-E2E-DEVUELTO', name: 'Collar Devuelto Mostrador', pesos: 40000, stock: 6 },
  /** In no category, below the free-shipping threshold: the settings test orders it. */
  shippingSettings: { sku: 'COL-E2E-ENVIO001', name: 'Collar Envío Configurable', pesos: 30000, stock: 5 },
  /** In no category: the Meta Pixel test's cash-on-delivery order holds a unit of it, no one else's. */
  metaPurchase: { sku: 'ARE-E2E-PIXEL001', name: 'Aretes Píxel Compra', pesos: 30000, stock: 5 },
  /** "SEO": the owner changes its title, description and slug (admin-seo.test.ts), in a category of its own. */
  seoCategory: { id: 'Categoria_SEO_E2E', name: 'Enlaces E2E', slug: 'enlaces-e2e' },
  seoProduct: {
    sku: 'COL-E2E-SEOURL01',
    name: 'Collar Enlace Legible',
    description: 'Collar de prueba para los enlaces legibles y la vista previa de Google.',
    pesos: 52000,
    stock: 4,
  },
} as const

/** The fixture products' skus: tests that pick "any product" leave these to the tests that rely on them. */
export const FIXTURE_SKUS: ReadonlySet<string> = new Set(
  Object.values(FIXTURES).flatMap((fixture) => ('sku' in fixture ? [fixture.sku as string] : [])),
)

/** Where the order desk's fixtures are kept. */
export const DESK_LOCATION = 'P9-C1-A1-E1-X1-Y1-Z1'

/** The shop settings the test server runs with (see global-setup). */
export const STORE = {
  whatsappNumber: '573009998877',
  /** A non-zero shipping cost, so the cart shows both a paid and a free shipping. */
  shippingCost: 8000,
  freeShippingThreshold: 100000,
  sellerLegalName: 'Accesorios de Prueba S.A.S.',
  sellerNit: '900.111.222-3',
  sellerEmail: 'ventas@pruebas.example',
  sellerAddress: 'Carrera 7 # 8-90, Bogotá D.C.',
  deliveryTime: 'Entrega de 2 a 4 días hábiles en todo el país.',
} as const

/** A third home banner, a video (the demo clip the global setup stores), after the two images. */
export const VIDEO_BANNER = { alt: 'Video de la colección', path: 'products/demo-collar.webm', position: 2 }

export const BULK_NAME = (n: number) => `Pieza Serie ${String(n).padStart(2, '0')}`

export async function createE2EFixtures(db: Db, mediaStorage: MediaStorage) {
  await createCategory(db, FIXTURES.category)
  await createCategory(db, FIXTURES.emptyCategory)
  await createCategory(db, { id: FIXTURES.bulkCategory.id, name: FIXTURES.bulkCategory.name })
  await createCategory(db, FIXTURES.seoCategory)
  const categoryIds = [FIXTURES.category.id]
  await createProduct(db, { ...FIXTURES.discounted, categoryIds, withImage: false })
  await createProduct(db, { ...FIXTURES.soldOut, categoryIds, withImage: false })
  await createProduct(db, { ...FIXTURES.hidden, categoryIds, withImage: false })
  await createProduct(db, { ...FIXTURES.single, categoryIds, withImage: false })
  await createProduct(db, { ...FIXTURES.shortName, categoryIds, withImage: false })
  await createProduct(db, { ...FIXTURES.stockMoves, withImage: false })
  await createProduct(db, { ...FIXTURES.shippingSettings, withImage: false })
  await createProduct(db, { ...FIXTURES.metaPurchase, withImage: false })
  // With an image: its edit form saves without one to upload. Its files are stored too, since
  // storefront pages that list it (a search for "collar") load them.
  await createProduct(db, { ...FIXTURES.seoProduct, categoryIds: [FIXTURES.seoCategory.id] })
  for (const size of [320, 640]) {
    const image = await sharp({ create: { width: size, height: size, channels: 3, background: '#d4a017' } })
      .webp()
      .toBuffer()
    await mediaStorage.put(`products/${FIXTURES.seoProduct.sku}-${size}.webp`, image, 'image/webp')
  }
  for (const { stock, ...product } of [FIXTURES.deskShipped, FIXTURES.deskCancelled]) {
    await createProduct(db, { ...product, stock: 0, cost: 0, withImage: false })
    await recordEntry(
      db,
      recordingJobQueue(),
      {
        sku: product.sku,
        quantity: stock,
        unitCost: 15_000_00,
        location: DESK_LOCATION,
        receipt: 'E2E',
        note: '',
      },
      'sistema',
    )
  }
  const [video] = await db
    .insert(media)
    .values({ kind: 'video', mimeType: 'video/webm', path: VIDEO_BANNER.path, variants: [] })
    .returning({ id: media.id })
  await db.insert(banners).values({
    kind: 'video',
    position: VIDEO_BANNER.position,
    alt: VIDEO_BANNER.alt,
    desktopMediaId: video!.id,
  })
  for (let n = 1; n <= FIXTURES.bulkCategory.products; n++) {
    await createProduct(db, {
      sku: `PIE-E2E-SERIE${String(n).padStart(3, '0')}`,
      name: BULK_NAME(n),
      pesos: 20000,
      stock: 5,
      categoryIds: [FIXTURES.bulkCategory.id],
      withImage: false,
    })
  }
}

/** What the shop holds, read from the database before the server starts, for expectations. */
export type CatalogFacts = {
  /** Every product a shopper may see in lists, with its units out. */
  visible: { sku: string; name: string; unitsOut: number }[]
  /** Products that must never appear in lists: hidden from retail or without stock. */
  unlisted: string[]
  /** The demo product whose gallery has a video. */
  videoSku: string
}

export async function readCatalogFacts(db: Db): Promise<CatalogFacts> {
  const visibleRule = sql`${products.showRetail} and ${products.stock} > ${products.reserved}`
  const visible = await db
    .select({ sku: products.sku, name: products.name, unitsOut: products.unitsOut })
    .from(products)
    .where(visibleRule)
    .orderBy(asc(products.sku))
  const unlisted = await db
    .select({ sku: products.sku })
    .from(products)
    .where(sql`not (${visibleRule})`)
  const [video] = await db
    .select({ sku: media.productSku })
    .from(media)
    .innerJoin(products, eq(products.sku, media.productSku))
    .where(and(eq(media.kind, 'video'), eq(products.showRetail, true), gt(products.stock, 0)))
  if (!video?.sku) throw new Error('Los datos de demostración no tienen un producto con video.')
  return { visible, unlisted: unlisted.map((row) => row.sku), videoSku: video.sku }
}

/**
 * "Descuentos y Promociones" in the storefront (promotions-storefront.test.ts): products and a
 * category no other test uses, so the promotions on them change no other test's prices; codes
 * unique to that test. In FIXTURES' skus' set too, so tests that buy "any product" leave them.
 */
export const PROMO_FIXTURES = {
  category: { id: 'Categoria_PROMO_E2E', name: 'Promociones E2E' },
  /** In the category: an automatic 25 % ("Aniversario E2E") that cards and its page show. */
  automatic: { sku: 'COL-E2E-PROMOAUT', name: 'Collar Aniversario Promo', pesos: 60000, stock: 40 },
  /** "Lleve 3 pague 2" ("3x2 Aretes E2E"). */
  threeForTwo: { sku: 'ARE-E2E-PROMO3X2', name: 'Aretes Tres por Dos', pesos: 20000, stock: 60 },
  /** Only discount codes cover it: `code` takes 10 % off it; `expired` ended yesterday. */
  coded: { sku: 'PUL-E2E-PROMOCOD', name: 'Pulsera Cupón Promo', pesos: 50000, stock: 60 },
  code: { code: 'E2EPULSERA10', name: 'Cupón Pulsera' },
  expired: { code: 'E2EVENCIDO', name: 'Cupón Vencido' },
} as const

for (const fixture of [PROMO_FIXTURES.automatic, PROMO_FIXTURES.threeForTwo, PROMO_FIXTURES.coded])
  (FIXTURE_SKUS as Set<string>).add(fixture.sku)

/**
 * "Descuentos y Promociones" from creation to a paid order (promotions-flow.test.ts): one product
 * per width and kind of promotion, which only that test buys and covers with promotions it makes.
 */
export const FLOW_FIXTURES = {
  phone: {
    code: { sku: 'COL-E2E-FLUJOCT', name: 'Collar Flujo Código Tel', pesos: 40000, stock: 20 },
    automatic: { sku: 'COL-E2E-FLUJOAT', name: 'Collar Flujo Auto Tel', pesos: 40000, stock: 20 },
  },
  desktop: {
    code: { sku: 'COL-E2E-FLUJOCE', name: 'Collar Flujo Código Esc', pesos: 40000, stock: 20 },
    automatic: { sku: 'COL-E2E-FLUJOAE', name: 'Collar Flujo Auto Esc', pesos: 40000, stock: 20 },
  },
} as const

for (const width of Object.values(FLOW_FIXTURES))
  for (const fixture of Object.values(width)) (FIXTURE_SKUS as Set<string>).add(fixture.sku)

/** The promotion fixtures, written before the server starts (the admin pages are not needed). */
export async function createE2EPromotions(db: Db) {
  const { category, automatic, threeForTwo, coded, code, expired } = PROMO_FIXTURES
  for (const width of Object.values(FLOW_FIXTURES))
    for (const fixture of Object.values(width)) await createProduct(db, { ...fixture, withImage: false })
  await createCategory(db, category)
  await createProduct(db, { ...automatic, categoryIds: [category.id], withImage: false })
  await createProduct(db, { ...threeForTwo, withImage: false })
  await createProduct(db, { ...coded, withImage: false })
  await db.insert(promotions).values([
    {
      name: 'Aniversario E2E',
      benefit: 'set_discount',
      target: 'products',
      percent: 25,
      categoryIds: [category.id],
    },
    {
      name: '3x2 Aretes E2E',
      benefit: 'buy_x_pay_y',
      target: 'products',
      buyQuantity: 3,
      payQuantity: 2,
      productSkus: [threeForTwo.sku],
    },
    {
      name: code.name,
      code: code.code,
      benefit: 'percent',
      target: 'products',
      percent: 10,
      productSkus: [coded.sku],
    },
    {
      name: expired.name,
      code: expired.code,
      benefit: 'percent',
      target: 'products',
      percent: 10,
      productSkus: [coded.sku],
      endsAt: new Date(Date.now() - 86_400_000),
    },
  ])
}
