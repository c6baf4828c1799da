import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible'
import type { DbOrTx } from '#app/db/client.server.ts'
import { clientNetworkOf } from '#app/utils/client-network.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { rateLimits as rateLimitsTable } from './schema.ts'
import { logger } from '#app/utils/logger.server.ts'

/**
 * Every per-client request limit of the shop, in one place: how many requests (`points`) one client
 * network may make in `seconds`, and what it reads past that (HTTP 429). Kept in the database
 * (`rate_limits`), so every web process on it counts the same allowance (ADR 0014).
 */
export const RATE_LIMITS = {
  /** Order attempts: a shopper places one, maybe retries a few times; a script is cut off. */
  checkout: {
    points: 10,
    seconds: 10 * 60,
    message: 'Has intentado hacer muchos pedidos seguidos. Espera unos minutos e inténtalo de nuevo.',
  },
  /** Presses of "Iniciar sesión con Google" (each starts a sign-in with the identity provider). */
  signIn: {
    points: 10,
    seconds: 10 * 60,
    message:
      'Demasiados intentos de inicio de sesión desde esta conexión. Espera unos minutos e inténtalo de nuevo.',
  },
  /** Analytics beacons, per endpoint: a shopper never clicks this much. */
  beacon: {
    points: 60,
    seconds: 60,
    message: 'Demasiados eventos de analítica desde esta conexión; inténtalo más tarde.',
  },
  /** Meta Pixel events forwarded to the Conversions API: a shopper's page sends a handful. */
  metaEvents: {
    points: 60,
    seconds: 60,
    message: 'Demasiados eventos desde esta conexión; intenta más tarde.',
  },
  /**
   * Rows of the consent log (`consent_log`) one network may add. Never a refusal: the shopper's
   * choice is always kept in their cookie and honoured; past this, answers are not logged. Colombia's
   * mobile carriers put thousands of phones behind one address (carrier-grade NAT), so the number is
   * far above what a shop's own visitors on one carrier send: 300 in 10 minutes is one answer every
   * 2 seconds without pause, more than a busy campaign hour of a small shop brings in all (a few
   * hundred visits an hour, about half of them answering the banner), and it still caps a script's
   * flood at about 43,000 rows a day per address.
   */
  consentLog: {
    points: 300,
    seconds: 10 * 60,
    message: null,
  },
  /**
   * "Consulta tu pedido" tries (an order number and its phone's last 4 digits): a buyer mistypes a
   * few times; guessing the 10,000 endings of someone else's order is cut off.
   */
  orderLookup: {
    points: 10,
    seconds: 10 * 60,
    message: 'Has intentado consultar muchos pedidos seguidos. Espera unos minutos e inténtalo de nuevo.',
  },
  /** Searches (the page and the search panel's suggestions, typed letter by letter). */
  search: {
    points: 120,
    seconds: 60,
    message: 'Has hecho muchas búsquedas seguidas. Espera un momento e inténtalo de nuevo.',
  },
  /**
   * Live shipping quotes for the checkout's summary (`/api/envio`), one per municipality chosen: a
   * shopper tries a few places; a script asking the carrier over and over is cut off.
   */
  shippingQuote: {
    points: 30,
    seconds: 10 * 60,
    message: 'Has consultado muchos envíos seguidos. Espera unos minutos e inténtalo de nuevo.',
  },
  /**
   * What a shopper types at checkout, kept as it changes (`/api/pedido-borrador`): a few a minute
   * while typing; a script filling the drafts table is cut off.
   */
  checkoutDraft: {
    points: 30,
    seconds: 10 * 60,
    message: 'Demasiados cambios seguidos en el formulario; inténtalo más tarde.',
  },
  /**
   * Returns from Wompi's page (each asks Wompi for the transaction): a shopper comes back once or
   * twice; past this the page shows the order without asking.
   */
  paymentReturn: {
    points: 30,
    seconds: 10 * 60,
    message: 'Has consultado muchas veces tu pago. Espera unos minutos e inténtalo de nuevo.',
  },
  /**
   * A buyer's transfer receipts (each decoded on the server): a buyer sends one, maybe a better
   * photo after it; a script replacing receipts over and over is cut off.
   */
  receiptUpload: {
    points: 10,
    seconds: 10 * 60,
    message: 'Has enviado muchos comprobantes seguidos. Espera unos minutos e inténtalo de nuevo.',
  },
  /**
   * Back-office posts that carry an image or video (each decoded and resized on the server); a save
   * without a file (prices, names) is not counted, so admins sharing an office address keep working.
   */
  upload: {
    points: 60,
    seconds: 10 * 60,
    message: 'Has enviado muchos archivos seguidos. Espera unos minutos e inténtalo de nuevo.',
  },
} as const satisfies Record<string, { points: number; seconds: number; message: string | null }>

