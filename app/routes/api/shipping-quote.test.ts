import { beforeEach, expect, onTestFinished, test, vi } from 'vitest'
import { CART_COOKIE } from '#app/modules/cart/cart-cookie.ts'
import type { Services } from '#app/services.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { quoteFlat, quoteLive, standInCarriers } from '#tests/carrier-quotes.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import { startEnviaStandIn } from '#tests/stand-ins/envia.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { loader } from './shipping-quote.ts'

/** `GET /api/envio?municipio=…`: the checkout summary's live shipping price for the cart in the cookie. */

const BASE = 'http://127.0.0.1:9'
const t = setupTestDatabase()
const standIn = standInForFile(startEnviaStandIn)
let services: Services
let cookie: string

beforeEach(async () => {
  services = { ...testServices({ database: t.database }), carriers: standInCarriers(standIn()) }
  await quoteFlat(t.db)
  await quoteLive(t.db)
  cookie ??= `${CART_COOKIE}=${encodeURIComponent((await createProduct(t.db, { stock: 3 })).sku)}:1`
})

/** The loader's answer as `{ status, body }` (React Router's `data()`, thrown or returned). */
async function ask(query: string, options: { cookie?: string; services?: Services } = {}) {
  const url = new URL(`${BASE}/api/envio${query}`)
  const request = new Request(url, { headers: { Cookie: options.cookie ?? cookie } })
  const args = { request, url, params: {}, context: routeContext(options.services ?? services) } as never
  let value: unknown
  try {
    value = await loader(args)
  } catch (thrown) {
    value = thrown
  }
  const wrapped = value as { type?: string; data?: unknown; init?: ResponseInit | null }
  return wrapped?.type === 'DataWithResponseInit'
    ? { status: wrapped.init?.status ?? 200, body: wrapped.data, headers: new Headers(wrapped.init?.headers) }
    : { status: 200, body: value, headers: new Headers() }
}

test('the cheapest quote for the cart to the municipality, in centavos, with the carrier and days', async () => {
  const answer = await ask('?municipio=11001')
  expect(answer.status).toBe(200)
  expect(answer.body).toEqual({ shipping: 1_245_050, note: 'Envío con Servientrega · 2 días' })
  expect(answer.headers.get('Cache-Control')).toBe('private, no-store')
})

test('no quote: nulls, and the page keeps the flat or zone cost', async () => {
  const none = { shipping: null, note: null }
  vi.spyOn(logger, 'warn').mockImplementation(() => {})
  onTestFinished(() => {
    vi.restoreAllMocks()
  })
  // A place the carrier refuses, an empty cart, the flat-cost setting, no provider.
  expect((await ask('?municipio=52001')).body).toEqual(none)
  expect((await ask('?municipio=11001', { cookie: '' })).body).toEqual(none)
  expect((await ask('?municipio=11001', { services: { ...services, carriers: null } })).body).toEqual(none)
  await quoteFlat(t.db)
  expect((await ask('?municipio=11001')).body).toEqual(none)
})

test('a code that is no 5-digit DANE code: 400 with a Spanish message, Envia not asked', async () => {
  for (const query of ['', '?municipio=', '?municipio=1100', '?municipio=11001x', '?municipio=Bogotá']) {
    const answer = await ask(query)
    expect(answer.status, query).toBe(400)
    expect(answer.body).toEqual({
      ok: false,
      message: 'Municipio no válido: usa su código DANE de 5 dígitos.',
    })
  }
  // Five digits but no municipality: no quote (not an error).
  expect((await ask('?municipio=99999')).body).toMatchObject({ shipping: null })
  expect(standIn().requests).toHaveLength(0)
})
