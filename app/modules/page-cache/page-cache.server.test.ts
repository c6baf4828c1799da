import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { eq } from 'drizzle-orm'
import express from 'express'
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION } from '#app/modules/analytics/consent.ts'
import { STAFF_DEVICE_COOKIE } from '#app/modules/auth/staff-device.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { createBanner } from '#app/modules/settings/banners.server.ts'
import {
  readStoreSettings,
  saveStoreSettings,
  settingDefaults,
} from '#app/modules/settings/settings.server.ts'
import { settingsAsFormValues } from '#app/modules/settings/validators.ts'
import { formatCOP } from '#app/utils/money.ts'
import { CANONICAL_REDIRECT_CACHE_CONTROL } from '#app/utils/canonical.server.ts'
import { categoryPath, productPath } from '#app/utils/paths.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { testServices } from '#tests/services.ts'
import {
  BYPASS_CACHE_CONTROL,
  CACHE_STATUS_HEADER,
  createPageCache,
  PRIVATE_CACHE_CONTROL,
  SHARED_CACHE_CONTROL,
  type PageCache,
  type PageCacheOptions,
} from './page-cache.server.ts'
import { promotions } from '#app/modules/promotions/schema.ts'
import { readStorefrontState, readStorefrontVersion } from './storefront-version.server.ts'
import { cspNonce, policySources, setContentSecurityPolicy } from '../../../server/content-security-policy.ts'

/**
 * The real storefront (the app's route modules, loaded through Vite as in development) behind the
 * page cache, on the test database. Two instances with their own memory share that database, as
 * two web processes share PostgreSQL.
 */
const t = setupTestDatabase()
const env = parseEnv({})
const ADMIN = 'duena@vitrina.test'
let vite: ViteDevServer
/** Renders as the app does; with a nonce, as under the Content-Security-Policy. */
let renderPage: (request: Request, nonce?: string) => Promise<Response>
const instances: Instance[] = []

let category: { id: string; name: string }
let product: { sku: string }
/** Their canonical pages (`/producto/{sku}/{slug}`): any other spelling is a 301, never kept. */
let productUrl: string
let categoryUrl: string

beforeAll(async () => {
  vite = await createServer({
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    logLevel: 'error',
  })
  const build = (await vite.ssrLoadModule('virtual:react-router/server-build')) as ServerBuild
  // The context key as the route modules loaded through Vite know it.
  const { clientAddressContext } = await vite.ssrLoadModule('/app/utils/client-address.ts')
  const { cspNonceContext } = await vite.ssrLoadModule('/app/utils/csp-nonce.ts')
  const { servicesContext } = await vite.ssrLoadModule('/app/services-context.server.ts')
  const services = testServices({ database: t.database, env })
  const loadContext = (nonce: string | undefined) => {
    const context = new RouterContextProvider()
    context.set(servicesContext, services)
    context.set(clientAddressContext, '127.0.0.1')
    if (nonce) context.set(cspNonceContext, nonce)
    return context
  }
  const handle = createRequestHandler(build, 'production')
  renderPage = (request, nonce) => handle(request, loadContext(nonce))

  category = await createCategory(t.db, { name: 'Collares' })
  // More than the home's first page, so "Seguro te gusta" has a next page (its link carries the seed).
  for (let i = 0; i < 20; i++) await createProduct(t.db, { categoryIds: [category.id], name: `Collar ${i}` })
  product = await createProduct(t.db, { categoryIds: [category.id], name: 'Collar Luna', pesos: 45_000 })
  productUrl = productPath({ sku: product.sku, slug: 'collar-luna' })
  categoryUrl = categoryPath({ id: category.id, slug: 'collares' })
}, 120_000)

afterEach(() => {
  vi.restoreAllMocks()
  for (const instance of instances) instance.cache.clear()
})

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()))
  await vite?.close()
})

type Instance = { base: string; cache: PageCache; close(): Promise<void> }

/**
 * One web process: the page cache in front of the app, on a free loopback port; with `policy`, the
 * Content-Security-Policy's headers in front of both, as server/app.ts puts them.
 */
