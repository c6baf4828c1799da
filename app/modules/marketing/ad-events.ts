/**
 * The storefront's one call for Meta Pixel events: `trackAdEvent(name, data)`. With `MetaPixel`
 * it is all the first-visit JavaScript carries of the pixel: events go to
 * `window.vitrinaAdEvents`, which only exists once `MetaPixel` decided the pixel may run (a pixel
 * id, advertising consent, no staff cookie): a plain array while the pixel script (`pixel.ts`)
 * loads, that script's sender once it runs. Without it events are dropped. No imports.
 */

/** The pixel's standard events the shop sends (spec §7); PageView stays in the browser. */
export const AD_EVENT_NAMES = ['Search', 'AddToCart', 'Contact', 'InitiateCheckout', 'Purchase'] as const
export type AdEventName = (typeof AD_EVENT_NAMES)[number]

export type AdEventData = Record<string, string | number | string[] | undefined>

export type AdEvent = { name: AdEventName | 'PageView'; data: AdEventData; eventId?: string }

/** Meta's click id (`fbclid`): base64url, letters, digits, `_` and `-`; anything else is not Meta's. */
export const FBCLID_PATTERN = /^[\w-]{1,500}$/

/** Where events wait (an array) or go (the pixel's sender); absent: nowhere. */
export type AdEventTarget = { push(event: AdEvent): unknown }

export type AdEventWindow = Window & { vitrinaAdEvents?: AdEventTarget }

/**
 * Sends an event to the pixel, if it may run. Purchase gives its eventID (the order number, which
 * the server's event uses too); the pixel script gives the others a new UUID.
 */
export function trackAdEvent(name: AdEvent['name'], data: AdEventData = {}, eventId?: string) {
  if (typeof window !== 'undefined') (window as AdEventWindow).vitrinaAdEvents?.push({ name, data, eventId })
}
