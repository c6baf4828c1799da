import { eq, lt } from 'drizzle-orm'
import type { Database, DbOrTx, Tx } from '#app/db/client.server.ts'
import {
  deleteJobsCreatedBefore,
  type JobQueue,
  type MetaBrowserIdentifiers,
  type MetaEventJob,
} from '#app/jobs/jobs.server.ts'
import { allowsAdvertising } from '#app/modules/analytics/consent.ts'
import { hasStaffCookie } from '#app/modules/auth/staff-device.ts'
import { lineNetOf } from '#app/modules/order/discounts.ts'
import { getOrder, recordOrderEvent } from '#app/modules/order/order.server.ts'
import { cookieValue } from '#app/utils/cookies.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { MetaApiError, type MetaCapiClient, type MetaServerEvent } from './meta-capi.server.ts'
import { RATE_LIMITS, type RateLimits } from '#app/modules/rate-limits/rate-limits.server.ts'
import { FBCLID_PATTERN } from './ad-events.ts'
import { metaOrderContexts } from './schema.ts'
import { metaUserData, normalizePhone } from './user-data.server.ts'
import { BROWSER_EVENT_NAMES, META_EVENT_MESSAGES, type BrowserEventInput } from './validators.ts'
import { logger } from '#app/utils/logger.server.ts'

/** Meta refuses a batch holding an event older than 7 days; a few minutes' margin for transit. */
export const MAX_EVENT_AGE_SECONDS = 7 * 24 * 3600 - 5 * 60

/** Order contexts (and event jobs) older than this can no longer give an event Meta takes. */
const CONTEXT_MAX_AGE_MS = 8 * 24 * 3600 * 1000

/** The shop's Meta settings: null without META_PIXEL_ID (no pixel, no server events). */
export type MetaSettings = {
  pixelId: string
  /** OWNER_EMAIL: the owner's own orders are never sent. */
  ownerEmail?: string
  /** PUBLIC_URL: events name pages of this origin only. */
  publicUrl: string
}

export type MarketingDeps = {
  db: DbOrTx
  jobs: JobQueue
  settings: MetaSettings | null
  limits: Pick<RateLimits, 'take'>
}

const nowSeconds = (now: Date) => Math.floor(now.getTime() / 1000)

/**
 * A browser that signed in to the back office (the staff-device cookie) or carries an admin
 * session (a server-only check: the session cookie is HttpOnly).
 */
export function isStaffBrowser(cookieHeader: string): boolean {
  return hasStaffCookie(cookieHeader) || /(^|;\s*)(__Host-)?vitrina_admin=/.test(cookieHeader)
}

/** `_fbp` and `_fbc` as Meta writes them: `fb.<subdomain index>.<ms>.<random or fbclid…>`. */
const BROWSER_ID_PATTERN = /^fb\.\d\.\d{1,16}\.[\w.-]{1,500}$/
/** What Express gives as `req.ip`: IPv4, IPv6 (with `::ffff:` or a zone). */
const ADDRESS_PATTERN = /^[\w.:%-]{1,64}$/
// eslint-disable-next-line no-control-regex -- removing them is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g

const browserId = (value: string | null | undefined) =>
  value && BROWSER_ID_PATTERN.test(value) ? value : null

/**
 * `_fbc` as Meta builds it, `fb.1.<ms>.<fbclid>`, from the first of these URLs with an `fbclid`
 * of Meta's form (kept exactly as it came); another fbclid is ignored.
 */
export function fbcFromUrls(urls: (string | null | undefined)[], now = new Date()): string | null {
  for (const url of urls) {
    if (!url) continue
    let fbclid: string | null
    try {
      fbclid = new URL(url).searchParams.get('fbclid')
    } catch {
      continue
    }
    if (fbclid && FBCLID_PATTERN.test(fbclid)) return `fb.1.${now.getTime()}.${fbclid}`
  }
  return null
}

/** What a storefront request tells about tracking: consent, staff, and the browser's identifiers. */
export type TrackingRequest = {
  advertising: boolean
  staff: boolean
  browser: MetaBrowserIdentifiers
}

