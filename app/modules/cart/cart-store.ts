import { useSyncExternalStore } from 'react'
import { trackAdEvent } from '#app/modules/marketing/ad-events.ts'
import { cartCookieAssignment } from './cart-cookie.ts'
import {
  addToLines,
  parseStoredLines,
  removeLine,
  setLineQuantity,
  type CartChange,
  type CartLine,
  type CartProduct,
} from './cart.ts'

/** The shopper's cart lines in localStorage, shared by every component and every tab. */
const STORAGE_KEY = 'vitrina.carrito'
const EMPTY: CartLine[] = []
const listeners = new Set<() => void>()
let cache: { raw: string | null; lines: CartLine[] } | undefined
/**
 * Whether components see the stored lines yet. A page's first read of localStorage waits on the
 * browser process (5–17 ms in Chromium on this machine, longer on a phone): it happens in a task of
 * its own just after the page has hydrated, not inside hydration. Until then every component sees
 * the empty cart the server rendered.
 */
let shown = false

function read(): CartLine[] {
  if (typeof window === 'undefined') return EMPTY
  const raw = window.localStorage.getItem(STORAGE_KEY)
  if (!cache || cache.raw !== raw) {
    const lines = parseStoredLines(raw)
    // An empty cart is the server's snapshot itself: nothing to render again.
    cache = { raw, lines: lines.length ? lines : EMPTY }
  }
  return cache.lines
}

function snapshot(): CartLine[] {
  return shown ? read() : EMPTY
}

/** Mirrors the lines into a small cookie, so a checkout sent before hydration still has them. */
function mirrorToCookie(lines: CartLine[]) {
  const assignment = cartCookieAssignment(
    lines.map(({ sku, quantity }) => ({ sku, quantity })),
    window.location.protocol === 'https:',
  )
  if (!document.cookie.split('; ').includes(assignment.slice(0, assignment.indexOf(';')))) {
    document.cookie = assignment
  }
}

function notify() {
  for (const listener of listeners) listener()
}

function write(lines: CartLine[]) {
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(lines))
  mirrorToCookie(lines)
  shown = true
  notify()
}

function show() {
  if (shown) return
  shown = true
  // A cart kept from before the mirror existed (or changed in another tab) gets its cookie now.
  mirrorToCookie(read())
  notify()
}

function subscribe(listener: () => void) {
  if (!shown && !listeners.size) setTimeout(show)
  listeners.add(listener)
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

export function useCartLines(): CartLine[] {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY)
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
