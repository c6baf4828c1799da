import { createHmac } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import {
  SIGNATURE_MAX_AGE_MS,
  signatureManifest,
  signNotification,
  verifyNotificationSignature,
} from './signature.server.ts'

const SECRET = 'a3f1c9e07b2d4e6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f'
const REQUEST_ID = 'bb56a2f1-6aae-46ac-982e-9dcd3581d08e'
const DATA_ID = '1319741055'
/** Mercado Pago's ts is in milliseconds. */
const TS = '1704908010000'
const NOW = 1_704_908_010_000 + 3_000

/** Computed here, independently of the module: HMAC-SHA256 hex of the manifest as written out. */
const hmac = (manifest: string, secret = SECRET) =>
  createHmac('sha256', secret).update(manifest).digest('hex')
const VALID_V1 = hmac('id:1319741055;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1704908010000;')

const verify = (overrides: Partial<Parameters<typeof verifyNotificationSignature>[0]> = {}) =>
  verifyNotificationSignature({
    secret: SECRET,
    header: `ts=${TS},v1=${VALID_V1}`,
    requestId: REQUEST_ID,
    dataId: DATA_ID,
    now: NOW,
    ...overrides,
  })

describe('signatureManifest', () => {
  test('is id, request-id and ts, each ended by a semicolon', () => {
    expect(signatureManifest({ dataId: DATA_ID, requestId: REQUEST_ID, ts: TS })).toBe(
      'id:1319741055;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1704908010000;',
    )
  })

  test('drops the parts that are missing', () => {
    expect(signatureManifest({ dataId: null, requestId: REQUEST_ID, ts: TS })).toBe(
      'request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1704908010000;',
    )
    expect(signatureManifest({ dataId: DATA_ID, requestId: null, ts: TS })).toBe(
      'id:1319741055;ts:1704908010000;',
    )
    expect(signatureManifest({ ts: TS })).toBe('ts:1704908010000;')
  })

  test('lowercases an alphanumeric data.id', () => {
    expect(signatureManifest({ dataId: 'ABC123def', requestId: REQUEST_ID, ts: TS })).toBe(
      'id:abc123def;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1704908010000;',
    )
  })
})

describe('signNotification', () => {
  test('gives the x-signature header Mercado Pago would send', () => {
    expect(signNotification(SECRET, { dataId: DATA_ID, requestId: REQUEST_ID, ts: TS })).toBe(
      `ts=1704908010000,v1=${VALID_V1}`,
    )
  })

  test('what it signs verifies', () => {
    const ts = String(NOW)
    const header = signNotification(SECRET, { dataId: 'XYZ9', requestId: 'req-1', ts })
    expect(verify({ header, requestId: 'req-1', dataId: 'XYZ9' })).toEqual({
      ok: true,
      ts: expect.any(String),
    })
  })
})

