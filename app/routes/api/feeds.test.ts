import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { products } from '#app/modules/catalog/schema.ts'
import { FEED_CONTENT_TYPE } from '#app/modules/feeds/feeds.ts'
import { feedItemsOf, feedProblems } from '#app/modules/feeds/xml-reader.test-helper.ts'
import { SHARED_CACHE_CONTROL } from '#app/modules/page-cache/page-cache.server.ts'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { memoryStorage } from '#tests/media.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import * as googleFeed from './feed-google.ts'
import * as metaFeed from './feed-meta.ts'

/**
 * /catalogo/meta.xml and /catalogo/google.xml: XML at stable addresses, with the storefront pages'
 * caching headers, the shop's name and public origin from the registry, valid for each platform,
 * and read fresh (a catalogue change is in the next answer).
 */

const PUBLIC_URL = 'https://tienda.example.co'
const t = setupTestDatabase()
let services: Services

beforeAll(() => {
  services = testServices({
    database: t.database,
    env: parseEnv({ PUBLIC_URL, STORE_NAME: 'Bisutería Luna' }),
    media: { kind: 'local', storage: memoryStorage(), publicBase: '/media/' },
  })
})

const ROUTES = [
  { platform: 'meta', path: '/catalogo/meta.xml', route: metaFeed },
  { platform: 'google', path: '/catalogo/google.xml', route: googleFeed },
] as const

async function fetchFeed(route: (typeof ROUTES)[number]['route'], path: string): Promise<Response> {
  const request = new Request(`${PUBLIC_URL}${path}`)
  return route.loader({
    request,
    url: new URL(request.url),
    params: {},
    context: routeContext(services),
  } as never)
}

describe.each(ROUTES)('$path', ({ platform, path, route }) => {
  test('XML in UTF-8, cached like a storefront page, valid for the platform', async () => {
    const product = await createProduct(t.db, { name: 'Aretes Sol & Luna', pesos: 32_000 })
    const noImage = await createProduct(t.db, { withImage: false })
    const response = await fetchFeed(route, path)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe(FEED_CONTENT_TYPE)
    expect(FEED_CONTENT_TYPE).toBe('application/xml; charset=utf-8')
    expect(response.headers.get('Cache-Control')).toBe(SHARED_CACHE_CONTROL)
    const body = await response.text()
    expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
    const items = feedItemsOf(body)
    expect(feedProblems(platform, items)).toEqual([])
    // Only products it can list: the one without an image is left out.
    expect(items.map((item) => item.id)).not.toContain(noImage.sku)
    expect(items.find((item) => item.id === product.sku)).toMatchObject({
      title: 'Aretes Sol & Luna',
      price: '32000.00 COP',
      brand: 'Bisutería Luna',
      link: `${PUBLIC_URL}/producto/${product.sku}/aretes-sol-luna`,
      image_link: `${PUBLIC_URL}/media/products/${product.sku}-640.webp`,
    })
  })

  test('a change to a product is in the next request', async () => {
    const product = await createProduct(t.db, { name: 'Anillo Mar', pesos: 18_000 })
    const before = feedItemsOf(await (await fetchFeed(route, path)).text())
    expect(before.find((item) => item.id === product.sku)).toMatchObject({ price: '18000.00 COP' })
    await t.db
      .update(products)
      .set({ priceLevel1: 1_500_000, discountPercent: 0, stock: 0 })
      .where(eq(products.sku, product.sku))
    const after = feedItemsOf(await (await fetchFeed(route, path)).text())
    expect(after.find((item) => item.id === product.sku)).toMatchObject({
      price: '15000.00 COP',
      availability: platform === 'google' ? 'out_of_stock' : 'out of stock',
    })
    // Hidden from the shop: gone from the feed at once.
    await t.db.update(products).set({ showRetail: false }).where(eq(products.sku, product.sku))
    const hidden = feedItemsOf(await (await fetchFeed(route, path)).text())
    expect(hidden.map((item) => item.id)).not.toContain(product.sku)
  })
})

test('images kept on a CDN keep its address', async () => {
  const cdn = testServices({
    database: t.database,
    env: parseEnv({ PUBLIC_URL }),
    media: { kind: 's3', storage: memoryStorage(), publicBase: 'https://cdn.example.co/vitrina/' },
  })
  const product = await createProduct(t.db)
  const request = new Request(`${PUBLIC_URL}/catalogo/google.xml`)
  const response = await googleFeed.loader({
    request,
    url: new URL(request.url),
    params: {},
    context: routeContext(cdn),
  } as never)
  const items = feedItemsOf(await response.text())
  expect(items.find((item) => item.id === product.sku)?.image_link).toBe(
    `https://cdn.example.co/vitrina/products/${product.sku}-640.webp`,
  )
})
