/**
 * The Meta Pixel, loaded with a dynamic import only once the shopper accepted advertising (see
 * `MetaPixel`). It sets up `fbq`, loads Meta's script, and from then on takes every
 * `trackAdEvent`: the pixel gets it with its `eventID`, and the shop's server gets the same event
 * (`POST /api/eventos-meta`) for the Conversions API, except PageView (browser only) and Purchase
 * (the server sends it from the order).
 */
import { clearAdEventSink, LANDING_KEY, setAdEventSink, type AdEvent } from './ad-events.ts'

type Fbq = ((...args: unknown[]) => void) & {
  callMethod?: (...args: unknown[]) => void
  queue: unknown[][]
  push: Fbq
  loaded: boolean
  version: string
  disablePushState?: boolean
}

type PixelWindow = Window & { fbq?: Fbq; _fbq?: Fbq }

export type PixelConfig = { id: string; scriptUrl: string }

export const META_EVENTS_PATH = '/api/eventos-meta'

/** Meta's `_fbc` lifetime: 90 days. */
const FBC_MAX_AGE_SECONDS = 90 * 24 * 3600

function landing(): { url: string; at: number } | null {
  try {
    return JSON.parse(sessionStorage.getItem(LANDING_KEY) ?? 'null') as { url: string; at: number } | null
  } catch {
    return null
  }
}

/** `_fbc` = `fb.1.<ms>.<fbclid>` from the landing URL, when the browser has none (fbclid as it came). */
function keepClickId() {
  if (/(^|;\s*)_fbc=/.test(document.cookie)) return
  const seen = landing()
  const fbclid = seen && new URL(seen.url).searchParams.get('fbclid')
  if (!seen || !fbclid) return
  const secure = window.location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `_fbc=fb.1.${seen.at}.${fbclid}; Max-Age=${FBC_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`
}

function sendToServer(event: AdEvent) {
  const body = JSON.stringify({
    eventName: event.name,
    eventId: event.eventId,
    eventSourceUrl: window.location.href,
    landingUrl: landing()?.url,
    customData: event.data,
  })
  // keepalive: a click that leaves the page (the WhatsApp button) still gets its event out.
  fetch(META_EVENTS_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => {
    console.warn('[meta] no se pudo enviar el evento al servidor')
  })
}

/** Starts the pixel (once), or turns it back on after consent was withdrawn and given again. */
export function startPixel(config: PixelConfig) {
  const w = window as PixelWindow
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
    // PageView is sent by us on every route change, with its own eventID.
    fbq.disablePushState = true
    w.fbq = fbq
    w._fbq ??= fbq
    const script = document.createElement('script')
    script.async = true
    script.src = config.scriptUrl
    script.dataset.metaPixel = ''
    document.head.appendChild(script)
    // No automatic button and page-metadata events: only what the shop sends.
    fbq('set', 'autoConfig', false, config.id)
    fbq('init', config.id)
  }
  keepClickId()
  setAdEventSink((event) => {
    const fbq = (window as PixelWindow).fbq
    if (!fbq) return console.warn('[meta] el píxel no está definido')
    fbq('track', event.name, event.data, { eventID: event.eventId })
    if (event.name !== 'PageView' && event.name !== 'Purchase') sendToServer(event)
  })
}

/** Consent withdrawn: the pixel stops sending, and so do we. */
export function stopPixel() {
  ;(window as PixelWindow).fbq?.('consent', 'revoke')
  clearAdEventSink()
}
