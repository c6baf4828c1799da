/**
 * The Meta Pixel: a script of its own that `MetaPixel` adds to the page only once the shopper
 * accepted advertising (its URL's query carries the pixel id and Meta's script URL). It sets up `fbq`,
 * loads Meta's script, sends a PageView per page, follows later consent changes (revoke, grant),
 * and takes every `trackAdEvent`: the pixel gets it with its `eventID`, and the shop's server gets
 * the same event (`POST /api/eventos-meta`) for the Conversions API, except PageView (browser
 * only) and Purchase (the server sends it from the order).
 *
 * Built as a standalone bundle (`?worker&url`, though it runs on the page: it shares no chunk with
 * the app) and loaded with a script tag rather than `import()`, whose preload wrapper the first
 * visit would otherwise need (it does today only because the consent script is an `import()`).
 */
import { CONSENT_CHANGE_EVENT, isAdminPath, readConsent } from '#app/modules/analytics/consent.ts'
import { hasStaffCookie } from '#app/modules/auth/staff-device.ts'
import { FBCLID_PATTERN, type AdEvent, type AdEventWindow } from './ad-events.ts'

type Fbq = ((...args: unknown[]) => void) & {
  callMethod?: (...args: unknown[]) => void
  queue: unknown[][]
  push: Fbq
  loaded: boolean
  version: string
  disablePushState?: boolean
}

type PixelWindow = AdEventWindow & { fbq?: Fbq; _fbq?: Fbq }

const META_EVENTS_PATH = '/api/eventos-meta'

/** Meta's `_fbc` lifetime: 90 days. */
const FBC_MAX_AGE_SECONDS = 90 * 24 * 3600

const w = window as PixelWindow
// MetaPixel adds this script as `…/pixel-<hash>.js?id=<pixel id>&scriptUrl=<Meta's script>`.
const config = new URL((document.currentScript as HTMLScriptElement | null)?.src ?? location.href)
  .searchParams
const pixelId = config.get('id') ?? ''
const scriptUrl = config.get('scriptUrl') ?? ''

/** The pixel's `eventID`, the server's `event_id`. randomUUID needs https or localhost. */
function newEventId() {
  return crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`.replace('0.', '')
}

/**
 * `_fbc` = `fb.1.<ms>.<fbclid>` when the page came from a Meta ad and the browser has none yet
 * (the fbclid kept exactly as it came), as Meta's script does; the server reads it at checkout.
 * An fbclid not of Meta's form (a hand-made link) is not kept.
 */
function keepClickId() {
  const fbclid = new URLSearchParams(location.search).get('fbclid')
  if (!fbclid || !FBCLID_PATTERN.test(fbclid) || /(^|;\s*)_fbc=/.test(document.cookie)) return
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `_fbc=fb.1.${Date.now()}.${fbclid}; Max-Age=${FBC_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`
}

function sendToServer(event: AdEvent) {
  // keepalive: a click that leaves the page (the WhatsApp button) still gets its event out.
  fetch(META_EVENTS_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      eventName: event.name,
      eventId: event.eventId,
      eventSourceUrl: location.href,
      customData: event.data,
    }),
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => console.warn('[meta] no se pudo enviar el evento al servidor'))
}

function send(event: AdEvent) {
  if (!w.fbq) return console.warn('[meta] el píxel no está definido')
  event.eventId ??= newEventId()
  // Meta's standard parameters the call sites leave out: a value is in pesos, ids are products.
  if (event.data.value !== undefined) event.data.currency = 'COP'
  if (event.data.content_ids) event.data.content_type = 'product'
  w.fbq('track', event.name, event.data, { eventID: event.eventId })
  if (event.name !== 'PageView' && event.name !== 'Purchase') sendToServer(event)
}

let lastPage = ''
let running = false
/** A PageView whenever the page (path and query) changes: React Router moves by pushState. */
function pageView() {
  const page = location.pathname + location.search
  if (page === lastPage || !running) return
  lastPage = page
  w.vitrinaAdEvents?.push({ name: 'PageView', data: {} })
}

function allowed() {
  return (
    !isAdminPath(location.pathname) &&
    !hasStaffCookie(document.cookie) &&
    readConsent(document.cookie)?.advertising === true
  )
}

/** Starts the pixel, or turns it back on after consent was withdrawn and given again. */
function start() {
  const held = w.vitrinaAdEvents
  w.vitrinaAdEvents = { push: send }
  running = true
  if (w.fbq) {
    w.fbq('consent', 'grant')
  } else {
    // The queue Meta's script drains when it arrives.
    const fbq = function (...args: unknown[]) {
      if (fbq.callMethod) fbq.callMethod(...args)
      else fbq.queue.push(args)
    } as Fbq
    fbq.queue = []
    fbq.push = fbq
    fbq.loaded = true
    fbq.version = '2.0'
    // PageView is ours (one per page, with an eventID), not Meta's history tracking.
    fbq.disablePushState = true
    w.fbq = fbq
    w._fbq ??= fbq
    const script = document.createElement('script')
    script.async = true
    script.src = scriptUrl
    document.head.append(script)
    // No automatic button and page-metadata events: only what the shop sends.
    fbq('set', 'autoConfig', false, pixelId)
    fbq('init', pixelId)
  }
  keepClickId()
  lastPage = ''
  pageView()
  if (Array.isArray(held)) for (const event of held as AdEvent[]) send(event)
}

/** Consent withdrawn: the pixel stops sending, and so do we (events are dropped again). */
function stop() {
  w.fbq?.('consent', 'revoke')
  running = false
  // A target that drops, not none: MetaPixel must not add this script a second time.
  w.vitrinaAdEvents = { push: () => {} }
}

/**
 * Contact is any WhatsApp link (the floating button, the footer's), Search is focusing a search
 * box (spec §7): watched here rather than at each element, so the first visit carries nothing.
 */
function watchInteractions() {
  addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[href^="https://wa.me/"]')
    if (link) w.vitrinaAdEvents?.push({ name: 'Contact', data: {} })
  })
  addEventListener('focusin', (event) => {
    if ((event.target as Element | null)?.matches?.('input[type="search"]'))
      w.vitrinaAdEvents?.push({ name: 'Search', data: {} })
  })
}

if (pixelId && scriptUrl && allowed()) {
  start()
  watchInteractions()
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method].bind(history)
    history[method] = (...args: Parameters<History['pushState']>) => {
      original(...args)
      pageView()
    }
  }
  addEventListener('popstate', pageView)
  addEventListener(CONSENT_CHANGE_EVENT, () => {
    if (allowed()) start()
    else stop()
  })
} else {
  delete w.vitrinaAdEvents
}
