import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, serializeConsent } from '#app/modules/analytics/consent.ts'
import { META_EVENT_MESSAGES } from '#app/modules/marketing/validators.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { buildServices, type Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { routeContext } from '#tests/routes.ts'
import { action } from './meta-events.ts'

const t = setupTestDatabase()
let jobs: ReturnType<typeof recordingJobQueue>
let services: Services

const consent = (advertising: boolean) =>
  `${CONSENT_COOKIE}=${encodeURIComponent(
    serializeConsent({ analytics: true, advertising, version: CONSENT_POLICY_VERSION }),
  )}`

function useShop(env: Record<string, string>) {
  jobs = recordingJobQueue()
  services = buildServices(parseEnv({ PUBLIC_URL: 'http://tienda.test', ...env }), t.database, jobs)
}

beforeAll(() => useShop({ META_PIXEL_ID: '1234567890' }))
beforeEach(() => {
  jobs.sent.length = 0
})

const EVENT = {
  eventName: 'AddToCart',
  eventId: 'evt-123',
  eventSourceUrl: 'http://tienda.test/producto/COL-1',
  customData: { currency: 'COP', value: 45000, content_ids: ['COL-1'], content_type: 'product' },
}

let address = 0
async function post(
  body: unknown,
  { cookie = consent(true), ip = `198.51.100.${++address % 250}` }: { cookie?: string; ip?: string } = {},
) {
  const context = routeContext(services, ip)
  const request = new Request('http://tienda.test/api/eventos-meta', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie, 'User-Agent': 'Mozilla/5.0 (Prueba)' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const response = (await action({ request, context, params: {} } as never)) as Response
  return { status: response.status, body: (await response.json()) as { ok: boolean; message?: string } }
}

describe('POST /api/eventos-meta', () => {
  test('a consenting shopper’s event is queued for the Conversions API with its id, IP, UA and cookies', async () => {
    const answer = await post(EVENT, {
      cookie: `${consent(true)}; _fbp=fb.1.1700000000000.42; _fbc=fb.1.1700000000000.IwAR`,
      ip: '203.0.113.9',
    })
    expect(answer).toEqual({ status: 202, body: { ok: true } })
    expect(jobs.sent).toEqual([
      {
        name: 'meta-event',
        data: {
          kind: 'browser',
          eventName: 'AddToCart',
          eventId: 'evt-123',
          eventTime: expect.any(Number),
          eventSourceUrl: 'http://tienda.test/producto/COL-1',
          customData: EVENT.customData,
          browser: {
            clientIpAddress: '203.0.113.9',
            clientUserAgent: 'Mozilla/5.0 (Prueba)',
            fbp: 'fb.1.1700000000000.42',
            fbc: 'fb.1.1700000000000.IwAR',
          },
        },
      },
    ])
  })

  test('broken tracking cookies (NUL, bad escapes) are dropped: the event still goes, never a 500', async () => {
    for (const cookie of [
      `${consent(true)}; _fbp=fb.1.1.%00; _fbc=fb.1.1.%00`,
      `${consent(true)}; _fbp=%E0; _fbc=fb.1.1.%E0`,
    ]) {
      jobs.sent.length = 0
      expect(await post(EVENT, { cookie })).toEqual({ status: 202, body: { ok: true } })
      expect(jobs.sent).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({ browser: expect.objectContaining({ fbp: null, fbc: null }) }),
        }),
      ])
    }
  })

  test('without advertising consent, or with no choice made, nothing is queued', async () => {
    expect(await post(EVENT, { cookie: consent(false) })).toEqual({
      status: 403,
      body: { ok: false, message: META_EVENT_MESSAGES.noConsent },
    })
    expect(await post(EVENT, { cookie: '' })).toMatchObject({ status: 403 })
    expect(jobs.sent).toEqual([])
  })

  test('staff browsers and admin sessions are never sent', async () => {
    for (const cookie of [
      `${consent(true)}; vitrina_staff=1`,
      `${consent(true)}; vitrina_admin=abc`,
      `${consent(true)}; __Host-vitrina_admin=abc`,
    ]) {
      expect(await post(EVENT, { cookie })).toEqual({
        status: 403,
        body: { ok: false, message: META_EVENT_MESSAGES.staff },
      })
    }
    expect(jobs.sent).toEqual([])
  })

  test('bad names, Purchase from a browser, bad ids, other sites and junk are refused in Spanish', async () => {
    const cases: [unknown, number, string][] = [
      [{ ...EVENT, eventName: 'Lead' }, 400, META_EVENT_MESSAGES.badName],
      [{ ...EVENT, eventName: 'Purchase' }, 400, META_EVENT_MESSAGES.badName],
      [{ ...EVENT, eventName: undefined }, 400, META_EVENT_MESSAGES.badName],
      [{ ...EVENT, eventId: 'a b' }, 400, META_EVENT_MESSAGES.badId],
      [{ ...EVENT, eventId: 'x'.repeat(101) }, 400, META_EVENT_MESSAGES.badId],
      [{ ...EVENT, eventSourceUrl: 'https://otro.example/' }, 400, META_EVENT_MESSAGES.badUrl],
      [{ ...EVENT, eventSourceUrl: 'no es url' }, 400, META_EVENT_MESSAGES.badUrl],
      [{ ...EVENT, customData: { email: 'ana@example.com' } }, 400, META_EVENT_MESSAGES.badData],
      [{ ...EVENT, customData: { content_ids: ['a\u0000b'] } }, 400, META_EVENT_MESSAGES.badData],
      ['{no es json', 400, META_EVENT_MESSAGES.badData],
      ['x'.repeat(9000), 413, META_EVENT_MESSAGES.badData],
    ]
    for (const [body, status, message] of cases) {
      expect(await post(body)).toEqual({ status, body: { ok: false, message } })
    }
    expect(jobs.sent).toEqual([])
  })

  test('one client is limited per minute', async () => {
    const answers = []
    for (let i = 0; i <= RATE_LIMITS.metaEvents.points; i++)
      answers.push((await post({ ...EVENT, eventId: `r-${i}` }, { ip: '192.0.2.1' })).status)
    expect(answers.filter((status) => status === 202)).toHaveLength(RATE_LIMITS.metaEvents.points)
    expect(answers.at(-1)).toBe(429)
    expect(await post(EVENT, { ip: '192.0.2.1' })).toEqual({
      status: 429,
      body: { ok: false, message: RATE_LIMITS.metaEvents.message },
    })
    // Another client is not held back.
    expect((await post(EVENT, { ip: '192.0.2.2' })).status).toBe(202)
  })

  test('without META_PIXEL_ID the shop takes no Meta events', async () => {
    useShop({})
    expect(await post(EVENT)).toEqual({ status: 404, body: { ok: false, message: META_EVENT_MESSAGES.off } })
    expect(jobs.sent).toEqual([])
    useShop({ META_PIXEL_ID: '1234567890' })
  })
})
