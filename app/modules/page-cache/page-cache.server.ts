import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type express from 'express'
import { LRUCache } from 'lru-cache'
import {
  CONSENT_COOKIE,
  readConsent,
  serializeConsent,
  type Consent,
} from '#app/modules/analytics/consent.ts'
import { ADMIN_SESSION_COOKIE } from '#app/modules/auth/session.server.ts'
import { hasStaffCookie } from '#app/modules/auth/staff-device.ts'
import { withNonce } from '#app/utils/csp-nonce.ts'
import { gzipWithNonce, splitAroundNonce, type NonceGzip } from './nonce-gzip.server.ts'
import type { StorefrontState } from './storefront-version.server.ts'

/**
 * The HTML (and client-navigation data) of storefront pages that do not depend on the visitor, kept
 * per process and served without rendering. An answer is kept under the storefront's change
 * counter read before it was rendered (`readStorefrontVersion`) and served only while the counter
 * still has that value, so a change committed anywhere (this process, another one, a script) shows
 * on the next request. See docs/decisions/0012-storefront-page-cache.md.
 */

const gzip = promisify(zlib.gzip)
const gunzip = promisify(zlib.gunzip)

/**
 * Pages every visitor sees alike, given the consent answer (the layout draws the banner from it):
 * home, product, category, search, data policy, each also as `.data` (client navigation; the home's
 * is `/_.data` under future.v8_trailingSlashAwareDataRequests). The cart, the checkout and its
 * results, the payment page, the back office and the API are never kept.
 */
const CACHEABLE_PATHS = [
  /^\/(?:_\.data)?$/,
  // `/producto/{sku}/{slug}`; without the slug (or with an old one) the page is a 301, never kept.
  /^\/producto\/[^/]+(?:\/[^/]+)?$/,
  /^\/categoria\/[^/]+(?:\/[^/]+)?$/,
  /^\/buscar(?:\.data)?$/,
  /^\/politica-de-datos(?:\.data)?$/,
  // The catalog feeds Meta and Google fetch: built from the same catalogue, kept the same way.
  /^\/catalogo\/(?:meta|google)\.xml$/,
]

/**
 * Shared caches (a CDN) may keep an answer for a request without cookies that matter for a short
 * while, and serve it stale a little longer while they fetch a new one; browsers always revalidate
 * (the ETag makes that a 304 when nothing changed).
 */
export const SHARED_CACHE_CONTROL = 'public, max-age=0, s-maxage=10, stale-while-revalidate=30'
/** A consent answer in the cookie, or a page shuffled per visit: only the browser may keep it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache'
/** An admin's or staff device's pages: always fresh, kept nowhere. */
export const BYPASS_CACHE_CONTROL = 'private, no-store'
/** `hit`, `miss` (rendered now) or `bypass` (staff): for tests and for reading logs. */
export const CACHE_STATUS_HEADER = 'X-Vitrina-Cache'

/** Headers of a rendered answer that the cache sets itself, or that belong to one connection. */
const NOT_KEPT = new Set([
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'date',
  'etag',
  'keep-alive',
  'set-cookie',
  'transfer-encoding',
  'vary',
])

const bogotaDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' })

type Answer = {
  status: number
  headers: [string, string][]
  gzipped: Buffer
  /** Strong validator of the decoded body; the gzip representation's is this with `-gzip`. */
  etag: string
  /**
   * The Content-Security-Policy nonce the page was rendered with ('' when its body holds none, as
   * `.data` answers): every other request gets the page with its own nonce in its place.
   */
  nonce: string
  /** The page compressed around its nonce (nonce-gzip.server.ts), when it carries one. */
  aroundNonce: NonceGzip | null
}

/**
 * `ownCacheControl`: the app's own Cache-Control, sent with an answer that is not kept (a 301 to a
 * page's canonical URL says how long it may be reused; without it browsers keep a 301 for good).
 */
type Rendered = { answer: Answer; setCookies: string[]; storable: boolean; ownCacheControl: string | null }

type Entry = { answers: Answer[]; turn: number; bytes: number }

export type PageCacheOptions = {
  /**
   * The storefront's change counter as committed now (`readStorefrontVersion`), or with the
   * promotion moments passed at `now` (`readStorefrontState`): a promotion starting or ending on
   * its own empties the cache like a write.
   */
  readVersion(now: Date): Promise<number | StorefrontState>
  /** Renders a request as the app would without the cache (React Router's request handler). */
  render(request: Request, req: express.Request, res: express.Response): Promise<Response>
  /** The answer's Content-Security-Policy nonce (set by the security headers before the cache). */
  nonceOf?: (res: express.Response) => string
  /** Bytes of compressed pages kept at most, least recently used dropped first. */
  maxBytes?: number
  /** Longest life of a kept answer, whatever happens. */
  maxAgeMs?: number
  /** How many different shuffles of the home page are kept and served in turn. */
  shuffleVariants?: number
  now?: () => Date
}

export type PageCache = {
  middleware: express.RequestHandler
  /** Drops everything kept (tests; a new build starts empty anyway). */
  clear(): void
}