export type RateLimitName = keyof typeof RATE_LIMITS
/** Limits that refuse past their allowance (the others only stop counting something). */
export type RefusingLimitName = {
  [Name in RateLimitName]: (typeof RATE_LIMITS)[Name]['message'] extends string ? Name : never
}[RateLimitName]

export type RateLimits = {
  /**
   * Takes one request from the client's allowance under `name` (and `scope`, e.g. an endpoint,
   * when one limit is counted apart per endpoint); false when it is used up. `scope` is a name fixed
   * in the code, never text from the request (a path, a header, a field): each distinct value gets
   * an allowance and a `rate_limits` row of its own, so a client could mint fresh ones.
   */
  take(name: RateLimitName, clientAddress: string | null, scope?: string): Promise<boolean>
  /** `take`, throwing the limit's Spanish `Refusal` (429) when the allowance is used up. */
  require(name: RefusingLimitName, clientAddress: string | null, scope?: string): Promise<void>
}

export type RateLimitOptions = {
  /** Multiplies every allowance: browser tests send a whole suite from one address. */
  scale?: number
}

/**
 * The key a client's allowances are kept under: its network (`clientNetworkOf`: an IPv6 client by
 * its /64, which one device rotates its addresses within; IPv4 as it is). Null when the request has
 * no peer address: only requests made inside the process (tests, the server talking to itself) lack
 * one, never a browser's, and one shared bucket for all of them would let a single caller silence
 * everyone else; such requests are not limited.
 */
export function clientKeyOf(clientAddress: string | null): string | null {
  if (!clientAddress?.trim()) return null
  return clientNetworkOf(clientAddress)
}

/** The shop's limits on `db` (each limiter made on first use, so a registry without a database never touches one). */
export function rateLimits(db: DbOrTx, options: RateLimitOptions = {}): RateLimits {
  const scale = options.scale ?? 1
  const limiters = new Map<RateLimitName, RateLimiterDrizzle>()
  const limiterOf = (name: RateLimitName) => {
    let limiter = limiters.get(name)
    if (!limiter) {
      const rule = RATE_LIMITS[name]
      limiter = new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimitsTable,
        keyPrefix: name,
        points: rule.points * scale,
        duration: rule.seconds,
      })
      limiters.set(name, limiter)
    }
    return limiter
  }
  const take: RateLimits['take'] = async (name, clientAddress, scope) => {
    const client = clientKeyOf(clientAddress)
    if (client === null) return true
    try {
      await limiterOf(name).consume(scope ? `${scope}:${client}` : client)
      return true
    } catch (thrown) {
      if (thrown instanceof RateLimiterRes) return false
      // A database hiccup must not take the shop down with it: the request goes through, logged.
      logger.error({ err: thrown }, `[límites ${name}]`)
      return true
    }
  }
  return {
    take,
    async require(name, clientAddress, scope) {
      if (!(await take(name, clientAddress, scope))) {
        throw new Refusal(RATE_LIMITS[name].message, { status: 429, standsAlone: true })
      }
    },
  }
}