describe('verifyNotificationSignature', () => {
  test('accepts a valid signature computed independently', () => {
    expect(verify()).toEqual({ ok: true, ts: expect.any(String) })
  })

  test('accepts spaces after the comma and the parts in any order', () => {
    expect(verify({ header: `ts=${TS}, v1=${VALID_V1}` })).toEqual({ ok: true, ts: expect.any(String) })
    expect(verify({ header: `v1=${VALID_V1},ts=${TS}` })).toEqual({ ok: true, ts: expect.any(String) })
  })

  test('refuses a forged v1', () => {
    const forged = `${VALID_V1.slice(0, -1)}${VALID_V1.endsWith('0') ? '1' : '0'}`
    expect(verify({ header: `ts=${TS},v1=${forged}` })).toEqual({ ok: false, reason: 'mismatch' })
    expect(verify({ header: `ts=${TS},v1=${hmac('anything')}` })).toEqual({ ok: false, reason: 'mismatch' })
  })

  test('refuses a signature made with another secret', () => {
    const other = hmac(
      'id:1319741055;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1704908010000;',
      'otro',
    )
    expect(verify({ header: `ts=${TS},v1=${other}` })).toEqual({ ok: false, reason: 'mismatch' })
  })

  test('refuses a tampered data.id', () => {
    expect(verify({ dataId: '1319741056' })).toEqual({ ok: false, reason: 'mismatch' })
    expect(verify({ dataId: null })).toEqual({ ok: false, reason: 'mismatch' })
  })

  test('refuses a different request id', () => {
    expect(verify({ requestId: 'bb56a2f1-6aae-46ac-982e-9dcd3581d08f' })).toEqual({
      ok: false,
      reason: 'mismatch',
    })
    expect(verify({ requestId: null })).toEqual({ ok: false, reason: 'mismatch' })
  })

  test('refuses a ts changed after signing', () => {
    expect(verify({ header: `ts=1704908011000,v1=${VALID_V1}` })).toEqual({ ok: false, reason: 'mismatch' })
  })

  test('refuses a stale ts, and one far in the future', () => {
    const tsMs = Number(TS)
    expect(verify({ now: tsMs + SIGNATURE_MAX_AGE_MS })).toEqual({ ok: true, ts: expect.any(String) })
    expect(verify({ now: tsMs + SIGNATURE_MAX_AGE_MS + 1 })).toEqual({ ok: false, reason: 'stale' })
    expect(verify({ now: tsMs + 24 * 3_600_000 })).toEqual({ ok: false, reason: 'stale' })
    expect(verify({ now: tsMs - SIGNATURE_MAX_AGE_MS - 1 })).toEqual({ ok: false, reason: 'stale' })
  })

  test('a stale ts is refused even with a correct signature of it', () => {
    const oldTs = String(NOW - SIGNATURE_MAX_AGE_MS - 60_000)
    const v1 = hmac(`id:1319741055;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:${oldTs};`)
    expect(verify({ header: `ts=${oldTs},v1=${v1}` })).toEqual({ ok: false, reason: 'stale' })
  })

  test('takes ts in seconds as well as in milliseconds', () => {
    const v1 = hmac('id:1319741055;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1704908010;')
    const header = `ts=1704908010,v1=${v1}`
    expect(verify({ header })).toEqual({ ok: true, ts: expect.any(String) })
    // Read as seconds, not as milliseconds of 1970 (which would be stale).
    expect(verify({ header, now: 1_704_908_010_000 + SIGNATURE_MAX_AGE_MS + 1_000 })).toEqual({
      ok: false,
      reason: 'stale',
    })
    expect(verify({ header, now: 1_704_908_010_000 - 1_000 })).toEqual({ ok: true, ts: expect.any(String) })
  })

  test('refuses a missing header', () => {
    expect(verify({ header: null })).toEqual({ ok: false, reason: 'missing' })
    expect(verify({ header: '' })).toEqual({ ok: false, reason: 'missing' })
  })

  test.each([
    ['no v1', `ts=${TS}`],
    ['no ts', `v1=${VALID_V1}`],
    ['ts not a number', `ts=ayer,v1=${VALID_V1}`],
    ['v1 not hex', `ts=${TS},v1=${'z'.repeat(64)}`],
    ['v1 too short', `ts=${TS},v1=${VALID_V1.slice(0, 32)}`],
    ['v1 too long', `ts=${TS},v1=${VALID_V1}00`],
    ['no separators', `${TS}${VALID_V1}`],
    ['garbage', 'sha256=abc'],
  ])('refuses a malformed header (%s)', (_case, header) => {
    expect(verify({ header })).toEqual({ ok: false, reason: 'malformed' })
  })

  test('lowercases an upper-case data.id before checking', () => {
    const v1 = hmac('id:abc123def;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1704908010000;')
    expect(verify({ header: `ts=${TS},v1=${v1}`, dataId: 'ABC123DEF' })).toEqual({
      ok: true,
      ts: expect.any(String),
    })
    expect(verify({ header: `ts=${TS},v1=${v1}`, dataId: 'abc123def' })).toEqual({
      ok: true,
      ts: expect.any(String),
    })
    // A signature over the upper-case id is not what Mercado Pago sends.
    const upper = hmac('id:ABC123DEF;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1704908010000;')
    expect(verify({ header: `ts=${TS},v1=${upper}`, dataId: 'ABC123DEF' })).toEqual({
      ok: false,
      reason: 'mismatch',
    })
  })

  test('drops a missing request id from the manifest, as Mercado Pago does', () => {
    const v1 = hmac('id:1319741055;ts:1704908010000;')
    expect(verify({ header: `ts=${TS},v1=${v1}`, requestId: null })).toEqual({
      ok: true,
      ts: expect.any(String),
    })
  })
})
