import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { media, products } from '#app/modules/catalog/schema.ts'
import { pagePurchase } from '#app/modules/marketing/events.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { createPromotion } from '#tests/promotions.ts'
import { catalogFeedXml, readCatalogFeeds, readFeedProducts, type FeedDeps } from './feeds.server.ts'
import { LEFT_OUT_REASONS, type FeedItem, type FeedPlatform } from './feeds.ts'
import { feedItemsOf, feedProblems } from './xml-reader.test-helper.ts'

/**
 * The feeds read from the catalogue: prices as the storefront shows them (own discount, running
 * promotions with their dates), availability, images at the public origin, what is left out and
 * why, and both platforms' required fields on every item of the XML.
 */

const t = setupTestDatabase()
const ORIGIN = 'https://tienda.example.co'
let deps: FeedDeps

beforeAll(() => {
  deps = { reads: t.reads, shop: { name: 'Vitrina Accesorios', origin: ORIGIN } }
})

/** One moment inside the scheduled promotions below (January 2030). */
const IN_JANUARY = new Date('2030-01-10T17:00:00Z')
const bogota = (day: string) => new Date(`${day}T05:00:00Z`)

async function itemOf(platform: FeedPlatform, sku: string, now?: Date): Promise<FeedItem | undefined> {
  const feeds = await readCatalogFeeds(deps, now)
  return feeds[platform].items.find((item) => item.id === sku)
}

describe('prices', () => {
  test('level 1 is the price; no sale price when nothing lowers it', async () => {
    const product = await createProduct(t.db, { pesos: 45_000 })
    const item = await itemOf('google', product.sku)
    expect(item).toMatchObject({ price: '45000.00 COP' })
    expect(item).not.toHaveProperty('sale_price')
  })

  test("the product's own discount gives a sale price without dates", async () => {
    const product = await createProduct(t.db, { pesos: 50_000, discountPercent: 20 })
    const item = await itemOf('meta', product.sku)
    expect(item).toMatchObject({ price: '50000.00 COP', sale_price: '40000.00 COP' })
    expect(item).not.toHaveProperty('sale_price_effective_date')
  })

  test('a scheduled promotion gives its shelf price, from its start to its end', async () => {
    const product = await createProduct(t.db, { pesos: 50_000 })
    await createPromotion(t.db, {
      benefit: 'set_discount',
      target: 'products',
      percent: 30,
      productSkus: [product.sku],
      startsAt: bogota('2030-01-01'),
      endsAt: bogota('2030-01-31'),
    })
    expect(await itemOf('google', product.sku, IN_JANUARY)).toMatchObject({
      price: '50000.00 COP',
      sale_price: '35000.00 COP',
      sale_price_effective_date: '2030-01-01T00:00:00-05:00/2030-01-31T00:00:00-05:00',
    })
    // Before it starts and after it ends, level 1 again.
    for (const now of [new Date('2029-12-31T12:00:00Z'), new Date('2030-02-01T12:00:00Z')]) {
      expect(await itemOf('google', product.sku, now)).not.toHaveProperty('sale_price')
    }
  })

  test('a promotion over a category, on top of the own discount; after it ends the own discount stays', async () => {
    const category = await createCategory(t.db, { name: 'Aretes' })
    const product = await createProduct(t.db, {
      pesos: 50_000,
      discountPercent: 10,
      categoryIds: [category.id],
    })
    await createPromotion(t.db, {
      benefit: 'set_discount',
      target: 'products',
      percent: 30,
      categoryIds: [category.id],
      startsAt: bogota('2030-01-05'),
      endsAt: bogota('2030-01-25'),
    })
    expect(await itemOf('meta', product.sku, IN_JANUARY)).toMatchObject({
      sale_price: '35000.00 COP',
      sale_price_effective_date: '2030-01-05T00:00:00-05:00/2030-01-25T00:00:00-05:00',
      product_type: 'Aretes',
    })
    const after = await itemOf('meta', product.sku, new Date('2030-01-26T12:00:00Z'))
    expect(after).toMatchObject({ sale_price: '45000.00 COP' })
    expect(after).not.toHaveProperty('sale_price_effective_date')
  })

  test('two promotions giving the same price: it holds until the later one ends', async () => {
    const product = await createProduct(t.db, { pesos: 20_000 })
    for (const [starts, ends] of [
      ['2030-01-01', '2030-01-20'],
      ['2030-01-03', '2030-01-31'],
    ] as const) {
      await createPromotion(t.db, {
        benefit: 'percent',
        target: 'products',
        percent: 25,
        productSkus: [product.sku],
        startsAt: bogota(starts),
        endsAt: bogota(ends),
      })
    }
    expect(await itemOf('google', product.sku, IN_JANUARY)).toMatchObject({
      sale_price: '15000.00 COP',
      sale_price_effective_date: '2030-01-01T00:00:00-05:00/2030-01-31T00:00:00-05:00',
    })
  })

  test('a promotion without an end: a sale price without dates', async () => {
    const product = await createProduct(t.db, { pesos: 10_000 })
    await createPromotion(t.db, {
      benefit: 'percent',
      target: 'products',
      percent: 50,
      productSkus: [product.sku],
      startsAt: bogota('2030-01-01'),
    })
    const item = await itemOf('google', product.sku, IN_JANUARY)
    expect(item).toMatchObject({ sale_price: '5000.00 COP' })
    expect(item).not.toHaveProperty('sale_price_effective_date')
  })

  test('the price is the storefront card\'s: a code-only or "lleve N pague M" promotion changes nothing', async () => {
    const product = await createProduct(t.db, { pesos: 30_000 })
    await createPromotion(t.db, { code: 'FEED10', target: 'products', productSkus: [product.sku] })
    await createPromotion(t.db, {
      benefit: 'buy_x_pay_y',
      target: 'products',
      productSkus: [product.sku],
      buyQuantity: 3,
      payQuantity: 2,
    })
    const [read] = (await readFeedProducts(t.reads, ORIGIN)).filter((row) => row.sku === product.sku)
    expect(read).toMatchObject({ listPrice: 3_000_000, price: 3_000_000, saleWindow: null })
  })
})