/**
 * The one place browser identifiers are read: whatever the browser sent that is not of Meta's form
 * (`_fbp`, `_fbc`, fbclid) is dropped, and the user agent loses control characters, so nothing a
 * link or a cookie carries can make the checkout's insert or a job's payload fail.
 */
export function readTrackingRequest(
  request: Request,
  clientAddress: string | null,
  urlsForFbc: (string | null | undefined)[] = [],
  now = new Date(),
): TrackingRequest {
  const cookieHeader = request.headers.get('Cookie') ?? ''
  const userAgent = request.headers.get('User-Agent')?.replace(CONTROL_CHARS, '').trim().slice(0, 512)
  return {
    advertising: allowsAdvertising(cookieHeader),
    staff: isStaffBrowser(cookieHeader),
    browser: {
      clientIpAddress: clientAddress && ADDRESS_PATTERN.test(clientAddress) ? clientAddress : null,
      clientUserAgent: userAgent || null,
      fbp: browserId(cookieValue(cookieHeader, '_fbp')),
      fbc: browserId(cookieValue(cookieHeader, '_fbc')) ?? fbcFromUrls(urlsForFbc, now),
    },
  }
}

function sameOrigin(url: string, publicUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(publicUrl).origin
  } catch {
    return false
  }
}

/**
 * A pixel event from a shopper's browser, forwarded to the Conversions API as a job with the same
 * event id. Refused (Refusal, nothing enqueued) without Meta configured, without advertising
 * consent, from staff browsers, for pages of another site, or past the client's rate limit.
 */
export async function recordBrowserEvent(
  deps: MarketingDeps,
  tracking: TrackingRequest,
  input: BrowserEventInput,
  now = new Date(),
) {
  const { settings } = deps
  if (!settings) throw new Refusal(META_EVENT_MESSAGES.off, { status: 404 })
  if (!(BROWSER_EVENT_NAMES as readonly string[]).includes(input.eventName))
    throw new Refusal(META_EVENT_MESSAGES.badName, { status: 400 })
  if (tracking.staff) throw new Refusal(META_EVENT_MESSAGES.staff, { status: 403 })
  if (!tracking.advertising) throw new Refusal(META_EVENT_MESSAGES.noConsent, { status: 403 })
  if (!sameOrigin(input.eventSourceUrl, settings.publicUrl))
    throw new Refusal(META_EVENT_MESSAGES.badUrl, { status: 400 })
  if (!(await deps.limits.take('metaEvents', tracking.browser.clientIpAddress ?? null)))
    throw new Refusal(RATE_LIMITS.metaEvents.message, { status: 429 })
  await deps.jobs.send(deps.db, 'meta-event', {
    kind: 'browser',
    eventName: input.eventName,
    eventId: input.eventId,
    eventTime: nowSeconds(now),
    eventSourceUrl: input.eventSourceUrl,
    customData: input.customData,
    browser: tracking.browser,
  })
  return { queued: input.eventId }
}

/** What the checkout keeps for the order's Purchase: null when nothing may be sent. */
export type CheckoutTracking = {
  ownerEmail?: string
  eventSourceUrl: string
  browser: MetaBrowserIdentifiers
}

/**
 * Read by the checkout route from its request: only with Meta configured, advertising consent and
 * a browser that is not staff's.
 */
export function checkoutTracking(
  settings: MetaSettings | null,
  request: Request,
  clientAddress: string | null,
): CheckoutTracking | null {
  if (!settings) return null
  const eventSourceUrl = `${settings.publicUrl}${new URL(request.url).pathname}`
  const tracking = readTrackingRequest(request, clientAddress, [request.headers.get('Referer')])
  if (!tracking.advertising || tracking.staff) return null
  return { ownerEmail: settings.ownerEmail, eventSourceUrl, browser: tracking.browser }
}

/**
 * In the checkout's transaction: keeps the browser's identifiers for the order's Purchase, and
 * enqueues it now for cash on delivery (the order is the purchase); an online or transfer payment
 * sends it once paid (`enqueuePaidOrderPurchase`). The owner's own orders are left out.
 */
