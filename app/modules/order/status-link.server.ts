import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import { orderStatusPath } from '#app/utils/paths.ts'

/**
 * The signed key of an order's page (`/pedido/{número}?clave=…`): the link the buyer gets after the
 * order opens it without the phone's digits. The secret is derived from the session secret, so no
 * other use of that secret can be replayed here; without one (tests) each process makes its own.
 */
export function orderLinkSecret(sessionSecret: string | null | undefined): Buffer {
  if (!sessionSecret) return randomBytes(32)
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'vitrina', 'order-status-link v1', 32))
}

/** The key of order `number`'s page: 22 characters of an HMAC (128 bits), safe in a URL. */
export function orderLinkToken(secret: Buffer, number: number): string {
  return createHmac('sha256', secret).update(`pedido:${number}`).digest('base64url').slice(0, 22)
}

/** Whether `key` opens order `number`'s page (compared in constant time). */
export function isOrderLinkToken(secret: Buffer, number: number, key: string | null | undefined): boolean {
  if (!key || key.length !== 22) return false
  const expected = Buffer.from(orderLinkToken(secret, number))
  const given = Buffer.from(key)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** Order `number`'s page with its key: the link the buyer gets (success page, WhatsApp, the lookup). */
export function signedOrderPath(secret: Buffer, number: number): string {
  return orderStatusPath(number, orderLinkToken(secret, number))
}