describe('availability and images', () => {
  test('in stock while units are left after reservations', async () => {
    const some = await createProduct(t.db, { stock: 3, reserved: 2 })
    const reserved = await createProduct(t.db, { stock: 2, reserved: 2 })
    const none = await createProduct(t.db, { stock: 0 })
    expect((await itemOf('meta', some.sku))?.availability).toBe('in stock')
    expect((await itemOf('meta', reserved.sku))?.availability).toBe('out of stock')
    expect((await itemOf('google', none.sku))?.availability).toBe('out_of_stock')
  })

  test('images at the public origin: Meta the JPEG preview when there is one, Google the largest WebP', async () => {
    const plain = await createProduct(t.db)
    expect((await itemOf('google', plain.sku))?.image_link).toBe(
      `${ORIGIN}/media/products/${plain.sku}-640.webp`,
    )
    expect((await itemOf('meta', plain.sku))?.image_link).toBe(
      `${ORIGIN}/media/products/${plain.sku}-640.webp`,
    )

    const shared = await createProduct(t.db, { withImage: false })
    // The main file is a video: the gallery's first image is the feed's.
    await t.db.insert(media).values([
      { productSku: shared.sku, kind: 'video', mimeType: 'video/mp4', path: 'products/v.mp4', isMain: true },
      {
        productSku: shared.sku,
        kind: 'image',
        mimeType: 'image/webp',
        path: 'products/s-1280.webp',
        position: 1,
        variants: [
          { width: 1280, height: 1280, path: 'products/s-1280.webp' },
          { width: 320, height: 320, path: 'products/s-320.webp' },
          { width: 1200, height: 630, path: 'products/s-share.jpg' },
        ],
      },
    ])
    expect((await itemOf('google', shared.sku))?.image_link).toBe(`${ORIGIN}/media/products/s-1280.webp`)
    expect((await itemOf('meta', shared.sku))?.image_link).toBe(`${ORIGIN}/media/products/s-share.jpg`)
  })
})

