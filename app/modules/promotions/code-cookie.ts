import { CODE_MAX_LENGTH } from './messages.ts'
import { normalizeCode } from './rules.ts'

/**
 * The discount code the shopper typed in the cart or the checkout ("Código de descuento"), kept like
 * the cart (0018-cart-in-a-cookie.md) so it works without JavaScript and reaches the checkout. It is
 * kept as typed (normalized) even when the promotions refuse it: the cart and checkout say why
 * beside the field, and a code whose minimum the cart does not reach yet applies once it does. The
 * order judges it again when it is placed. Only the server reads and writes it.
 */
export const CODE_COOKIE = 'vitrina_codigo'

const MAX_AGE_SECONDS = 30 * 24 * 3_600

/** The code a `Cookie` header holds, normalized; null when there is none (or junk). */
export function readCodeCookie(cookieHeader: string | null | undefined): string | null {
  const pair = (cookieHeader ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CODE_COOKIE}=`))
  if (!pair) return null
  try {
    const code = normalizeCode(decodeURIComponent(pair.slice(CODE_COOKIE.length + 1)))
    return code && code.length <= CODE_MAX_LENGTH ? code : null
  } catch {
    return null
  }
}

/** The `Set-Cookie` value that keeps this code, or deletes it when the code is empty. */
export function codeCookieAssignment(typed: string, secure: boolean): string {
  const code = normalizeCode(typed).slice(0, CODE_MAX_LENGTH)
  return `${CODE_COOKIE}=${encodeURIComponent(code)}; Path=/; Max-Age=${code ? MAX_AGE_SECONDS : 0}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
}
