/**
 * The storefront's one call for Meta Pixel events: `trackAdEvent(name, data)`. It is all the
 * first-visit JavaScript carries of the pixel; the pixel itself (`pixel.ts`) is a dynamic import
 * that `MetaPixel` loads only with a pixel id, advertising consent and no staff cookie. Until then
 * events are dropped (no consent) or held (the pixel is on its way). Shared by client and server:
 * no imports.
 */

/** The pixel's standard events the shop sends (spec §7); PageView stays in the browser. */
export const AD_EVENT_NAMES = ['Search', 'AddToCart', 'Contact', 'InitiateCheckout', 'Purchase'] as const
export type AdEventName = (typeof AD_EVENT_NAMES)[number]

export type AdEventData = Record<string, string | number | string[] | undefined>

export type AdEvent = { name: AdEventName | 'PageView'; data: AdEventData; eventId: string }

type Sink = (event: AdEvent) => void

let sink: Sink | null = null
let held: AdEvent[] | null = null

/** An id for the pixel's `eventID`, shared with the server's `event_id` so Meta counts one. */
export function newEventId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`
}

/** Where a visit that came from a Meta ad keeps its landing URL (its `fbclid` builds `_fbc`). */
export const LANDING_KEY = 'vitrina.meta-landing'

/**
 * Remembers, in this tab only, the landing URL of a visit that came with Meta's `fbclid`: it
 * leaves the browser only if the shopper later accepts advertising.
 */
export function rememberAdLanding() {
  try {
    if (new URLSearchParams(window.location.search).has('fbclid') && !sessionStorage.getItem(LANDING_KEY))
      sessionStorage.setItem(LANDING_KEY, JSON.stringify({ url: window.location.href, at: Date.now() }))
  } catch {
    // Storage refused (private mode): no _fbc then.
  }
}

/** Sends an event to the pixel, if it runs; `eventId` given for Purchase (the order number). */
export function trackAdEvent(name: AdEventName | 'PageView', data: AdEventData = {}, eventId = newEventId()) {
  const event = { name, data, eventId }
  if (sink) sink(event)
  else if (held && held.length < 20) held.push(event)
}

/** The pixel is loading: hold events until it runs. */
export function holdAdEvents() {
  held ??= []
}

/** The pixel stopped (consent withdrawn): events are dropped again. */
export function clearAdEventSink() {
  sink = null
  held = null
}

/** The pixel runs: it takes the held events and every later one. */
export function setAdEventSink(next: Sink) {
  sink = next
  const waiting = held ?? []
  held = null
  for (const event of waiting) next(event)
}