export async function keepCheckoutTracking(
  tx: Tx,
  jobs: JobQueue,
  order: { id: string; paymentMethod: string; customerEmail: string },
  tracking: CheckoutTracking | null | undefined,
  now = new Date(),
) {
  if (!tracking) return
  const owner = tracking.ownerEmail?.trim().toLowerCase()
  if (owner && order.customerEmail.trim().toLowerCase() === owner) return
  await tx.insert(metaOrderContexts).values({
    orderId: order.id,
    eventSourceUrl: tracking.eventSourceUrl,
    clientIpAddress: tracking.browser.clientIpAddress,
    clientUserAgent: tracking.browser.clientUserAgent,
    fbp: tracking.browser.fbp,
    fbc: tracking.browser.fbc,
    createdAt: now,
  })
  if (order.paymentMethod === 'acordar')
    await jobs.send(tx, 'meta-event', { kind: 'purchase', orderId: order.id, eventTime: nowSeconds(now) })
}

/** In the transaction that marks an order paid (online, or a transfer): its Purchase, if checkout kept a context. */
export async function enqueuePaidOrderPurchase(tx: Tx, jobs: JobQueue, orderId: string, now = new Date()) {
  const [context] = await tx
    .select({ orderId: metaOrderContexts.orderId })
    .from(metaOrderContexts)
    .where(eq(metaOrderContexts.orderId, orderId))
  if (context) await jobs.send(tx, 'meta-event', { kind: 'purchase', orderId, eventTime: nowSeconds(now) })
}

/** Pesos as Meta reads `value`: the order's centavos over 100. */
const pesos = (centavos: number) => centavos / 100

/** How long after placement the success page still gives a cash-on-delivery order's Purchase. */
const PLACEMENT_WINDOW_MS = 60 * 60 * 1000

/** The pixel's Purchase for the success page: eventID the order number, data in pesos. */
export type PagePurchase = {
  eventId: string
  data: { currency: 'COP'; value: number; content_ids: string[]; content_type: 'product'; num_items: number }
}

/**
 * The Purchase the success page may give the pixel: a cash-on-delivery order just placed (open, and
 * within the hour), or an order paid online or by a transfer the shop confirmed. An unpaid, failed or cancelled order, or
 * an old link, gives none (the page's URL alone proves nothing).
 */
export function pagePurchase(
  order: {
    number: number
    status: string
    paymentMethod: string
    createdAt: Date
    total: number
    items: { productSku: string; quantity: number }[]
  },
  now = new Date(),
): PagePurchase | null {
  const placedNow =
    order.paymentMethod === 'acordar' &&
    order.status === 'pendiente de pago' &&
    now.getTime() - order.createdAt.getTime() < PLACEMENT_WINDOW_MS
  const paidOnline =
    order.paymentMethod !== 'acordar' && (order.status === 'pagado' || order.status === 'Completado')
  if (!placedNow && !paidOnline) return null
  return {
    eventId: String(order.number),
    data: {
      currency: 'COP',
      value: pesos(order.total),
      content_ids: order.items.map((item) => item.productSku),
      content_type: 'product',
      num_items: order.items.reduce((sum, item) => sum + item.quantity, 0),
    },
  }
}

/** The Purchase of one order, from the order and what checkout kept; null when either is gone. */
async function purchaseEvent(
  db: DbOrTx,
  orderId: string,
  eventTime: number,
): Promise<MetaServerEvent | null> {
  const order = await getOrder(db, orderId)
  const [context] = await db.select().from(metaOrderContexts).where(eq(metaOrderContexts.orderId, orderId))
  if (!order || !context) return null
  const phone = normalizePhone(order.customerPhone)
  return {
    event_name: 'Purchase',
    event_time: eventTime,
    // The pixel's eventID on the success page is the order number too.
    event_id: String(order.number),
    event_source_url: context.eventSourceUrl,
    action_source: 'website',
    user_data: metaUserData(
      {
        email: order.customerEmail,
        phone: order.customerPhone,
        firstName: order.customerName,
        lastName: order.customerLastName,
        city: order.customerCity,
        department: order.customerDepartment,
        // The phone is how the shop knows a customer across orders (hold limits count by it).
        externalId: phone ?? order.id,
      },
      context,
    ),
    custom_data: {
      currency: 'COP',
      value: pesos(order.total),
      content_type: 'product',
      content_ids: order.items.map((item) => item.productSku),
      // What each unit was paid, net of the line's discounts (value is the discounted total).
      contents: order.items.map((item) => ({
        id: item.productSku,
        quantity: item.quantity,
        item_price: pesos(Math.round(lineNetOf(item) / item.quantity)),
      })),
      num_items: order.items.reduce((sum, item) => sum + item.quantity, 0),
      order_id: String(order.number),
    },
  }
}

