import { beforeEach, describe, expect, test, vi } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { quoteFlat, quoteLive, saveSettings, standInCarriers } from '#tests/carrier-quotes.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { startEnviaStandIn } from '#tests/stand-ins/envia.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import type { CarrierProvider } from './provider.ts'
import {
  checkoutShippingQuote,
  liveQuotesOn,
  QUOTE_FAILURE_TTL_MS,
  QUOTE_TIMEOUT_MS,
  QUOTE_TTL_MS,
  quoteCache,
  type QuoteDeps,
} from './quote.server.ts'

const t = setupTestDatabase()
const standIn = standInForFile(startEnviaStandIn)
const env = parseEnv({})

/** The stand-in's prices for a parcel under 1 kg, in centavos. */
const SERVIENTREGA = 1_245_050
const COORDINADORA = 1_590_000

let carriers: CarrierProvider
let sku: string
let retail: number
beforeEach(async () => {
  // A new provider per test: its quote cache starts empty.
  carriers = standInCarriers(standIn())
  await quoteFlat(t.db)
  await quoteLive(t.db)
  if (!sku) {
    const product = await createProduct(t.db, { pesos: 40_000, weightGrams: 250 })
    sku = product.sku
    retail = product.priceLevel1
  }
})

const deps = (overrides: Partial<QuoteDeps> = {}): QuoteDeps => ({ db: t.db, carriers, env, ...overrides })
const toBogota = () => ({ departmentCode: '11', municipalityCode: '11001', lines: [{ sku, quantity: 2 }] })
const rateRequests = () => standIn().requests.filter((request) => request.path === '/ship/rate/')

