import { useCallback, useSyncExternalStore } from 'react'
import { trackAdEvent } from '#app/modules/marketing/ad-events.ts'
import { cartCookieAssignment, cartCookieValue } from './cart-cookie.ts'
import {
  addToLines,
  cartLinesOf,
  removeLine,
  setLineQuantity,
  totalQuantity,
  type CartChange,
  type CartLine,
  type CartProduct,
} from './cart.ts'

/**
 * The shopper's cart lines, read from and written to the cart cookie (0018-cart-in-a-cookie.md), so
 * a form sent to the server before the scripts ran changes the same cart the scripts then show.
 */
const EMPTY: CartLine[] = []
const listeners = new Set<() => void>()
let cache: { raw: string; lines: CartLine[] } | undefined
/**
 * Whether components see the cookie's lines yet. They are read in a task of their own just after
 * the page has hydrated, not inside hydration: until then every component sees the cart the server
 * rendered (empty, except on the cart and checkout pages, which read the cookie on the server).
 */
let shown = false
/** Tells the shop's other tabs that the cart changed (a cookie change fires no event there). */
let channel: BroadcastChannel | null | undefined

function read(): CartLine[] {
  if (typeof document === 'undefined') return EMPTY
  const raw = cartCookieValue(document.cookie)
  if (!cache || cache.raw !== raw) {
    const lines = cartLinesOf(document.cookie)
    // An empty cart is the server's snapshot itself: nothing to render again.
    cache = { raw, lines: lines.length ? lines : EMPTY }
  }
  return cache.lines
}

function otherTabs(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('vitrina-carrito')
    channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (typeof event.data === 'string') showOnceArrived(event.data)
    })
  }
  return channel
}

/**
 * Another tab wrote `written` to the cart cookie. Its message can arrive before this tab's
 * document sees that cookie (the browser stores the cookie and delivers the message by separate
 * ways), so the new cart is shown once the cookie is here, looked for a few times.
 */
function showOnceArrived(written: string, triesLeft = 40) {
  if (cartCookieValue(document.cookie) === written || triesLeft <= 0) return notify()
  setTimeout(showOnceArrived, 50, written, triesLeft - 1)
}

function notify() {
  for (const listener of listeners) listener()
}

function write(lines: CartLine[]) {
  document.cookie = cartCookieAssignment(lines, window.location.protocol === 'https:')
  shown = true
  otherTabs()?.postMessage(cartCookieValue(document.cookie))
  notify()
}

function show() {
  if (shown) return
  shown = true
  notify()
}

/** A cart changed by a form in another tab, or by the server, shows when this tab is looked at. */
function onVisible() {
  if (document.visibilityState === 'visible') notify()
}

/** Calls `listener` whenever the cart's lines may have changed, here or in another tab. */
export function subscribeToCart(listener: () => void) {
  if (!listeners.size) {
    if (!shown) setTimeout(show)
    otherTabs()
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('pageshow', notify)
  }
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
    if (listeners.size) return
    document.removeEventListener('visibilitychange', onVisible)
    window.removeEventListener('pageshow', notify)
  }
}

/**
 * The cart's lines. `rendered`: the lines the server drew the page with (the cart and checkout
 * pages read them from the cookie), kept until the cookie itself is read just after hydration.
 */
export function useCartLines(rendered: CartLine[] = EMPTY): CartLine[] {
  const serverSnapshot = useCallback(() => rendered, [rendered])
  const clientSnapshot = useCallback(() => (shown ? read() : rendered), [rendered])
  return useSyncExternalStore(subscribeToCart, clientSnapshot, serverSnapshot)
}

/**
 * How many units the cart holds, or null while the page's scripts have not read the cookie yet (a
 * page served to everyone alike, or without JavaScript, cannot know it: better no number than 0).
 */
export function useCartCount(): number | null {
  return useSyncExternalStore(subscribeToCart, countSnapshot, () => null)
}

let countCache: { lines: CartLine[]; count: number } | undefined
function countSnapshot(): number | null {
  if (!shown) return null
  const lines = read()
  if (countCache?.lines !== lines) countCache = { lines, count: totalQuantity(lines) }
  return countCache.count
}

export type CartNotice = Pick<CartChange, 'message' | 'tone'>
const noticeListeners = new Set<(notice: CartNotice) => void>()

/**
 * Every add, quantity change or removal says how it went (spec §8 texts). The UI listens and shows
 * it (a toast); the store itself knows nothing of the UI.
 */
export function onCartNotice(listener: (notice: CartNotice) => void) {
  noticeListeners.add(listener)
  return () => {
    noticeListeners.delete(listener)
  }
}

function apply(change: CartChange): boolean {
  if (change.ok) write(change.lines)
  for (const listener of noticeListeners) listener({ message: change.message, tone: change.tone })
  return change.ok
}

export const cart = {
  add: (product: CartProduct | null | undefined, quantity = 1) => {
    const added = apply(addToLines(read(), product, quantity))
    if (added && product)
      trackAdEvent('AddToCart', {
        content_ids: [product.sku],
        value: ((product.finalPrice ?? 0) * quantity) / 100,
      })
    return added
  },
  setQuantity: (product: CartProduct | null | undefined, quantity: number) =>
    apply(setLineQuantity(read(), product, quantity)),
  remove: (sku: string) => apply(removeLine(read(), sku)),
  /** Drops lines silently, e.g. products no longer sold. */
  drop: (skus: string[]) => write(read().filter((line) => !skus.includes(line.sku))),
  clear: () => write([]),
  lines: read,
}
