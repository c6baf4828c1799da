import { createHmac, timingSafeEqual } from 'node:crypto'

/** Mercado Pago notifications older than this are refused (replays). */
export const SIGNATURE_MAX_AGE_MS = 10 * 60 * 1000

/** The manifest of integrations.md: `id:…;request-id:…;ts:…;`, parts that are missing dropped. */
export function signatureManifest(parts: { dataId?: string | null; requestId?: string | null; ts: string }) {
  let manifest = ''
  if (parts.dataId) manifest += `id:${parts.dataId.toLowerCase()};`
  if (parts.requestId) manifest += `request-id:${parts.requestId};`
  manifest += `ts:${parts.ts};`
  return manifest
}

export function signNotification(
  secret: string,
  parts: { dataId?: string | null; requestId?: string | null; ts: string },
) {
  const v1 = createHmac('sha256', secret).update(signatureManifest(parts)).digest('hex')
  return `ts=${parts.ts},v1=${v1}`
}

/** `ts`: the signed timestamp, one of the three values the signature vouches for. */
export type SignatureCheck =
  { ok: true; ts: string } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' }

/** Checks `x-signature` (HMAC-SHA256 of the manifest) in constant time, and that `ts` is recent. */
export function verifyNotificationSignature(input: {
  secret: string
  header: string | null
  requestId: string | null
  dataId: string | null
  now?: number
}): SignatureCheck {
  if (!input.header) return { ok: false, reason: 'missing' }
  const fields = Object.fromEntries(
    input.header.split(',').map((part) => {
      const [key, ...rest] = part.split('=')
      return [key?.trim(), rest.join('=').trim()]
    }),
  )
  const ts = fields.ts
  const v1 = fields.v1
  if (!ts || !v1 || !/^\d+$/.test(ts) || !/^[0-9a-f]{64}$/i.test(v1))
    return { ok: false, reason: 'malformed' }
  // Mercado Pago sends milliseconds; accept seconds too.
  const tsMs = ts.length > 11 ? Number(ts) : Number(ts) * 1000
  if (Math.abs((input.now ?? Date.now()) - tsMs) > SIGNATURE_MAX_AGE_MS) return { ok: false, reason: 'stale' }
  const expected = createHmac('sha256', input.secret)
    .update(signatureManifest({ dataId: input.dataId, requestId: input.requestId, ts }))
    .digest()
  const given = Buffer.from(v1, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'mismatch' }
  return { ok: true, ts }
}