describe('left out', () => {
  test('each product the feeds cannot list, with why, computed with the feed itself', async () => {
    const wholesale = await createProduct(t.db, { showRetail: false, showWholesale: true })
    const hidden = await createProduct(t.db, { showRetail: false })
    const noImage = await createProduct(t.db, { withImage: false })
    const videoOnly = await createProduct(t.db, { withImage: false })
    await t.db.insert(media).values({
      productSku: videoOnly.sku,
      kind: 'video',
      mimeType: 'video/mp4',
      path: 'v.mp4',
      isMain: true,
    })
    const noPrice = await createProduct(t.db, { pesos: 0 })
    const free = await createProduct(t.db, { discountPercent: 100 })
    const longSku = await createProduct(t.db, { sku: `LARGO-${'X'.repeat(50)}` })

    const feeds = await readCatalogFeeds(deps)
    const reasons = (platform: FeedPlatform) =>
      Object.fromEntries(feeds[platform].leftOut.map((product) => [product.sku, product.reasons]))
    expect(reasons('google')).toMatchObject({
      [wholesale.sku]: [LEFT_OUT_REASONS.wholesale],
      [hidden.sku]: [LEFT_OUT_REASONS.hidden],
      [noImage.sku]: [LEFT_OUT_REASONS.noImage],
      [videoOnly.sku]: [LEFT_OUT_REASONS.noImage],
      [noPrice.sku]: [LEFT_OUT_REASONS.noPrice],
      [free.sku]: [LEFT_OUT_REASONS.freePrice],
      [longSku.sku]: ['SKU de más de 50 caracteres'],
    })
    expect(reasons('meta')).not.toHaveProperty(longSku.sku)
    // A product is either in the feed or left out, never both, never neither.
    const all = await t.db.select({ sku: products.sku }).from(products)
    for (const platform of ['meta', 'google'] as const) {
      const listed = feeds[platform].items.map((item) => item.id)
      const left = feeds[platform].leftOut.map((product) => product.sku)
      expect([...listed, ...left].sort()).toEqual(all.map((row) => row.sku).sort())
    }
    // And the XML the URL serves holds exactly the listed items.
    for (const platform of ['meta', 'google'] as const) {
      const items = feedItemsOf(await catalogFeedXml(deps, platform))
      expect(items.map((item) => item.id)).toEqual(feeds[platform].items.map((item) => item.id))
    }
  })
})

describe('the feeds as the platforms read them', () => {
  test("every item's id is the sku, the content id the pixel and the Conversions API send", async () => {
    const product = await createProduct(t.db, { sku: 'COL-GEN-PIXEL001' })
    const item = await itemOf('meta', product.sku)
    // AddToCart sends `content_ids: [product.sku]` (cart-store.ts); Purchase the order lines' skus.
    const purchase = pagePurchase({
      number: 1,
      status: 'pendiente de pago',
      paymentMethod: 'acordar',
      createdAt: new Date(),
      total: 100,
      items: [{ productSku: product.sku, quantity: 1 }],
    })
    expect(item?.id).toBe(purchase?.data.content_ids[0])
    expect((await itemOf('google', product.sku))?.id).toBe(product.sku)
  })

  test('valid against each platform: required fields and formats on every item, with hostile text', async () => {
    await createProduct(t.db, {
      sku: 'TST-A&B',
      name: `Collar "Luna" & <Sol> 'Plata' 💎\u0001\u007f`,
      description: '<p>Hermoso&nbsp;collar</p>\u0008 & más',
      discountPercent: 15,
    })
    await createProduct(t.db, { description: '' })
    await createProduct(t.db, { name: 'N'.repeat(120), description: 'D'.repeat(5000), stock: 0 })
    await createPromotion(t.db, {
      benefit: 'percent',
      target: 'order',
      percent: 5,
      startsAt: bogota('2030-01-01'),
      endsAt: bogota('2030-01-15'),
    })
    for (const now of [new Date(), IN_JANUARY]) {
      for (const platform of ['meta', 'google'] as const) {
        const items = feedItemsOf(await catalogFeedXml(deps, platform, now))
        expect(items.length).toBeGreaterThan(10)
        expect(feedProblems(platform, items)).toEqual([])
        const hostile = items.find((item) => item.id === 'TST-A&B')
        expect(hostile).toMatchObject({
          title: `Collar "Luna" & <Sol> 'Plata' 💎`,
          description: 'Hermoso collar\n& más',
          link: `${ORIGIN}/producto/TST-A%26B/collar-luna-sol-plata`,
          brand: 'Vitrina Accesorios',
        })
      }
    }
  })

  test('a change to the catalogue shows in the next read', async () => {
    const product = await createProduct(t.db, { name: 'Pulsera Sol', pesos: 20_000 })
    expect(await itemOf('google', product.sku)).toMatchObject({ title: 'Pulsera Sol', price: '20000.00 COP' })
    await t.db
      .update(products)
      .set({ name: 'Pulsera Sol Dorada', priceLevel1: 2_500_000, stock: 0 })
      .where(eq(products.sku, product.sku))
    expect(await itemOf('google', product.sku)).toMatchObject({
      title: 'Pulsera Sol Dorada',
      price: '25000.00 COP',
      availability: 'out_of_stock',
    })
  })
})