async function startInstance(
  options: Partial<PageCacheOptions> = {},
  { policy = false } = {},
): Promise<Instance> {
  const cache = createPageCache({
    readVersion: () => readStorefrontVersion(t.database.executeSql),
    render: (request, _req, res) => renderPage(request, cspNonce(res) || undefined),
    nonceOf: cspNonce,
    ...options,
  })
  const app = express()
  if (policy) app.use(setContentSecurityPolicy(policySources(env)))
  app.use(cache.middleware)
  const server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // Everything the cache leaves alone goes to the app as it is.
  app.all('/{*splat}', async (req, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value)
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const response = await renderPage(
      new Request(`${base}${req.originalUrl}`, {
        method: req.method,
        headers,
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
      } as RequestInit),
    )
    res.status(response.status)
    response.headers.forEach((value, name) => res.setHeader(name, value))
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  const instance = {
    base,
    cache,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  instances.push(instance)
  return instance
}

async function get(instance: { base: string }, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${instance.base}${path}`, { headers })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const cacheStatus = (answer: { headers: Headers }) => answer.headers.get(CACHE_STATUS_HEADER)

const consentCookie = (analytics: boolean, advertising: boolean, id = 'registro-1') =>
  `${CONSENT_COOKIE}=${encodeURIComponent(`v=${CONSENT_POLICY_VERSION}|a=${Number(analytics)}|m=${Number(advertising)}|i=${id}`)}`

/** A browser's request as the app would get it without the cache: every header and cookie it sends. */
function browserRequest(url: string, cookie?: string) {
  return new Request(url, {
    headers: {
      accept: 'text/html,application/xhtml+xml',
      'accept-language': 'es-CO,es;q=0.9',
      'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36',
      ...(cookie ? { cookie } : {}),
    },
  })
}

describe('changes show on the next request, on every instance', () => {
  test('a price change', async () => {
    const a = await startInstance()
    const b = await startInstance()
    const path = productUrl
    for (const instance of [a, b]) {
      await get(instance, path)
      const kept = await get(instance, path)
      expect(cacheStatus(kept)).toBe('hit')
      expect(kept.text).toContain(formatCOP(45_000_00))
    }
    await t.db.update(products).set({ priceLevel1: 39_900_00 }).where(eq(products.sku, product.sku))
    for (const instance of [a, b]) {
      const next = await get(instance, path)
      expect(next.text).toContain(formatCOP(39_900_00))
      expect(next.text).not.toContain(formatCOP(45_000_00))
    }
  })

  test('a catalog feed is kept, and a price change shows in it on the next fetch', async () => {
    const instance = await startInstance()
    const [before] = await t.db.select().from(products).where(eq(products.sku, product.sku))
    for (const path of ['/catalogo/meta.xml', '/catalogo/google.xml']) {
      await get(instance, path)
      const kept = await get(instance, path)
      expect(cacheStatus(kept), path).toBe('hit')
      expect(kept.headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
      expect(kept.text).toContain(`<g:id>${product.sku}</g:id>`)
    }
    await t.db.update(products).set({ priceLevel1: 41_000_00 }).where(eq(products.sku, product.sku))
    for (const path of ['/catalogo/meta.xml', '/catalogo/google.xml']) {
      expect((await get(instance, path)).text, path).toContain('41000.00 COP')
    }
    await t.db.update(products).set({ priceLevel1: before!.priceLevel1 }).where(eq(products.sku, product.sku))
  })

  test('a checkout reservation changes the stock shown', async () => {
    const a = await startInstance()
    const b = await startInstance()
    const stocked = await stockedProduct(t.db, 3)
    const path = `/producto/${stocked.sku}`
    for (const instance of [a, b]) {
      await get(instance, path)
      expect((await get(instance, path)).text).toContain('Stock: 3 unidades')
    }
    await placeTestOrder(t.db, { sku: stocked.sku, quantity: 1 })
    for (const instance of [a, b]) expect((await get(instance, path)).text).toContain('Stock: 2 unidades')
  })

  test('a banner added in "Configuraciones"', async () => {
    const a = await startInstance()
    const b = await startInstance()
    for (const instance of [a, b]) {
      for (let i = 0; i < 5; i++) await get(instance, '/')
      expect(cacheStatus(await get(instance, '/'))).toBe('hit')
    }
    await createBanner(
      t.db,
      memoryStorage(),
      {
        alt: 'Aretes en oferta esta semana',
        link: null,
        active: true,
        desktop: await pngUpload('ancho.png', '#8e44ad', 160, 60),
        mobile: null,
      },
      ADMIN,
    )
    for (const instance of [a, b]) {
      expect((await get(instance, '/')).text).toContain('Aretes en oferta esta semana')
    }
  })

  test('a setting saved in "Configuraciones"', async () => {
    const a = await startInstance()
    const b = await startInstance()
    const path = categoryUrl
    for (const instance of [a, b]) {
      await get(instance, path)
      expect(cacheStatus(await get(instance, path))).toBe('hit')
    }
    const defaults = settingDefaults(env)
    const loaded = await readStoreSettings(t.db, defaults)
    await saveStoreSettings(
      t.db,
      defaults,
      { ...settingsAsFormValues(loaded), deliveryTime: 'Entrega en 2 a 4 días hábiles de prueba' },
      loaded,
      ADMIN,
    )
    for (const instance of [a, b]) {
      expect((await get(instance, path)).text).toContain('Entrega en 2 a 4 días hábiles de prueba')
    }
  })

  test('a promotion that starts on its own, with no write at all', async () => {
    const scheduled = await createProduct(t.db, { name: 'Collar Programado', pesos: 50_000 })
    const startsAt = new Date(Date.now() + 2_500)
    await t.db.insert(promotions).values({
      name: 'Aniversario',
      benefit: 'set_discount',
      target: 'products',
      percent: 30,
      productSkus: [scheduled.sku],
      startsAt,
      endsAt: new Date(startsAt.getTime() + 2_500),
    })
    // As server/app.ts wires it: the counter and the promotion moments passed at the cache's now.
    const a = await startInstance({ readVersion: (now) => readStorefrontState(t.database.executeSql, now) })
    const path = `/producto/${scheduled.sku}`
    await get(a, path)
    const before = await get(a, path)
    expect(cacheStatus(before)).toBe('hit')
    expect(before.text).not.toContain(formatCOP(35_000_00))
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startsAt.getTime() - Date.now()) + 50))
    const started = await get(a, path)
    expect(cacheStatus(started)).toBe('miss')
    expect(started.text).toContain(formatCOP(35_000_00))
    expect(started.text).toMatch(/30(<!-- -->)?% de descuento/)
    expect(cacheStatus(await get(a, path))).toBe('hit')
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, startsAt.getTime() + 2_500 - Date.now()) + 50),
    )
    const ended = await get(a, path)
    expect(ended.text).not.toContain(formatCOP(35_000_00))
    expect(ended.text).toContain(formatCOP(50_000_00))
  })

  test('the state read counts the promotion moments passed at the given time', async () => {
    const startsAt = new Date('2031-05-01T05:00:00Z')
    const endsAt = new Date('2031-05-03T05:00:00Z')
    const at = (iso: string) => readStorefrontState(t.database.executeSql, new Date(iso))
    const before = await at('2031-04-30T00:00:00Z')
    await t.db
      .insert(promotions)
      .values({ name: 'Futura', benefit: 'percent', target: 'order', percent: 10, startsAt, endsAt })
    const inserted = await at('2031-04-30T00:00:00Z')
    // The insert bumps the counter; no moment has passed yet.
    expect(inserted).toEqual({ version: before.version + 1, boundaries: before.boundaries })
    expect(await at('2031-05-01T05:00:00Z')).toEqual({ ...inserted, boundaries: inserted.boundaries + 1 })
    expect(await at('2031-05-04T00:00:00Z')).toEqual({ ...inserted, boundaries: inserted.boundaries + 2 })
  })

  test('a render that read the old price before a change committed is never served after it', async () => {
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    let rendered = () => {}
    const renderedOnce = new Promise<void>((resolve) => (rendered = resolve))
    const racing = await startInstance({
      // The page is rendered (the old price read) and only then held until the change has committed.
      render: async (request) => {
        const response = await renderPage(request)
        rendered()
        await gate
        return response
      },
    })
    const path = productUrl
    const [{ priceLevel1: before } = { priceLevel1: 0 }] = await t.db
      .select({ priceLevel1: products.priceLevel1 })
      .from(products)
      .where(eq(products.sku, product.sku))
    const first = get(racing, path)
    await renderedOnce
    await t.db
      .update(products)
      .set({ priceLevel1: before + 1_000_00 })
      .where(eq(products.sku, product.sku))
    release()
    expect((await first).text).toContain(formatCOP(before))
    const next = await get(racing, path)
    expect(next.text).toContain(formatCOP(before + 1_000_00))
  })
  test('a request never relies on a counter read sent before it arrived', async () => {
    const reads: ((version: number) => void)[] = []
    const instance = await startInstance({
      readVersion: () => new Promise<number>((resolve) => reads.push(resolve)),
    })
    const first = get(instance, '/politica-de-datos')
    await vi.waitFor(() => expect(reads).toHaveLength(1))
    // Sent while the first read is under way (a change may have committed since it was sent).
    const second = get(instance, '/politica-de-datos')
    await vi.waitFor(() => expect(reads).toHaveLength(2))
    for (const resolve of reads) resolve(await readStorefrontVersion(t.database.executeSql))
    expect((await first).status).toBe(200)
    expect((await second).status).toBe(200)
  })
})

describe('what the cache serves is what the app renders', () => {
  test('byte for byte, headers included, whatever else the browser sends (the shuffle held still)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.37)
    const instance = await startInstance()
    const paths = [
      '/',
      productUrl,
      `/categoria/${category.id}/collares`,
      '/buscar?q=collar',
      '/politica-de-datos',
      `${productUrl}?preferencias`,
      '/_.data',
      `${productUrl}.data`,
    ]
    for (const consent of [undefined, consentCookie(true, false), consentCookie(false, true, 'otro')]) {
      for (const path of paths) {
        const cookie = [consent, 'vitrina_carrito=%5B%5D'].filter(Boolean).join('; ')
        for (let i = 0; i < 5; i++) await get(instance, path, { cookie })
        const kept = await get(instance, path, { cookie })
        expect(cacheStatus(kept), path).toBe('hit')
        const fresh = await renderPage(browserRequest(`${instance.base}${path}`, cookie))
        expect(kept.status).toBe(200)
        expect(fresh.status).toBe(200)
        expect(kept.text, `${path} ${consent}`).toBe(await fresh.text())
        expect(kept.headers.get('content-type')).toBe(fresh.headers.get('content-type'))
      }
    }
  })

  test('a missing or old slug: the 301 goes out as the app made it, never kept, no ETag', async () => {
    const instance = await startInstance()
    for (const [path, location] of [
      [`/producto/${product.sku}`, productUrl],
      [`/producto/${product.sku}/nombre-viejo?utm_source=ig`, `${productUrl}?utm_source=ig`],
      [`/categoria/${category.id}/Collares`, categoryUrl],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${instance.base}${path}`, { redirect: 'manual' })
        expect(response.status, path).toBe(301)
        expect(response.headers.get('location'), path).toBe(location)
        expect(response.headers.get('cache-control'), path).toBe(CANONICAL_REDIRECT_CACHE_CONTROL)
        expect(response.headers.get('etag'), path).toBeNull()
        expect(cacheStatus(response), path).toBe('miss')
      }
    }
    // The canonical page itself is kept as before.
    await get(instance, productUrl)
    expect(cacheStatus(await get(instance, productUrl))).toBe('hit')
  })

  test('client navigation data (.data) too', async () => {
    const instance = await startInstance()
    for (const path of [`${productUrl}.data`, `${categoryUrl}.data`]) {
      await get(instance, path)
      const kept = await get(instance, path)
      expect(cacheStatus(kept)).toBe('hit')
      expect(kept.text).toBe(await (await renderPage(browserRequest(`${instance.base}${path}`))).text())
    }
  })

  test('two home visits in a row never get the same "Seguro te gusta"', async () => {
    const instance = await startInstance()
    const visits: string[] = []
    const statuses: (string | null)[] = []
    for (let i = 0; i < 10; i++) {
      const visit = await get(instance, '/')
      visits.push(visit.text)
      statuses.push(cacheStatus(visit))
    }
    expect(statuses.slice(4)).toEqual(Array(6).fill('hit'))
    for (let i = 1; i < visits.length; i++) expect(visits[i]).not.toBe(visits[i - 1])
  })
})

