/**
 * The cart itself: a small cookie of skus and quantities (docs/decisions/0018-cart-in-a-cookie.md).
 * The browser's cart store reads and writes it, and so do the storefront's forms when they are sent
 * before the page's scripts run or without JavaScript: both sides always see the same cart.
 *
 * Format: `encodeURIComponent(sku):quantity` joined with `|` (both separators are always encoded
 * inside a sku, and both are valid cookie characters).
 */
export const CART_COOKIE = 'vitrina_carrito'

/** Browsers keep about 4 KB per cookie: a cart that would not fit takes no more products. */
const MAX_VALUE_LENGTH = 3_800
/** Products (lines) a cart holds at most: the catalogue prices up to 100 skus in one read. */
export const MAX_CART_LINES = 100
const MAX_AGE_SECONDS = 30 * 24 * 3_600

export function serializeCartCookieValue(lines: { sku: string; quantity: number }[]): string {
  return lines.map((line) => `${encodeURIComponent(line.sku)}:${Math.trunc(line.quantity)}`).join('|')
}

/** Whether these lines can be kept: few enough, and small enough for a cookie. */
export function fitsCartCookie(lines: { sku: string; quantity: number }[]): boolean {
  return lines.length <= MAX_CART_LINES && serializeCartCookieValue(lines).length <= MAX_VALUE_LENGTH
}

/**
 * The `document.cookie` assignment, also a `Set-Cookie` value, for these lines (an empty cart
 * deletes the cookie).
 */
export function cartCookieAssignment(lines: { sku: string; quantity: number }[], secure: boolean): string {
  const value = serializeCartCookieValue(lines)
  const keep = value !== '' && value.length <= MAX_VALUE_LENGTH
  return `${CART_COOKIE}=${keep ? value : ''}; Path=/; Max-Age=${keep ? MAX_AGE_SECONDS : 0}; SameSite=Lax${secure ? '; Secure' : ''}`
}

/** A `Set-Cookie` value that deletes the cart, once its lines became an order. */
export const CLEAR_CART_COOKIE = `${CART_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`

/** The cart cookie's raw value in a `Cookie` header (or `document.cookie`); '' when there is none. */
export function cartCookieValue(cookieHeader: string | null | undefined): string {
  if (!cookieHeader) return ''
  const pair = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CART_COOKIE}=`))
  return pair?.slice(CART_COOKIE.length + 1) ?? ''
}

/** The raw lines of a `Cookie` header's cart; junk is skipped (the caller validates). */
export function readCartCookie(cookieHeader: string | null | undefined): { sku: string; quantity: number }[] {
  return parseCartCookieValue(cartCookieValue(cookieHeader))
}

/** The raw lines of a cart in the cookie's words (also the cart API's `lineas`); junk is skipped. */
export function parseCartCookieValue(value: string): { sku: string; quantity: number }[] {
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

/**
 * What a cart form sent without the page's scripts did ("Collar Luna agregado al carrito."), shown
 * once by the page it leads to and deleted there.
 */
export const CART_NOTICE_COOKIE = 'vitrina_aviso_carrito'
export type CartNoticeTone = 'success' | 'warning' | 'error'
const NOTICE_TONES: readonly string[] = ['success', 'warning', 'error'] satisfies CartNoticeTone[]

export function cartNoticeAssignment(notice: { message: string; tone: CartNoticeTone }): string {
  const value = encodeURIComponent(JSON.stringify([notice.tone, notice.message]))
  return `${CART_NOTICE_COOKIE}=${value}; Path=/; Max-Age=120; SameSite=Lax`
}

export const CLEAR_CART_NOTICE = `${CART_NOTICE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`

export function readCartNotice(
  cookieHeader: string | null | undefined,
): { message: string; tone: CartNoticeTone } | null {
  const pair = (cookieHeader ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CART_NOTICE_COOKIE}=`))
  if (!pair) return null
  try {
    const value: unknown = JSON.parse(decodeURIComponent(pair.slice(CART_NOTICE_COOKIE.length + 1)))
    if (!Array.isArray(value)) return null
    const [tone, message] = value as unknown[]
    if (typeof tone !== 'string' || !NOTICE_TONES.includes(tone)) return null
    if (typeof message !== 'string' || !message || message.length > 300) return null
    return { tone: tone as CartNoticeTone, message }
  } catch {
    return null
  }
}
