import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { categories, products } from '#app/modules/catalog/schema.ts'
import { saveSeoSettings } from '#app/modules/settings/seo-settings.server.ts'
import type { Services } from '#app/services.server.ts'
import { CANONICAL_REDIRECT_CACHE_CONTROL } from '#app/utils/canonical.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { createPromotion } from '#tests/promotions.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import * as categoryRoute from './category.tsx'
import * as home from './home.tsx'
import * as productRoute from './product.tsx'

/**
 * "SEO": product and category pages are keyed by SKU or id, with a slug beside it. The canonical
 * URL answers the page; a missing or old slug answers a 301 to it (old links keep working), with
 * the query kept; the page's tags and structured data say the canonical URL.
 */

const ORIGIN = 'https://tienda.example.co'
const t = setupTestDatabase()
let services: Services

beforeAll(() => {
  services = testServices({
    database: t.database,
    env: parseEnv({ PUBLIC_URL: ORIGIN, STORE_NAME: 'Luna Bisutería' }),
  })
})

const layoutMatch = {
  id: 'routes/tienda/layout',
  data: { store: { storeName: 'Luna Bisutería', publicUrl: ORIGIN } },
}

/** Runs a storefront loader for `path` as React Router would; a thrown Response is returned. */
async function load<T>(
  loader: (args: never) => Promise<T>,
  path: string,
  params: Record<string, string | undefined>,
): Promise<T | Response> {
  const url = new URL(`${ORIGIN}${path}`)
  try {
    return await loader({ request: new Request(url), url, params, context: routeContext(services) } as never)
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}

function expectMoved(answer: unknown, location: string) {
  expect(answer).toBeInstanceOf(Response)
  const response = answer as Response
  expect(response.status).toBe(301)
  expect(response.headers.get('Location')).toBe(location)
  // Browsers ask again each time: an old redirect kept for good could loop when a slug changes back.
  expect(response.headers.get('Cache-Control')).toBe(CANONICAL_REDIRECT_CACHE_CONTROL)
}

type Tag = Record<string, string>
const tagOf = (tags: Tag[], key: string, value: string) => tags.find((tag) => tag[key] === value)

describe('product pages', () => {
  test('the canonical URL answers the page; none or an old slug is a 301 to it, query kept', async () => {
    const category = await createCategory(t.db, { name: 'Collares Únicos' })
    const product = await createProduct(t.db, {
      name: 'Collar Corazón',
      pesos: 45000,
      categoryIds: [category.id],
    })
    const canonical = `/producto/${product.sku}/collar-corazon`

    const page = await load(productRoute.loader, canonical, { sku: product.sku, slug: 'collar-corazon' })
    expect(page).not.toBeInstanceOf(Response)
    expectMoved(await load(productRoute.loader, `/producto/${product.sku}`, { sku: product.sku }), canonical)
    expectMoved(
      await load(productRoute.loader, `/producto/${product.sku}/viejo?utm_source=ig`, {
        sku: product.sku,
        slug: 'viejo',
      }),
      `${canonical}?utm_source=ig`,
    )
    // Case matters: one spelling only.
    expectMoved(
      await load(productRoute.loader, `/producto/${product.sku}/Collar-Corazon`, {
        sku: product.sku,
        slug: 'Collar-Corazon',
      }),
      canonical,
    )

    // The owner changes the slug: the former canonical URL now moves to the new one.
    await t.db.update(products).set({ slug: 'corazon-de-oro' }).where(eq(products.sku, product.sku))
    expectMoved(
      await load(productRoute.loader, canonical, { sku: product.sku, slug: 'collar-corazon' }),
      `/producto/${product.sku}/corazon-de-oro`,
    )
    const renamed = await load(productRoute.loader, `/producto/${product.sku}/corazon-de-oro`, {
      sku: product.sku,
      slug: 'corazon-de-oro',
    })
    expect(renamed).not.toBeInstanceOf(Response)
  })

  test('an unknown or hidden product is still a 404, whatever the slug', async () => {
    const hidden = await createProduct(t.db, { name: 'Oculto', showRetail: false })
    for (const [sku, slug] of [
      ['NOE-XIS-TE000000', 'x'],
      [hidden.sku, 'oculto'],
      [hidden.sku, undefined],
    ] as const) {
      const answer = (await load(productRoute.loader, `/producto/${sku}`, { sku, slug }).catch(
        (error: unknown) => error,
      )) as { init?: { status?: number } }
      expect(answer).not.toBeInstanceOf(Response)
      expect(answer.init?.status).toBe(404)
    }
  })

  test('title, description, canonical and structured data: the defaults, then what the owner wrote', async () => {
    const category = await createCategory(t.db, { name: 'Aretes' })
    const product = await createProduct(t.db, {
      name: 'Aretes Sol',
      description: 'Aretes dorados\ncon forma de sol.',
      pesos: 30000,
      categoryIds: [category.id],
    })
    const path = `/producto/${product.sku}/aretes-sol`
    const read = async (slug = 'aretes-sol', at = path) => {
      const data = (await load(productRoute.loader, at, { sku: product.sku, slug })) as Awaited<
        ReturnType<typeof productRoute.loader>
      >
      const tags = productRoute.meta({ data, error: undefined, matches: [layoutMatch] } as never) as Tag[]
      return { data, tags }
    }
    let { data, tags } = await read()
    expect(tagOf(tags, 'title', 'Aretes Sol | Luna Bisutería')).toBeDefined()
    expect(tagOf(tags, 'name', 'description')?.content).toBe('Aretes dorados con forma de sol.')
    expect(tagOf(tags, 'rel', 'canonical')?.href).toBe(`${ORIGIN}${path}`)
    expect(tagOf(tags, 'property', 'og:url')?.content).toBe(`${ORIGIN}${path}`)
    const breadcrumb = JSON.parse(data.breadcrumbJsonLd) as { itemListElement: { item: string }[] }
    expect(breadcrumb.itemListElement.map((step) => step.item)).toEqual([
      `${ORIGIN}/`,
      `${ORIGIN}/categoria/${category.id}/aretes`,
      `${ORIGIN}${path}`,
    ])

    await t.db
      .update(products)
      .set({
        slug: 'aretes-de-sol',
        seoTitle: 'Aretes de sol dorados | Envío gratis',
        seoDescription: 'Pago contra entrega.',
      })
      .where(eq(products.sku, product.sku))
    const moved = `/producto/${product.sku}/aretes-de-sol`
    ;({ data, tags } = await read('aretes-de-sol', moved))
    expect(tagOf(tags, 'title', 'Aretes de sol dorados | Envío gratis')).toBeDefined()
    expect(tagOf(tags, 'name', 'description')?.content).toBe('Pago contra entrega.')
    expect(tagOf(tags, 'property', 'og:title')?.content).toBe('Aretes de sol dorados | Envío gratis')
    expect(tagOf(tags, 'rel', 'canonical')?.href).toBe(`${ORIGIN}${moved}`)
    expect(JSON.parse(data.jsonLd)).toMatchObject({
      url: `${ORIGIN}${moved}`,
      offers: { url: `${ORIGIN}${moved}` },
    })
  })

  test('JSON-LD with a running promotion that ends says until when its price holds', async () => {
    const category = await createCategory(t.db, { name: 'Promo' })
    const product = await createProduct(t.db, {
      name: 'Pulsera Promo',
      pesos: 40000,
      categoryIds: [category.id],
    })
    await createPromotion(t.db, {
      target: 'products',
      percent: 25,
      productSkus: [product.sku],
      // Midnight in Bogotá starting 1 March 2099: the price holds through 28 February.
      endsAt: new Date('2099-03-01T05:00:00Z'),
    })
    const data = (await load(productRoute.loader, `/producto/${product.sku}/pulsera-promo`, {
      sku: product.sku,
      slug: 'pulsera-promo',
    })) as Awaited<ReturnType<typeof productRoute.loader>>
    expect(JSON.parse(data.jsonLd).offers).toMatchObject({ price: '30000.00', priceValidUntil: '2099-02-28' })
  })
})

describe('category pages', () => {
  test('the canonical URL answers; the old name in the address (or none) is a 301 to it', async () => {
    const category = await createCategory(t.db, { name: 'Collares Largos' })
    const canonical = `/categoria/${category.id}/collares-largos`
    const page = await load(categoryRoute.loader, canonical, { id: category.id, slug: 'collares-largos' })
    expect(page).not.toBeInstanceOf(Response)
    // The address before slugs: the name, encoded.
    expectMoved(
      await load(categoryRoute.loader, `/categoria/${category.id}/Collares%20Largos?desde=24`, {
        id: category.id,
        slug: 'Collares Largos',
      }),
      `${canonical}?desde=24`,
    )
    expectMoved(await load(categoryRoute.loader, `/categoria/${category.id}`, { id: category.id }), canonical)
  })

  test('its title, description and breadcrumb', async () => {
    const category = await createCategory(t.db, { name: 'Anillos' })
    await t.db
      .update(categories)
      .set({ slug: 'anillos-de-plata', seoDescription: 'Anillos de plata 925.' })
      .where(eq(categories.id, category.id))
    const path = `/categoria/${category.id}/anillos-de-plata`
    const data = (await load(categoryRoute.loader, path, {
      id: category.id,
      slug: 'anillos-de-plata',
    })) as Awaited<ReturnType<typeof categoryRoute.loader>>
    const tags = categoryRoute.meta({ data, error: undefined, matches: [layoutMatch] } as never) as Tag[]
    expect(tagOf(tags, 'title', 'Anillos | Luna Bisutería')).toBeDefined()
    expect(tagOf(tags, 'name', 'description')?.content).toBe('Anillos de plata 925.')
    expect(tagOf(tags, 'rel', 'canonical')?.href).toBe(`${ORIGIN}${path}`)
    expect(JSON.parse(data.breadcrumb)).toMatchObject({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Inicio', item: `${ORIGIN}/` },
        { '@type': 'ListItem', position: 2, name: 'Anillos', item: `${ORIGIN}${path}` },
      ],
    })
  })
})

test('the home page carries Google Search Console’s verification tag once "SEO" has one', async () => {
  const tagsNow = async () => {
    const data = (await load(home.loader, '/', {})) as Awaited<ReturnType<typeof home.loader>>
    const tags = home.meta({ data, matches: [layoutMatch] } as never) as Tag[]
    return tags.filter((tag) => tag.name === 'google-site-verification')
  }
  expect(await tagsNow()).toEqual([])
  await saveSeoSettings(
    t.db,
    {
      seoSitemapProducts: 'on',
      seoSitemapCategories: 'on',
      seoRobotsExtra: '',
      seoGoogleVerification: '<meta name="google-site-verification" content="Ab12_cd-34EF56gh78IJ90kl" />',
    },
    'dueno@example.co',
  )
  expect(await tagsNow()).toEqual([{ name: 'google-site-verification', content: 'Ab12_cd-34EF56gh78IJ90kl' }])
})
