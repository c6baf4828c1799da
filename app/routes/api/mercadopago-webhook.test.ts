import { eq } from 'drizzle-orm'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { paymentEvents } from '#app/modules/payment/schema.ts'
import { signNotification } from '#app/modules/payment/signature.server.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { routeContext } from '#tests/routes.ts'
import { clearJobs, queuedJobs } from '#tests/jobs.ts'
import { action } from './mercadopago-webhook.ts'

const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>
const SECRET = 'secreto-de-prueba'

beforeAll(async () => {
  const env = parseEnv({
    MP_ACCESS_TOKEN: 'TEST-token',
    MP_WEBHOOK_SECRET: SECRET,
    MP_API_URL: 'http://127.0.0.1:9',
  })
  services = await startServices(env, t.database, { workers: false })
})
afterAll(async () => {
  await services.stop()
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
  /** An object is sent as JSON; a string as it is. */
  body?: Record<string, unknown> | string
} = {}) {
  return new Request(`http://tienda.test/api/webhooks/mercadopago?data.id=${dataId}&type=payment`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-request-id': requestId,
      'x-signature': signature ?? signNotification(secret, { dataId, requestId, ts }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

const storedEvents = () => t.db.select().from(paymentEvents)

async function call(request: Request) {
  const result = (await action({ request, params: {}, context: routeContext(services) } as never)) as unknown
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
    { eventId: 'mp:123456:request:req-1', paymentId: '123456', provider: 'mercadopago' },
  ])
})

test('a notification sent again is answered, and not processed again once it was processed', async () => {
  const repeat = () =>
    notification({
      body: { id: 9002, type: 'payment', data: { id: '777' } },
      dataId: '777',
      requestId: 'r-777',
    })
  expect((await call(repeat())).body).toEqual({ ok: true, outcome: 'accepted' })
  // Its job is still in the queue: the repeat is answered and adds nothing.
  expect((await call(repeat())).body).toEqual({ ok: true, outcome: 'duplicate' })
  expect(await queuedJobs(t.database, 'payment-notification')).toHaveLength(1)
  // Not processed and its job gave up: the repeat queues it again.
  await clearJobs(t.database)
  expect((await call(repeat())).body).toEqual({ ok: true, outcome: 'requeued' })
  expect(await queuedJobs(t.database, 'payment-notification')).toHaveLength(1)
  await t.db
    .update(paymentEvents)
    .set({ processedAt: new Date() })
    .where(eq(paymentEvents.id, 'mp:777:request:r-777'))
  await clearJobs(t.database)
  expect((await call(repeat())).body).toEqual({ ok: true, outcome: 'duplicate' })
  expect(await queuedJobs(t.database, 'payment-notification')).toHaveLength(0)
})

test('another notification of the same payment (a new request id) is processed too', async () => {
  const update = (requestId: string) => notification({ dataId: '778', requestId })
  expect((await call(update('r-778-created'))).body).toEqual({ ok: true, outcome: 'accepted' })
  expect((await call(update('r-778-updated'))).body).toEqual({ ok: true, outcome: 'accepted' })
  expect(await queuedJobs(t.database, 'payment-notification')).toHaveLength(2)
})

test('one captured signature replayed with new body ids makes no new event nor job', async () => {
  const ts = String(Date.now())
  const signature = signNotification(SECRET, { dataId: '779', requestId: 'r-779', ts })
  const replay = (bodyId: number) =>
    notification({
      dataId: '779',
      requestId: 'r-779',
      signature,
      body: { id: bodyId, type: 'payment', data: { id: String(bodyId) } },
    })
  expect((await call(replay(1))).body).toEqual({ ok: true, outcome: 'accepted' })
  for (const bodyId of [2, 3, 4]) {
    expect((await call(replay(bodyId))).body).toEqual({ ok: true, outcome: 'duplicate' })
  }
  expect(await queuedJobs(t.database, 'payment-notification')).toEqual([
    { eventId: 'mp:779:request:r-779', paymentId: '779', provider: 'mercadopago' },
  ])
  expect((await storedEvents()).filter((event) => event.resourceId === '779')).toHaveLength(1)
})

describe('signed but malformed input gets a 4xx, never a 5xx', () => {
  test.each([
    ['null', 'null'],
    ['an array', '[1, 2]'],
    ['a number', '42'],
    ['not JSON', '{"id": '],
    ['an empty body', ''],
    ['nesting past any notification', `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`],
  ])('a body that is %s is refused and not recorded', async (_name, body) => {
    const before = (await storedEvents()).length
    const answer = await call(notification({ dataId: '780', requestId: `r-${randomUUID()}`, body }))
    expect(answer.status).toBe(400)
    expect((await storedEvents()).length).toBe(before)
    expect(await queuedJobs(t.database, 'payment-notification')).toEqual([])
  })

  test.each([
    ['a NUL', '12%0034'],
    ['letters', '12ab'],
    ['a lone surrogate', '12%ED%A0%80'],
    ['a sign', '-1'],
  ])('a data.id with %s in the query string is refused before anything', async (_name, encoded) => {
    const url = `http://tienda.test/api/webhooks/mercadopago?data.id=${encoded}&type=payment`
    // Signed over the very value the server reads, so only the id's shape is wrong.
    const dataId = new URL(url).searchParams.get('data.id')
    const request = new Request(url, {
      method: 'POST',
      headers: {
        'x-request-id': 'r',
        'x-signature': signNotification(SECRET, { dataId, requestId: 'r', ts: String(Date.now()) }),
      },
      body: '{}',
    })
    expect(await call(request)).toEqual({
      status: 400,
      body: { ok: false, error: 'data.id no es un número de pago' },
    })
  })

  test('NUL and lone surrogates in id, data.id and the payload are stored cleaned', async () => {
    const nul = '\\u0000'
    const body =
      `{"id":"9${nul}9","type":"payment","data":{"id":"781${nul}\\ud800"},` +
      `"extra\\udc00":["a${nul}b","\\ud83d\\ude00"]}`
    const answer = await call(notification({ dataId: '781', requestId: 'r-781', body }))
    expect(answer).toEqual({ status: 200, body: { ok: true, outcome: 'accepted' } })
    const [stored] = await t.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.id, 'mp:781:request:r-781'))
    expect(stored?.payload).toEqual({
      id: '99',
      type: 'payment',
      data: { id: '781\ufffd' },
      'extra\ufffd': ['ab', '\ud83d\ude00'],
    })
  })

  test('a body cut off on its way in is neither recorded nor processed', async () => {
    const before = (await storedEvents()).length
    const signed = notification({ dataId: '782', requestId: 'r-782' })
    let sent = false
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true
          controller.enqueue(new TextEncoder().encode('{"id":1,"type":"payment","data":{"id":"7'))
        } else controller.error(new Error('La solicitud es demasiado grande.'))
      },
    })
    const request = new Request(signed.url, {
      method: 'POST',
      headers: signed.headers,
      body: broken,
      duplex: 'half',
    } as RequestInit)
    expect((await call(request)).status).toBe(400)
    expect((await storedEvents()).length).toBe(before)
    expect(await queuedJobs(t.database, 'payment-notification')).toEqual([])
  })
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
  expect(await call(notification({ ts: String(Date.now() - 60 * 60 * 1000) }))).toEqual({
    status: 401,
    body: { ok: false, error: 'firma inválida (vencida)' },
  })
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
  // Found by the fuzz suite: the reason was the checker's English code ("missing").
  expect(await call(request)).toEqual({ status: 401, body: { ok: false, error: 'firma inválida (falta)' } })
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
