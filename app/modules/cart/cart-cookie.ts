/**
 * The cart mirrored into a small cookie (sku and quantity only), so a checkout sent before the page
 * hydrated, or without JavaScript, still reaches the server with its lines. The browser keeps the
 * cart in localStorage; this copy is written by the cart store on every change.
 *
 * Format: `encodeURIComponent(sku):quantity` joined with `|` (both separators are always encoded
 * inside a sku, and both are valid cookie characters).
 */
export const CART_COOKIE = 'vitrina_carrito'

/** Browsers keep about 4 KB per cookie: a larger cart is not mirrored (the cookie is dropped). */
const MAX_VALUE_LENGTH = 3_800
const MAX_AGE_SECONDS = 30 * 24 * 3_600

export function serializeCartCookieValue(lines: { sku: string; quantity: number }[]): string {
  return lines.map((line) => `${encodeURIComponent(line.sku)}:${Math.trunc(line.quantity)}`).join('|')
}

/** The `document.cookie` assignment for these lines (an empty cart deletes the cookie). */
export function cartCookieAssignment(lines: { sku: string; quantity: number }[], secure: boolean): string {
  const value = serializeCartCookieValue(lines)
  const keep = value !== '' && value.length <= MAX_VALUE_LENGTH
  return `${CART_COOKIE}=${keep ? value : ''}; Path=/; Max-Age=${keep ? MAX_AGE_SECONDS : 0}; SameSite=Lax${secure ? '; Secure' : ''}`
}

/** A `Set-Cookie` value that deletes the mirror, once its lines became an order. */
export const CLEAR_CART_COOKIE = `${CART_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`

/** The raw lines of a `Cookie` header's cart mirror; junk is skipped (the caller validates). */
export function readCartCookie(cookieHeader: string | null | undefined): { sku: string; quantity: number }[] {
  if (!cookieHeader) return []
  const pair = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CART_COOKIE}=`))
  const value = pair?.slice(CART_COOKIE.length + 1) ?? ''
  if (!value || value.length > MAX_VALUE_LENGTH) return []
  return value.split('|').flatMap((entry) => {
    const match = /^([^:]+):(-?\d{1,9})$/.exec(entry)
    if (!match) return []
    try {
      return [{ sku: decodeURIComponent(match[1]!), quantity: Number(match[2]) }]
    } catch {
      return []
    }
  })
}