describe('headers', () => {
  test('a kept page carries each request’s own nonce, in its policy and in the page', async () => {
    const instance = await startInstance({}, { policy: true })
    for (const path of ['/', productUrl]) {
      const seen = new Set<string>()
      const statuses: (string | null)[] = []
      for (const encoding of ['gzip', 'identity', 'gzip', 'identity', 'gzip', 'gzip']) {
        const answer = await get(instance, path, { 'accept-encoding': encoding })
        statuses.push(cacheStatus(answer))
        const nonce = answer.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1]
        expect(nonce, path).toMatch(/^[\w+/]{22}==$/)
        seen.add(nonce!)
        const inPage = [...answer.text.matchAll(/nonce="([^"]+)"/g)].map(([, value]) => value)
        // The stylesheet, React Router's scripts and the scroll restoration, all with this nonce
        // (links, which need none, carry an empty one: root.tsx).
        expect(inPage.length, path).toBeGreaterThanOrEqual(4)
        expect(new Set(inPage), path).toEqual(new Set([nonce]))
      }
      expect(statuses, path).toContain('hit')
      expect(seen.size, path).toBe(6)
    }
    // A revalidation answered 304 carries no policy: the browser keeps the page and policy it has.
    const path = productUrl
    const etag = (await get(instance, path)).headers.get('etag')!
    const revalidated = await fetch(`${instance.base}${path}`, { headers: { 'if-none-match': etag } })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get('content-security-policy')).toBeNull()
  })

  test('a shared page: public for a short while, ETag, 304 when unchanged, gzip or plain', async () => {
    const instance = await startInstance()
    const path = productUrl
    const first = await get(instance, path)
    expect(cacheStatus(first)).toBe('miss')
    const kept = await get(instance, path)
    expect(kept.headers.get('cache-control')).toBe(SHARED_CACHE_CONTROL)
    expect(kept.headers.get('vary')).toBe('Accept-Encoding, Cookie')
    expect(kept.headers.get('content-encoding')).toBe('gzip')
    const etag = kept.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+-gzip"$/)
    expect(first.headers.get('etag')).toBe(etag)

    const revalidated = await fetch(`${instance.base}${path}`, { headers: { 'if-none-match': etag } })
    expect(revalidated.status).toBe(304)
    expect(await revalidated.text()).toBe('')

    const plain = await get(instance, path, { 'accept-encoding': 'identity' })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.text).toBe(kept.text)
    expect(plain.headers.get('etag')).not.toBe(etag)

    const head = await fetch(`${instance.base}${path}`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('etag')).toBe(etag)
    expect(await head.text()).toBe('')

    // After a change the old ETag no longer matches.
    await t.db.update(products).set({ name: 'Collar Luna Nueva' }).where(eq(products.sku, product.sku))
    const changed = await fetch(`${instance.base}${path}`, { headers: { 'if-none-match': etag } })
    expect(changed.status).toBe(200)
    expect(await changed.text()).toContain('Collar Luna Nueva')
  })

  test('a consent answer in the cookie, or the shuffled home: only the browser may keep it', async () => {
    const instance = await startInstance()
    const withConsent = await get(instance, productUrl, { cookie: consentCookie(true, true) })
    expect(withConsent.headers.get('cache-control')).toBe(PRIVATE_CACHE_CONTROL)
    expect((await get(instance, '/')).headers.get('cache-control')).toBe(PRIVATE_CACHE_CONTROL)
  })

  test('an admin or a staff device: fresh pages, kept nowhere', async () => {
    const instance = await startInstance()
    const path = productUrl
    await get(instance, path)
    for (const cookie of ['vitrina_admin=abc', '__Host-vitrina_admin=abc', `${STAFF_DEVICE_COOKIE}=1`]) {
      const answer = await get(instance, path, { cookie: `${consentCookie(true, true)}; ${cookie}` })
      expect(cacheStatus(answer)).toBe('bypass')
      expect(answer.headers.get('cache-control')).toBe(BYPASS_CACHE_CONTROL)
      expect(answer.headers.get('etag')).toBeNull()
    }
  })

  test('the cart, the checkout and anything posted are never kept', async () => {
    const instance = await startInstance()
    for (const path of ['/carrito', '/finalizar-pedido', '/_base-ssr', '/api/productos']) {
      await get(instance, path)
      expect(cacheStatus(await get(instance, path)), path).toBeNull()
    }
    // The search page has no action: the app's 405 is logged, and that is all.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const posted = await fetch(`${instance.base}/buscar?q=collar`, { method: 'POST', body: 'q=collar' })
    expect(cacheStatus(posted)).toBeNull()
  })

  test('a product page is kept only for the shop day it was rendered on ("envío gratis hoy")', async () => {
    let now = new Date('2026-11-24T04:59:00Z')
    const instance = await startInstance({ now: () => now })
    const path = productUrl
    await get(instance, path)
    expect(cacheStatus(await get(instance, path))).toBe('hit')
    // Midnight in Bogotá (UTC-5).
    now = new Date('2026-11-24T05:00:00Z')
    expect(cacheStatus(await get(instance, path))).toBe('miss')
  })

  test('pages that are not found are not kept', async () => {
    const instance = await startInstance()
    await get(instance, '/producto/NO-EXISTE')
    const again = await get(instance, '/producto/NO-EXISTE')
    expect(again.status).toBe(404)
    expect(cacheStatus(again)).toBe('miss')
    expect(again.headers.get('etag')).toBeNull()
  })
})