describe('checkoutShippingQuote', () => {
  test('cheapest: the cheapest carrier’s price, name and days, asked from the pickup to the municipality', async () => {
    expect(await checkoutShippingQuote(deps(), toBogota())).toEqual({
      price: SERVIENTREGA,
      carrier: 'servientrega',
      carrierName: 'Servientrega',
      serviceName: 'Servientrega Mercancía Premier',
      days: 2,
      municipalityCode: '11001',
    })
    const body = rateRequests()[0]!.body as {
      origin: Record<string, unknown>
      destination: Record<string, unknown>
      packages: Record<string, unknown>[]
    }
    expect(body.origin).toMatchObject({
      city: '05001000',
      state: 'AN',
      street: 'Calle 10 # 43-12, local 105',
      name: 'Vitrina Accesorios S.A.S.',
      phone: '3001234567',
      // The NIT's digits without its check digit.
      identificationNumber: '900123456',
    })
    expect(body.destination).toMatchObject({ city: '11001000', state: 'DC' })
    // Two units of 250 g, declared at their retail price, no cash on delivery.
    expect(body.packages[0]).toMatchObject({ weight: 0.5, declaredValue: (2 * retail) / 100 })
    expect(body.packages[0]!.additionalServices ?? []).toEqual([])
  })

  test('a chosen carrier: its cheapest service, even when another is cheaper', async () => {
    await quoteLive(t.db, 'coordinadora')
    expect(await checkoutShippingQuote(deps(), toBogota())).toMatchObject({
      price: COORDINADORA,
      carrierName: 'Coordinadora',
      days: 3,
    })
  })

  test('a chosen carrier that does not quote the place: null', async () => {
    await quoteLive(t.db, 'tcc')
    expect(await checkoutShippingQuote(deps(), toBogota())).toBeNull()
  })

  test('null without asking anyone: flat cost, no provider, no pickup address, unknown place, empty cart', async () => {
    await saveSettings(t.db, { carrierQuotes: 'flat' })
    expect(await checkoutShippingQuote(deps(), toBogota())).toBeNull()
    expect(await liveQuotesOn(deps())).toBe(false)

    await quoteLive(t.db)
    expect(await liveQuotesOn(deps())).toBe(true)
    expect(await checkoutShippingQuote(deps({ carriers: null }), toBogota())).toBeNull()
    expect(await liveQuotesOn(deps({ carriers: null }))).toBe(false)
    expect(
      await checkoutShippingQuote(deps(), { ...toBogota(), municipalityCode: '99999', departmentCode: '99' }),
    ).toBeNull()
    // A municipality of another department than the one named.
    expect(await checkoutShippingQuote(deps(), { ...toBogota(), departmentCode: '05' })).toBeNull()
    expect(await checkoutShippingQuote(deps(), { ...toBogota(), lines: [] })).toBeNull()
    expect(
      await checkoutShippingQuote(deps(), { ...toBogota(), lines: [{ sku: 'NO-EXISTE', quantity: 1 }] }),
    ).toBeNull()

    await saveSettings(t.db, { carrierOriginStreet: null })
    expect(await checkoutShippingQuote(deps(), toBogota())).toBeNull()
    expect(await liveQuotesOn(deps())).toBe(false)
    expect(standIn().requests).toHaveLength(0)
  })

  test('a refusal (a city Envia does not cover) is null, logged once and kept a few minutes', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
    const pasto = { departmentCode: '52', municipalityCode: '52001', lines: [{ sku, quantity: 1 }] }
    try {
      expect(await checkoutShippingQuote(deps(), pasto)).toBeNull()
      expect(await checkoutShippingQuote(deps(), pasto)).toBeNull()
      expect(warn).toHaveBeenCalledTimes(1)
      // One request per carrier, once.
      expect(rateRequests()).toHaveLength(2)
    } finally {
      warn.mockRestore()
    }
  })

  test('an answer is reused: Envia is asked once for the same parcel and place', async () => {
    const first = await checkoutShippingQuote(deps(), toBogota())
    const [again, atOnce] = await Promise.all([
      checkoutShippingQuote(deps(), toBogota()),
      checkoutShippingQuote(deps(), toBogota()),
    ])
    expect(again).toEqual(first)
    expect(atOnce).toEqual(first)
    expect(rateRequests()).toHaveLength(2) // one per carrier
    // Another parcel (3 units) is another question.
    await checkoutShippingQuote(deps(), { ...toBogota(), lines: [{ sku, quantity: 3 }] })
    expect(rateRequests()).toHaveLength(4)
    // A cache of its own starts empty.
    await checkoutShippingQuote(deps({ cache: quoteCache() }), toBogota())
    expect(rateRequests()).toHaveLength(6)
  })

  test('a provider that does not answer: null within the timeout; the failure is kept a few minutes', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
    const cache = quoteCache()
    try {
      standIn().hang('headers')
      const started = Date.now()
      expect(await checkoutShippingQuote(deps({ cache }), toBogota())).toBeNull()
      const waited = Date.now() - started
      expect(waited).toBeGreaterThanOrEqual(QUOTE_TIMEOUT_MS - 50)
      expect(waited).toBeLessThan(QUOTE_TIMEOUT_MS + 1_500)
      expect(warn).toHaveBeenCalledTimes(1)

      // Kept a few minutes, not the hour of an answer: checkouts meanwhile do not wait on Envia again.
      const [key] = [...cache.keys()]
      expect(cache.getRemainingTTL(key!)).toBeLessThanOrEqual(QUOTE_FAILURE_TTL_MS)
      expect(cache.getRemainingTTL(key!)).toBeGreaterThan(QUOTE_FAILURE_TTL_MS - 10_000)
      standIn().hang(null)
      const requests = rateRequests().length
      expect(await checkoutShippingQuote(deps({ cache }), toBogota())).toBeNull()
      expect(rateRequests()).toHaveLength(requests)
      expect(warn).toHaveBeenCalledTimes(1)
    } finally {
      warn.mockRestore()
    }
  }, 10_000)

  test('an answer is kept an hour', async () => {
    const cache = quoteCache()
    await checkoutShippingQuote(deps({ cache }), toBogota())
    const [key] = [...cache.keys()]
    expect(cache.getRemainingTTL(key!)).toBeGreaterThan(QUOTE_TTL_MS - 10_000)
  })
})