export function createPageCache({
  readVersion,
  render,
  maxBytes = 32 * 1024 * 1024,
  maxAgeMs = 60_000,
  shuffleVariants = 4,
  now = () => new Date(),
  nonceOf = () => '',
}: PageCacheOptions): PageCache {
  const entries = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
    ttl: maxAgeMs,
  })
  /** Renders under way for pages that are the same for everyone who asks: one render serves all. */
  const renders = new Map<string, Promise<Rendered>>()
  let version: StorefrontState = { version: -1, boundaries: 0 }
  /** The counter, the promotion moments passed and the shop's day (product pages say "hoy" with the date): what answers are kept for. */
  let generation = ''

  /**
   * A counter read not sent yet: requests that arrive meanwhile share it. It is sent after each of
   * them arrived, so it sees every change committed before any of them.
   */
  let upcomingRead: Promise<StorefrontState> | null = null
  function readVersionSinceArrival(): Promise<StorefrontState> {
    upcomingRead ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      upcomingRead = null
      const read = await readVersion(now())
      return typeof read === 'number' ? { version: read, boundaries: 0 } : read
    })
    return upcomingRead
  }

  /** The generation to serve from and store under, or null when this read was overtaken by a newer one. */
  async function currentGeneration(): Promise<string | null> {
    const read = await readVersionSinceArrival()
    // Both only grow (an edit that moves a promotion's moment back bumps the counter): an older
    // pair is a read that another overtook.
    if (
      read.version < version.version ||
      (read.version === version.version && read.boundaries < version.boundaries)
    )
      return null
    const current = `${read.version} ${read.boundaries} ${bogotaDay.format(now())}`
    if (current !== generation) {
      entries.clear()
      renders.clear()
      generation = current
      version = read
    }
    return current
  }

  async function renderAnswer(
    url: URL,
    consent: Consent | null,
    req: express.Request,
    res: express.Response,
  ): Promise<Rendered> {
    const response = await render(renderRequest(url, consent), req, res)
    const body = Buffer.from(await response.arrayBuffer())
    const nonce = nonceOf(res)
    const headers: [string, string][] = []
    response.headers.forEach((value, name) => {
      if (!NOT_KEPT.has(name)) headers.push([name, value])
    })
    const setCookies = response.headers.getSetCookie()
    const cacheControl = response.headers.get('Cache-Control') ?? ''
    const keptNonce = nonce && body.includes(nonce) ? nonce : ''
    const storable =
      response.status === 200 && setCookies.length === 0 && !/no-store|private/i.test(cacheControl)
    const answer: Answer = {
      status: response.status,
      headers,
      gzipped: await gzip(body),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
      nonce: keptNonce,
      // Only an answer that will be kept is served again with other nonces.
      aroundNonce: keptNonce && storable ? await splitAroundNonce(body, keptNonce) : null,
    }
    return { answer, setCookies, storable, ownCacheControl: cacheControl || null }
  }

  function store(gen: string, key: string, answer: Answer, wanted: number) {
    if (gen !== generation) return
    const entry = entries.get(key) ?? { answers: [], turn: 0, bytes: key.length }
    if (entry.answers.length >= wanted) return
    entry.answers.push(answer)
    entry.bytes += answer.gzipped.length * (answer.aroundNonce ? 2 : 1) + 200
    entries.set(key, entry)
  }

  async function serve(req: express.Request, res: express.Response) {
    const url = new URL(`${req.protocol}://${req.host}${req.originalUrl}`)
    const consent = readConsent(req.headers.cookie)
    const key = `${consent ? `a${Number(consent.analytics)}m${Number(consent.advertising)}` : '-'} ${url.href}`
    const shuffled = isShuffled(url)
    const wanted = shuffled ? shuffleVariants : 1
    const cacheControl = consent || shuffled ? PRIVATE_CACHE_CONTROL : SHARED_CACHE_CONTROL
    const gen = await currentGeneration()

    const entry = gen ? entries.get(key) : undefined
    if (entry && entry.answers.length >= wanted) {
      // Shuffled pages in turn: two visits in a row never get the same one.
      const answer = entry.answers[entry.turn++ % entry.answers.length]!
      await send(req, res, nonceOf(res), answer, { cacheControl, status: 'hit' })
      return
    }

    // A page the same for everyone already being rendered: wait for that render instead.
    const pending = gen && !shuffled ? renders.get(key) : undefined
    const shared = pending && (await pending.catch(() => null))
    if (shared && shared.setCookies.length === 0) {
      await send(req, res, nonceOf(res), shared.answer, {
        cacheControl: shared.storable ? cacheControl : null,
        ownCacheControl: shared.ownCacheControl,
        status: 'miss',
      })
      return
    }

    const rendering = renderAnswer(url, consent, req, res)
    if (gen && !shuffled) {
      renders.set(key, rendering)
      void rendering
        .catch(() => null)
        .finally(() => {
          if (renders.get(key) === rendering) renders.delete(key)
        })
    }
    const rendered = await rendering
    if (rendered.storable && gen) store(gen, key, rendered.answer, wanted)
    for (const cookie of rendered.setCookies) res.append('Set-Cookie', cookie)
    await send(req, res, nonceOf(res), rendered.answer, {
      cacheControl: rendered.storable ? cacheControl : null,
      ownCacheControl: rendered.ownCacheControl,
      status: 'miss',
    })
  }

  const middleware: express.RequestHandler = (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !CACHEABLE_PATHS.some((p) => p.test(req.path))) {
      next()
      return
    }
    if (hasStaffCookie(req.headers.cookie) || hasAdminCookie(req.headers.cookie)) {
      res.setHeader('Cache-Control', BYPASS_CACHE_CONTROL)
      res.setHeader(CACHE_STATUS_HEADER, 'bypass')
      next()
      return
    }
    serve(req, res).catch((error: unknown) => {
      // The cache is an optimisation: when it fails (the counter unreadable, a host that is no
      // URL), the app answers as it would without it.
      if (!res.headersSent) next()
      else res.destroy(error instanceof Error ? error : undefined)
    })
  }

  return { middleware, clear: () => entries.clear() }
}

