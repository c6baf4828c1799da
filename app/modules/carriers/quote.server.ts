import { LRUCache } from 'lru-cache'
import type { DbOrTx } from '#app/db/client.server.ts'
import { readCarrierSettings, type PackageSize } from '#app/modules/settings/settings.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { hasNul } from '#app/utils/text.ts'
import { parcelFor } from './parcel.ts'
import { packedProductsOf } from './parcel.server.ts'
import { originParty, placeParty } from './parties.server.ts'
import type { CarrierProvider, Parcel, Quote, QuoteInput } from './provider.ts'
import { carrierName, chosenQuote } from './shipments.server.ts'

/** "1 día", "2 días": how long the carrier says it takes. */
export const daysText = (days: number) => `${days} ${days === 1 ? 'día' : 'días'}`

/** What the checkout's summary says under the shipping cost: "Envío con Servientrega · 2 días". */
export function quoteNote(quote: Pick<CheckoutShippingQuote, 'carrierName' | 'days'>): string {
  return `Envío con ${quote.carrierName}${quote.days === undefined ? '' : ` · ${daysText(quote.days)}`}`
}

/** A live shipping price for the checkout: centavos, who carries it, and in how many days. */
export type CheckoutShippingQuote = {
  price: number
  /** The provider's carrier code ("servientrega"). */
  carrier: string
  /** The carrier as the shopper reads it ("Servientrega"). */
  carrierName: string
  serviceName: string
  days?: number
  /** The DANE municipality quoted for. */
  municipalityCode: string
}

export type QuoteDeps = {
  db: DbOrTx
  carriers: CarrierProvider | null
  env: Env
  /** Where answers are kept; by default one cache per provider (so per services registry). */
  cache?: QuoteCache
}

/** A checkout never waits on the carrier longer than this: past it, the flat cost stands. */
export const QUOTE_TIMEOUT_MS = 4_000
/** How long an answer is reused for the same parcel to the same municipality. */
export const QUOTE_TTL_MS = 60 * 60_000
/** How long a refusal or a silence is remembered, so a provider that is down does not slow every checkout. */
export const QUOTE_FAILURE_TTL_MS = 5 * 60_000

type Kept = { quotes: Quote[] | null }
export type QuoteCache = LRUCache<string, Promise<Kept>>

/** A cache of quotes: the answers (and failures) of a provider, by everything that changes a price. */
export function quoteCache(): QuoteCache {
  return new LRUCache<string, Promise<Kept>>({ max: 2_000, ttl: QUOTE_TTL_MS })
}

const caches = new WeakMap<CarrierProvider, QuoteCache>()
function cacheOf(deps: QuoteDeps, provider: CarrierProvider): QuoteCache {
  if (deps.cache) return deps.cache
  let cache = caches.get(provider)
  if (!cache) caches.set(provider, (cache = quoteCache()))
  return cache
}

class QuoteTimeout extends Error {
  constructor() {
    super(`sin respuesta en ${QUOTE_TIMEOUT_MS / 1000} s`)
    this.name = 'QuoteTimeout'
  }
}

