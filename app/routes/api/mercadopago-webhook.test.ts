import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { paymentEvents } from '#app/modules/payment/schema.ts'
import { signNotification } from '#app/modules/payment/signature.server.ts'
import { startServices, stopServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { clearJobs, queuedJobs } from '#tests/jobs.ts'
import { action } from './mercadopago-webhook.ts'

const t = setupTestDatabase()
const SECRET = 'secreto-de-prueba'

beforeAll(async () => {
  const env = parseEnv({
    MP_ACCESS_TOKEN: 'TEST-token',
    MP_WEBHOOK_SECRET: SECRET,
    MP_API_URL: 'http://127.0.0.1:9',
  })
  await startServices(env, t.database, { workers: false })
})
afterAll(async () => {
  await stopServices()
})
beforeEach(async () => {
  await clearJobs(t.database)
})

function notification({
  dataId = '123456',
  requestId = 'req-1',
  ts = String(Date.now()),
  secret = SECRET,
  signature,
  body = { id: 9001, type: 'payment', action: 'payment.updated', data: { id: dataId } },
}: {
  dataId?: string
  requestId?: string
  ts?: string
  secret?: string
  signature?: string
  body?: Record<string, unknown>
} = {}) {
  return new Request(`http://tienda.test/api/webhooks/mercadopago?data.id=${dataId}&type=payment`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-request-id': requestId,
      'x-signature': signature ?? signNotification(secret, { dataId, requestId, ts }),
    },
    body: JSON.stringify(body),
  })
}

async function call(request: Request) {
  const result = (await action({ request, params: {}, context: {} } as never)) as unknown
  // react-router's data() wraps error answers; plain objects are 200s.
  if (result && typeof result === 'object' && 'init' in result) {
    const wrapped = result as { data: unknown; init: { status: number } }
    return { status: wrapped.init.status, body: wrapped.data }
  }
  return { status: 200, body: result }
}

test('a correctly signed notification is accepted and its processing enqueued', async () => {
  expect(await call(notification())).toEqual({ status: 200, body: { ok: true, outcome: 'accepted' } })
  expect(await queuedJobs(t.database, 'payment-notification')).toEqual([
    { eventId: '9001', paymentId: '123456' },
  ])
})

test('a replayed notification (same id) is answered, and not processed again once it was processed', async () => {
  const first = notification({ body: { id: 9002, type: 'payment', data: { id: '777' } }, dataId: '777' })
  const replay = (requestId: string) =>
    notification({ body: { id: 9002, type: 'payment', data: { id: '777' } }, dataId: '777', requestId })
  expect((await call(first)).body).toEqual({ ok: true, outcome: 'accepted' })
  // Its job is still in the queue: the repeat is answered and adds nothing.
  expect((await call(replay('req-2'))).body).toEqual({ ok: true, outcome: 'duplicate' })
  expect(await queuedJobs(t.database, 'payment-notification')).toHaveLength(1)
  // Not processed and its job gave up: the repeat queues it again.
  await clearJobs(t.database)
  expect((await call(replay('req-3'))).body).toEqual({ ok: true, outcome: 'requeued' })
  expect(await queuedJobs(t.database, 'payment-notification')).toHaveLength(1)
  await t.db.update(paymentEvents).set({ processedAt: new Date() }).where(eq(paymentEvents.id, '9002'))
  await clearJobs(t.database)
  expect((await call(replay('req-4'))).body).toEqual({ ok: true, outcome: 'duplicate' })
  expect(await queuedJobs(t.database, 'payment-notification')).toHaveLength(0)
})

test('a forged signature is refused with 401 and nothing is recorded', async () => {
  expect((await call(notification({ secret: 'otro-secreto' }))).status).toBe(401)
  expect((await call(notification({ signature: `ts=${Date.now()},v1=${'0'.repeat(64)}` }))).status).toBe(401)
  expect(await queuedJobs(t.database, 'payment-notification')).toEqual([])
})

test('a signature for another payment id is refused', async () => {
  const request = notification({ dataId: '111' })
  const tampered = new Request(request.url.replace('data.id=111', 'data.id=222'), {
    method: 'POST',
    headers: request.headers,
    body: await request.text(),
  })
  expect((await call(tampered)).status).toBe(401)
})

test('a stale timestamp is refused', async () => {
  expect((await call(notification({ ts: String(Date.now() - 60 * 60 * 1000) }))).status).toBe(401)
})

test('a notification without data.id in the signed query string is refused', async () => {
  const request = new Request('http://tienda.test/api/webhooks/mercadopago?type=payment', {
    method: 'POST',
    headers: {
      'x-request-id': 'r',
      'x-signature': signNotification(SECRET, { requestId: 'r', ts: String(Date.now()) }),
    },
    body: JSON.stringify({ id: 1, type: 'payment', data: { id: '999' } }),
  })
  expect((await call(request)).status).toBe(400)
})

test('a missing signature is refused', async () => {
  const request = new Request('http://tienda.test/api/webhooks/mercadopago?data.id=1&type=payment', {
    method: 'POST',
    body: '{}',
  })
  expect((await call(request)).status).toBe(401)
})

test('a notification for an unknown order is accepted (the job records it and stops)', async () => {
  expect(
    (
      await call(
        notification({ dataId: '424242', body: { id: 9003, type: 'payment', data: { id: '424242' } } }),
      )
    ).body,
  ).toEqual({
    ok: true,
    outcome: 'accepted',
  })
})
