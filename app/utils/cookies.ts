/**
 * Reading one cookie from a Cookie header (or `document.cookie`) without a cookie library: the
 * storefront's first-visit script reads consent and staff cookies with it, so it stays tiny.
 * Shared by client and server code: no imports, no secrets.
 */

/**
 * A cookie's value, percent-decoded; undefined when the cookie is missing, empty or not decodable
 * (a malformed cookie such as `%E0` is no answer at all, never an error: every storefront page
 * reads this).
 */
export function cookieValue(cookieHeader: string | null | undefined, name: string): string | undefined {
  const raw = rawCookieValue(cookieHeader, name)
  if (raw === undefined) return undefined
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

/** A cookie's value as sent (not decoded), or undefined when the header does not carry it. */
export function rawCookieValue(cookieHeader: string | null | undefined, name: string): string | undefined {
  return (cookieHeader ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1)
}