/** The provider's quotes, or a `QuoteTimeout` after `QUOTE_TIMEOUT_MS` (its request runs on, unheard). */
async function quotesWithin(provider: CarrierProvider, input: QuoteInput): Promise<Quote[]> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new QuoteTimeout()), QUOTE_TIMEOUT_MS)
  })
  try {
    return await Promise.race([provider.quote(input), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The box for the lines the shop sells (whole, positive quantities), declared at what they are worth
 * at retail now; null when none is known. One query for the prices and the measures.
 */
async function cartParcel(
  db: DbOrTx,
  lines: readonly { sku: string; quantity: number }[],
  defaults: PackageSize,
): Promise<Parcel | null> {
  // A cookie may carry any text: a NUL (which PostgreSQL refuses) names no product.
  const wanted = lines.filter(
    (line) => !hasNul(line.sku) && Number.isSafeInteger(line.quantity) && line.quantity > 0,
  )
  const packed = await packedProductsOf(
    db,
    wanted.map((line) => line.sku),
  )
  const known = wanted.flatMap((line) => {
    const product = packed.get(line.sku)
    return product ? [{ ...product, quantity: line.quantity }] : []
  })
  if (!known.length) return null
  const value = known.reduce((sum, line) => sum + line.finalPrice * line.quantity, 0)
  return parcelFor(known, defaults, value)
}

/**
 * The live shipping price for these lines to this municipality, as "Configuraciones" asks for it
 * (the cheapest carrier, or the cheapest service of the chosen one). Null whenever the flat cost
 * must stand: no provider, the setting is the flat cost, no pickup address, an unknown place, a
 * refusal, no answer within `QUOTE_TIMEOUT_MS`, or no quote of the chosen carrier. Never throws
 * for the provider's sake, and is never called inside a transaction (it may ask Envia).
 */
export async function checkoutShippingQuote(
  deps: QuoteDeps,
  place: {
    departmentCode: string
    municipalityCode: string
    lines: readonly { sku: string; quantity: number }[]
  },
): Promise<CheckoutShippingQuote | null> {
  const provider = deps.carriers
  if (!provider) return null
  const destinationPlace = placeParty(place.municipalityCode)
  if (!destinationPlace || destinationPlace.departmentCode !== place.departmentCode) return null
  const settings = await readCarrierSettings(deps.db, deps.env)
  if (settings.quotes === 'flat') return null
  const origin = originParty(settings)
  if (!origin) return null
  const parcel = await cartParcel(deps.db, place.lines, settings.defaultPackage)
  if (!parcel) return null

  const key = JSON.stringify([
    origin.municipalityCode,
    origin.street,
    destinationPlace.municipalityCode,
    parcel.weightGrams,
    parcel.lengthCm,
    parcel.widthCm,
    parcel.heightCm,
    parcel.declaredValue,
  ])
  const cache = cacheOf(deps, provider)
  let kept = cache.get(key)
  if (!kept) {
    const input: QuoteInput = {
      origin,
      // A quote needs the place only: neutral values stand for the shopper's name and street.
      destination: {
        name: destinationPlace.municipalityName,
        phone: origin.phone,
        street: destinationPlace.municipalityName,
        ...destinationPlace,
      },
      parcel,
    }
    const asking: Promise<Kept> = quotesWithin(provider, input).then(
      (quotes) => ({ quotes }),
      (error: unknown) => {
        // Logged once: the failure is kept for a few minutes, and checkouts meanwhile use the flat cost.
        logger.warn(
          { err: error, municipalityCode: destinationPlace.municipalityCode },
          '[envíos] sin cotización en vivo; se cobra el costo fijo',
        )
        cache.set(key, asking, { ttl: QUOTE_FAILURE_TTL_MS })
        return { quotes: null }
      },
    )
    // Kept while asked: checkouts at the same moment wait on the one request.
    cache.set(key, asking)
    kept = asking
  }
  const { quotes } = await kept
  if (!quotes) return null
  const chosen = chosenQuote(quotes, settings.quotes)
  if (!chosen) return null
  return {
    price: chosen.price,
    carrier: chosen.carrier,
    carrierName: carrierName(chosen.carrier),
    serviceName: chosen.serviceName,
    ...(chosen.days === undefined ? {} : { days: chosen.days }),
    municipalityCode: destinationPlace.municipalityCode,
  }
}

/** Whether the checkout asks for live quotes at all: a provider, a quote setting and a pickup address. */
export async function liveQuotesOn(deps: Omit<QuoteDeps, 'cache'>): Promise<boolean> {
  if (!deps.carriers) return false
  const settings = await readCarrierSettings(deps.db, deps.env)
  return settings.quotes !== 'flat' && originParty(settings) !== null
}