/** The home page's first page of "Seguro te gusta" is shuffled per visit; later pages carry their seed. */
function isShuffled(url: URL): boolean {
  return (url.pathname === '/' || url.pathname === '/_.data') && !url.searchParams.has('cursor')
}

/**
 * What the app gets to render: the page's URL and the consent answer reduced to what the page shows,
 * nothing else of the visitor's, so one render stands for everyone with the same key.
 */
function renderRequest(url: URL, consent: Consent | null): Request {
  const headers = new Headers()
  if (consent) {
    const { version, analytics, advertising } = consent
    headers.set(
      'Cookie',
      `${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent({ version, analytics, advertising }))}`,
    )
  }
  return new Request(url, { headers })
}

const ADMIN_COOKIE_PATTERN = new RegExp(`(?:^|;)\\s*(?:__Host-)?${ADMIN_SESSION_COOKIE}=`)

/** Whether the request carries an admin session cookie (valid or not: either way no shared page). */
function hasAdminCookie(cookieHeader: string | undefined): boolean {
  return ADMIN_COOKIE_PATTERN.test(cookieHeader ?? '')
}

async function send(
  req: express.Request,
  res: express.Response,
  nonce: string,
  answer: Answer,
  {
    cacheControl,
    ownCacheControl = null,
    status,
  }: { cacheControl: string | null; ownCacheControl?: string | null; status: 'hit' | 'miss' },
) {
  const gzipped = req.acceptsEncodings('gzip', 'identity') === 'gzip'
  const etag = gzipped ? `${answer.etag.slice(0, -1)}-gzip"` : answer.etag
  res.setHeader(CACHE_STATUS_HEADER, status)
  for (const [name, value] of answer.headers) res.setHeader(name, value)
  res.setHeader('Vary', 'Accept-Encoding, Cookie')
  if (cacheControl) {
    res.setHeader('Cache-Control', cacheControl)
    res.setHeader('ETag', etag)
    if (matchesEtag(req.headers['if-none-match'], [etag, answer.etag])) {
      res.status(304).end()
      return
    }
  } else if (ownCacheControl) {
    // Not kept, so no ETag either: a 304 could hand back an older redirect with the same empty body.
    res.setHeader('Cache-Control', ownCacheControl)
  }
  const body = await bodyFor(answer, nonce, gzipped)
  if (gzipped) res.setHeader('Content-Encoding', 'gzip')
  res.setHeader('Content-Length', body.length)
  res.status(answer.status)
  if (req.method === 'HEAD') res.end()
  else res.end(body)
}

/**
 * The kept body as this answer sends it: with this request's nonce in place of the one it was
 * rendered with (the policy in the header is this request's). A client that takes gzip gets it put
 * together from the pieces kept around the nonce (nonce-gzip.server.ts), nothing compressed again;
 * otherwise the page is inflated, the nonce replaced, and compressed again when wanted. The ETag
 * stays the kept body's: a 304 carries no policy (server/content-security-policy.ts), so the
 * browser keeps the nonce and policy that go with the body it has.
 */
async function bodyFor(answer: Answer, nonce: string, gzipped: boolean): Promise<Buffer> {
  if (!answer.nonce || answer.nonce === nonce) return gzipped ? answer.gzipped : gunzip(answer.gzipped)
  const assembled = gzipped && answer.aroundNonce ? gzipWithNonce(answer.aroundNonce, nonce) : null
  if (assembled) return assembled
  const body = Buffer.from(withNonce((await gunzip(answer.gzipped)).toString('utf8'), answer.nonce, nonce))
  return gzipped ? gzip(body, { level: zlib.constants.Z_BEST_SPEED }) : body
}

function matchesEtag(ifNoneMatch: string | undefined, etags: string[]): boolean {
  if (!ifNoneMatch) return false
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || etags.includes(tag))
}