/**
 * Scheduled job (`meta-purge`, hourly): what the shop kept for Meta goes once older than 8 days,
 * whether or not events flow: checkout contexts no Purchase can use any more, and the event jobs
 * (their payloads hold the browser's IP, user agent and cookies) wherever pg-boss keeps them.
 */
export async function purgeMetaData(database: Database, now = new Date()) {
  const before = new Date(now.getTime() - CONTEXT_MAX_AGE_MS)
  const contexts = await database.db
    .delete(metaOrderContexts)
    .where(lt(metaOrderContexts.createdAt, before))
    .returning({ orderId: metaOrderContexts.orderId })
  const jobs = await deleteJobsCreatedBefore(database, 'meta-event', before)
  return { contexts: contexts.length, jobs }
}

export type SendDeps = { db: DbOrTx; capi: MetaCapiClient | null; now?: () => Date }

/**
 * Job: sends one event to the Conversions API. Without a token it records that it skipped; an
 * event older than 7 days is dropped with a log (Meta would refuse the batch); a refusal a retry
 * cannot fix is recorded; anything else throws, so the queue retries it.
 */
export async function sendMetaEvent(deps: SendDeps, job: MetaEventJob) {
  const now = deps.now?.() ?? new Date()
  const orderId = job.kind === 'purchase' ? job.orderId : null
  const note = async (type: string, message: string, data?: Record<string, unknown>) => {
    if (orderId) await recordOrderEvent(deps.db, orderId, type, message, data)
  }
  const event: MetaServerEvent | null =
    job.kind === 'purchase'
      ? await purchaseEvent(deps.db, job.orderId, job.eventTime)
      : {
          event_name: job.eventName,
          event_time: job.eventTime,
          event_id: job.eventId,
          event_source_url: job.eventSourceUrl,
          action_source: 'website',
          user_data: metaUserData({}, job.browser),
          custom_data: job.customData,
        }
  if (!event) return { skipped: 'pedido o contexto inexistente' }
  const done = async () => {
    if (orderId) await deps.db.delete(metaOrderContexts).where(eq(metaOrderContexts.orderId, orderId))
  }

  const age = nowSeconds(now) - event.event_time
  if (age > MAX_EVENT_AGE_SECONDS) {
    logger.warn(
      `[meta] evento ${event.event_name} ${event.event_id} descartado: tiene ${Math.floor(age / 3600)} h y Meta no acepta eventos de más de 7 días`,
    )
    await note('meta-dropped', `Evento Purchase para Meta descartado: pasaron más de 7 días.`)
    await done()
    return { dropped: event.event_id }
  }
  if (!deps.capi) {
    await note('meta-skipped', 'Evento Purchase para Meta omitido: META_CAPI_TOKEN no está configurado.')
    await done()
    return { skipped: 'sin configuración' }
  }
  try {
    const answer = await deps.capi.send([event])
    await note('meta-sent', 'Evento Purchase enviado a Meta (API de conversiones).', {
      fbtraceId: answer.fbtraceId,
      ...(deps.capi.testEventCode ? { testEventCode: deps.capi.testEventCode } : {}),
    })
    await done()
    return { sent: event.event_id, fbtraceId: answer.fbtraceId }
  } catch (error) {
    if (error instanceof MetaApiError && !error.retryable) {
      logger.warn(`[meta] evento ${event.event_name} ${event.event_id} rechazado: ${error.message}`)
      await note('meta-failed', `Meta rechazó el evento Purchase: ${error.message}`, {
        code: error.code,
        fbtraceId: error.fbtraceId,
      })
      await done()
      return { failed: error.message }
    }
    throw error
  }
}
