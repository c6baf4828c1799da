import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { DEAD_LETTER_QUEUE, type MetaEventJob } from '#app/jobs/jobs.server.ts'
import { startWorkers } from '#app/jobs/worker.server.ts'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, serializeConsent } from '#app/modules/analytics/consent.ts'
import { placeOrder } from '#app/modules/checkout/checkout.server.ts'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { jobHandlers, startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { clearJobs } from '#tests/jobs.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import { metaError, startMetaStandIn, type MetaStandIn } from '#tests/stand-ins/meta.ts'
import {
  checkoutTracking,
  enqueuePaidOrderPurchase,
  fbcFromUrls,
  readTrackingRequest,
  recordBrowserEvent,
  sendMetaEvent,
} from './events.server.ts'
import { MetaApiError, metaCapiClient, type MetaServerEvent } from './meta-capi.server.ts'
import { rateLimits } from '#app/modules/rate-limits/rate-limits.server.ts'
import { metaOrderContexts } from './schema.ts'
import { logger } from '#app/utils/logger.server.ts'

/**
 * The Conversions API end to end: real pg-boss on the test database, the workers as the server
 * starts them, and Meta played by a local stand-in speaking the Graph API.
 */

const t = setupTestDatabase()
const TEST_CODE = 'TEST12345'
const OWNER = 'duena@tienda.example'
let meta: MetaStandIn
let services: Awaited<ReturnType<typeof startServices>>

// Computed outside this code: printf '%s' <value> | sha256sum
const HASH = {
  email: '3c6c5c25f4b64020ae299c05c0e540df807d9aed7457b04b118cc234a6a58c6a', // ana.perez@example.com
  phone: '173afe355201e7ed8e349c576f30ebd4be4314b65e1d87196ae5f75b21518172', // 573001234567
  fn: 'd994e1d001886fe5b45b1267bd1fa2b752ac50742579bd3dad7b2a2aa0ed6866', // josé
  ln: 'ef0f32687101005211851ff737c53e065194a7c1d853ca0c52d7415db5abd3e3', // ñúñez
  ct: 'd3ae9917abd39047a2a40e49648e930020b73a315952d0d14c1ed4f3ab57b6e4', // medellín
  st: 'c1371876585da80aba8c42d103b3e08576546b4b5761b755e63dc8439f4ee833', // antioquia
  country: 'c330ec504d82c24fcd10be978fa74b8a3185a8df719604a85443bb9ca279f5a2', // co
}

beforeAll(async () => {
  meta = await startMetaStandIn()
  const env = parseEnv({
    META_PIXEL_ID: meta.pixelId,
    META_CAPI_TOKEN: meta.token,
    META_API_URL: meta.url,
    META_TEST_EVENT_CODE: TEST_CODE,
    OWNER_EMAIL: OWNER,
    PUBLIC_URL: 'http://tienda.test',
    // Online orders are taken (nothing here reaches Mercado Pago).
    MP_ACCESS_TOKEN: 'TEST-token',
    MP_WEBHOOK_SECRET: 'secreto',
    MP_API_URL: 'http://127.0.0.1:9',
    COD_MAX_OPEN_ORDERS: '100',
    COD_MAX_OPEN_UNITS: '1000',
    COD_MAX_OPEN_ORDERS_PER_ADDRESS: '100',
    COD_MAX_OPEN_UNITS_PER_ADDRESS: '1000',
  })
  services = await startServices(env, t.database, { workers: true })
  await startWorkers(services.runtime.boss, jobHandlers(services))
  vi.spyOn(logger, 'info').mockImplementation(() => {})
}, 120_000)
afterAll(async () => {
  await services.stop()
  await meta?.stop()
  vi.restoreAllMocks()
})
beforeEach(() => meta.reset())

const CONSENTED = `${CONSENT_COOKIE}=${encodeURIComponent(
  serializeConsent({ analytics: false, advertising: true, version: CONSENT_POLICY_VERSION }),
)}`

function shopperRequest(cookie: string, url = 'http://tienda.test/finalizar-pedido') {
  return new Request(url, {
    method: 'POST',
    headers: { Cookie: cookie, 'User-Agent': 'Mozilla/5.0 (Prueba)' },
  })
}

const customer = {
  name: 'José',
  last_name: 'Ñúñez',
  phone: '300 123 4567',
  email: ' Ana.Perez@Example.com',
  address: 'Calle 1 # 2-3',
  city: 'Medellín',
  department: 'Antioquia',
  municipality_code: '05001',
  consent: true,
}

async function place(
  paymentMethod: 'acordar' | 'mercadopago',
  cookie = `${CONSENTED}; _fbp=fb.1.1700000000000.987654321; _fbc=fb.1.1700000000000.IwAR-landing`,
  email = customer.email,
) {
  const product = await createProduct(t.db, { stock: 5, pesos: 45000, withImage: false })
  const tracking = checkoutTracking(services.marketing.settings, shopperRequest(cookie), '203.0.113.7')
  const { order } = await placeOrder(services.checkout, {
    lines: [{ sku: product.sku, quantity: 2 }],
    customer: { ...customer, email, payment_method: paymentMethod },
    clientAddress: '203.0.113.7',
    tracking,
  })
  return { order, product }
}

const receivedIds = () => meta.received.map((r) => r.event.event_id)

describe('the Graph API adapter', () => {
  const event = (): MetaServerEvent => ({
    event_name: 'Contact',
    event_time: Math.floor(Date.now() / 1000),
    event_id: 'evt-1',
    event_source_url: 'http://tienda.test/',
    action_source: 'website',
    user_data: { client_ip_address: '203.0.113.7', client_user_agent: 'UA' },
  })

  test('POSTs {data, test_event_code} to /{pixel}/events with the access token in the query', async () => {
    const client = metaCapiClient({
      baseUrl: meta.url,
      pixelId: meta.pixelId,
      token: meta.token,
      testEventCode: TEST_CODE,
    })
    const answer = await client.send([event()])
    expect(answer.eventsReceived).toBe(1)
    expect(answer.fbtraceId).toMatch(/^A/)
    const request = meta.requests.at(-1)!
    expect(request.method).toBe('POST')
    expect(request.path).toBe(`/v21.0/${meta.pixelId}/events`)
    expect(request.query.get('access_token')).toBe(meta.token)
    expect(request.body).toEqual({
      data: [event()].map((e) => ({ ...e, event_time: expect.any(Number) })),
      test_event_code: TEST_CODE,
    })
  })

  test('reads Meta’s error body: a bad token is final, a transient error or an outage is retried', async () => {
    const bad = metaCapiClient({ baseUrl: meta.url, pixelId: meta.pixelId, token: 'otro' })
    const refused = await bad.send([event()]).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(MetaApiError)
    expect(refused).toMatchObject({ code: 190, retryable: false, fbtraceId: expect.stringMatching(/^A/) })
    expect((refused as Error).message).toBe('Invalid OAuth access token - Cannot parse access token')
    expect((refused as Error).message).not.toContain('otro')

    const client = metaCapiClient({ baseUrl: meta.url, pixelId: meta.pixelId, token: meta.token })
    meta.failNext(1, 503, metaError(2, 'Service temporarily unavailable', { is_transient: true }))
    await expect(client.send([event()])).rejects.toMatchObject({ code: 2, retryable: true })
    meta.dropNext(1)
    await expect(client.send([event()])).rejects.toMatchObject({ retryable: true })
    const nowhere = metaCapiClient({ baseUrl: await refusedUrl(), pixelId: meta.pixelId, token: meta.token })
    const offline = await nowhere.send([event()]).catch((e: unknown) => e)
    expect(offline).toMatchObject({ retryable: true })
    expect((offline as Error).message).not.toContain(meta.token)
  })

  test('Meta refuses an event older than 7 days', async () => {
    const client = metaCapiClient({ baseUrl: meta.url, pixelId: meta.pixelId, token: meta.token })
    const old = { ...event(), event_time: Math.floor(Date.now() / 1000) - 8 * 24 * 3600 }
    await expect(client.send([old])).rejects.toMatchObject({ code: 100, retryable: false })
  })
})

describe('browser events', () => {
  const deps = () => ({
    db: t.db,
    jobs: services.jobs,
    settings: services.marketing.settings,
    limits: rateLimits(t.db),
  })

  test('go to Meta through the queue with the same event id and the browser’s identifiers unhashed', async () => {
    const request = new Request('http://tienda.test/api/eventos-meta', {
      method: 'POST',
      headers: { Cookie: `${CONSENTED}; _fbp=fb.1.1700000000000.111`, 'User-Agent': 'Mozilla/5.0 (Prueba)' },
    })
    const tracking = readTrackingRequest(request, '198.51.100.4', ['http://tienda.test/?fbclid=IwAR2_Ab-cD'])
    await recordBrowserEvent(deps(), tracking, {
      eventName: 'AddToCart',
      eventId: 'c0ffee-1',
      eventSourceUrl: 'http://tienda.test/producto/COL-1',
      customData: { currency: 'COP', value: 45000, content_ids: ['COL-1'], content_type: 'product' },
    })
    await expect.poll(receivedIds, { timeout: 20_000, interval: 250 }).toContain('c0ffee-1')
    const { event, testEventCode } = meta.received.find((r) => r.event.event_id === 'c0ffee-1')!
    expect(testEventCode).toBe(TEST_CODE)
    expect(event).toEqual({
      event_name: 'AddToCart',
      event_time: expect.any(Number),
      event_id: 'c0ffee-1',
      event_source_url: 'http://tienda.test/producto/COL-1',
      action_source: 'website',
      user_data: {
        country: [HASH.country],
        client_ip_address: '198.51.100.4',
        client_user_agent: 'Mozilla/5.0 (Prueba)',
        fbp: 'fb.1.1700000000000.111',
        // No _fbc cookie: built from the landing URL's fbclid, which is kept exactly.
        fbc: expect.stringMatching(/^fb\.1\.\d{13}\.IwAR2_Ab-cD$/),
      },
      custom_data: { currency: 'COP', value: 45000, content_ids: ['COL-1'], content_type: 'product' },
    })
    expect(Math.abs((event.event_time as number) - Date.now() / 1000)).toBeLessThan(60)
  })

  test('_fbc: the cookie wins; otherwise the first URL with an fbclid', () => {
    const now = new Date(1_700_000_000_123)
    expect(fbcFromUrls(['http://tienda.test/', 'http://tienda.test/?a=1&fbclid=AbC_-1'], now)).toBe(
      'fb.1.1700000000123.AbC_-1',
    )
    expect(fbcFromUrls(['no es url', undefined], now)).toBeNull()
    const withCookie = readTrackingRequest(
      new Request('http://tienda.test/', { headers: { Cookie: '_fbc=fb.1.1.cookie' } }),
      null,
      ['http://tienda.test/?fbclid=otro'],
    )
    expect(withCookie.browser.fbc).toBe('fb.1.1.cookie')
  })

  test('identifiers not of Meta’s form are dropped, control characters leave the user agent', () => {
    const now = new Date(1_700_000_000_123)
    // A hand-made link: `?fbclid=%00` and friends never become an _fbc.
    for (const fbclid of ['%00', 'a%0Ab', 'a%20b', 'a.b', 'x'.repeat(501), '%E0'])
      expect(fbcFromUrls([`http://tienda.test/?fbclid=${fbclid}`], now)).toBeNull()
    const read = (cookie: string, userAgent = 'UA') =>
      readTrackingRequest(
        new Request('http://tienda.test/', { headers: { Cookie: cookie, 'User-Agent': userAgent } }),
        '203.0.113.7',
        ['http://tienda.test/?fbclid=%00'],
        now,
      ).browser
    for (const cookie of [
      '_fbc=fb.1.1.%00; _fbp=fb.1.1.%00',
      '_fbc=fb.1.1.%E0; _fbp=%E0',
      '_fbc=fb.1.1.a%0Ab; _fbp=fb.1.x.1',
      '_fbc=nada; _fbp=',
    ])
      expect(read(cookie)).toMatchObject({ fbc: null, fbp: null })
    expect(read('_fbc=fb.1.1700000000000.IwAR-x_1.Ab; _fbp=fb.2.1700000000000.42')).toMatchObject({
      fbc: 'fb.1.1700000000000.IwAR-x_1.Ab',
      fbp: 'fb.2.1700000000000.42',
    })
    const withControls = readTrackingRequest(
      new Request('http://tienda.test/', { headers: { 'User-Agent': 'Mozilla\t5.0' } }),
      'not an address\n',
    ).browser
    expect(withControls).toMatchObject({ clientUserAgent: 'Mozilla5.0', clientIpAddress: null })
  })
})

describe('Purchase', () => {
  beforeEach(() => clearJobs(t.database))

  test('a tracking cookie a link or a browser broke never fails the order: it is placed, without it', async () => {
    for (const cookie of [
      `${CONSENTED}; _fbc=fb.1.1.%00; _fbp=fb.1.1.%00`,
      `${CONSENTED}; _fbc=%E0; _fbp=fb.1.1.%E0`,
    ]) {
      const { order } = await place('acordar', cookie)
      expect(order.number).toBeGreaterThan(0)
      const [context] = await t.db
        .select()
        .from(metaOrderContexts)
        .where(eq(metaOrderContexts.orderId, order.id))
      expect(context).toMatchObject({ fbc: null, fbp: null, clientUserAgent: 'Mozilla/5.0 (Prueba)' })
    }
  })

  test('a cash-on-delivery order sends its Purchase at placement: order number, total in pesos, hashed customer', async () => {
    const { order, product } = await place('acordar')
    await expect.poll(receivedIds, { timeout: 20_000, interval: 250 }).toContain(String(order.number))
    const { event, testEventCode } = meta.received.find((r) => r.event.event_id === String(order.number))!
    expect(testEventCode).toBe(TEST_CODE)
    expect(event).toEqual({
      event_name: 'Purchase',
      event_time: expect.any(Number),
      event_id: String(order.number),
      event_source_url: 'http://tienda.test/finalizar-pedido',
      action_source: 'website',
      user_data: {
        em: [HASH.email],
        ph: [HASH.phone],
        fn: [HASH.fn],
        ln: [HASH.ln],
        ct: [HASH.ct],
        st: [HASH.st],
        country: [HASH.country],
        external_id: [HASH.phone],
        client_ip_address: '203.0.113.7',
        client_user_agent: 'Mozilla/5.0 (Prueba)',
        fbp: 'fb.1.1700000000000.987654321',
        fbc: 'fb.1.1700000000000.IwAR-landing',
      },
      custom_data: {
        currency: 'COP',
        value: order.total / 100,
        content_type: 'product',
        content_ids: [product.sku],
        contents: [{ id: product.sku, quantity: 2, item_price: 45000 }],
        num_items: 2,
        order_id: String(order.number),
      },
    })
    expect(order.total).toBeGreaterThanOrEqual(9_000_000)
    await expect
      .poll(async () => (await listOrderEvents(t.db, order.id)).map((e) => e.type), { timeout: 10_000 })
      .toContain('meta-sent')
    // What the browser said at checkout is not kept once sent.
    await expect
      .poll(async () => t.db.select().from(metaOrderContexts).where(eq(metaOrderContexts.orderId, order.id)))
      .toEqual([])
  })

  test('an online order sends nothing at checkout, and its Purchase once paid', async () => {
    const { order } = await place('mercadopago')
    expect(await metaJobsFor(order.id)).toEqual([])
    const [context] = await t.db
      .select()
      .from(metaOrderContexts)
      .where(eq(metaOrderContexts.orderId, order.id))
    expect(context).toMatchObject({ clientIpAddress: '203.0.113.7', fbp: 'fb.1.1700000000000.987654321' })
    await t.db.transaction((tx) => enqueuePaidOrderPurchase(tx, services.jobs, order.id))
    await expect.poll(receivedIds, { timeout: 20_000, interval: 250 }).toContain(String(order.number))
    expect(meta.received.find((r) => r.event.event_id === String(order.number))?.event.event_name).toBe(
      'Purchase',
    )
  })

  test('nothing is kept or sent without advertising consent, from staff browsers or for the owner', async () => {
    const noConsent = await place('acordar', '_fbp=fb.1.1.1')
    const staff = await place('acordar', `${CONSENTED}; vitrina_staff=1`)
    const owner = await place('acordar', CONSENTED, ` ${OWNER.toUpperCase()}`)
    for (const { order } of [noConsent, staff, owner]) {
      expect(
        await t.db.select().from(metaOrderContexts).where(eq(metaOrderContexts.orderId, order.id)),
      ).toEqual([])
    }
    for (const { order } of [noConsent, staff, owner]) expect(await metaJobsFor(order.id)).toEqual([])
  })
})

describe('the job', () => {
  const browserJob = (eventTime: number, eventId: string): MetaEventJob => ({
    kind: 'browser',
    eventName: 'Contact',
    eventId,
    eventTime,
    eventSourceUrl: 'http://tienda.test/',
    customData: {},
    browser: { clientIpAddress: '203.0.113.7', clientUserAgent: 'UA', fbp: null, fbc: null },
  })
  const capi = () => metaCapiClient({ baseUrl: meta.url, pixelId: meta.pixelId, token: meta.token })

  test('retries: a transient failure throws for the queue to try again, and the retry goes through', async () => {
    expect(await services.runtime.boss.getQueue('meta-event')).toMatchObject({
      retryLimit: 10,
      retryBackoff: true,
      deadLetter: DEAD_LETTER_QUEUE,
    })
    const job = browserJob(Math.floor(Date.now() / 1000), 'retry-1')
    meta.failNext(1, 500, metaError(1, 'An unknown error occurred', { is_transient: true }))
    await expect(sendMetaEvent({ db: t.db, capi: capi() }, job)).rejects.toBeInstanceOf(MetaApiError)
    expect(receivedIds()).toEqual([])
    await expect(sendMetaEvent({ db: t.db, capi: capi() }, job)).resolves.toMatchObject({ sent: 'retry-1' })
    expect(receivedIds()).toEqual(['retry-1'])
  })

  test('drops an event older than 7 days with a log instead of sending what Meta refuses', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
    const eightDaysAgo = Math.floor(Date.now() / 1000) - 8 * 24 * 3600
    const result = await sendMetaEvent({ db: t.db, capi: capi() }, browserJob(eightDaysAgo, 'old-1'))
    expect(result).toEqual({ dropped: 'old-1' })
    expect(meta.requests).toEqual([])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('descartado'))
    warn.mockRestore()
  })

  test('a refusal a retry cannot fix is recorded on the order, not retried', async () => {
    const { order } = await placeWithoutWorkers()
    meta.failNext(1, 400, metaError(100, 'Invalid parameter', { error_subcode: 2804019 }))
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
    const result = await sendMetaEvent(
      { db: t.db, capi: capi() },
      { kind: 'purchase', orderId: order.id, eventTime: Math.floor(Date.now() / 1000) },
    )
    warn.mockRestore()
    expect(result).toEqual({ failed: 'Invalid parameter' })
    const events = await listOrderEvents(t.db, order.id)
    expect(events.find((e) => e.type === 'meta-failed')?.message).toBe(
      'Meta rechazó el evento Purchase: Invalid parameter',
    )
  })

  test('without META_CAPI_TOKEN the job records that it skipped', async () => {
    const { order } = await placeWithoutWorkers()
    const result = await sendMetaEvent(
      { db: t.db, capi: null },
      { kind: 'purchase', orderId: order.id, eventTime: Math.floor(Date.now() / 1000) },
    )
    expect(result).toEqual({ skipped: 'sin configuración' })
    expect(meta.requests).toEqual([])
    const events = await listOrderEvents(t.db, order.id)
    expect(events.find((e) => e.type === 'meta-skipped')?.message).toBe(
      'Evento Purchase para Meta omitido: META_CAPI_TOKEN no está configurado.',
    )
    expect(
      await sendMetaEvent({ db: t.db, capi: null }, browserJob(Math.floor(Date.now() / 1000), 'x')),
    ).toEqual({
      skipped: 'sin configuración',
    })
  })
})

describe('what is kept for Meta', () => {
  test('goes after 8 days by a scheduled job, whether or not events flow: contexts, event jobs and their dead letters', async () => {
    const boss = services.runtime.boss
    expect(await boss.getSchedules()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'meta-purge', cron: '7 * * * *', timezone: 'America/Bogota' }),
      ]),
    )
    // A meta-event job nobody ran in 7 days is archived by pg-boss (then purged by date).
    expect(await boss.getQueue('meta-event')).toMatchObject({ retentionMinutes: 7 * 24 * 60 })

    const { order: old } = await placeWithoutWorkers()
    const { order: recent } = await placeWithoutWorkers()
    const nineDaysAgo = new Date(Date.now() - 9 * 24 * 3600 * 1000)
    await t.db
      .update(metaOrderContexts)
      .set({ createdAt: nineDaysAgo })
      .where(eq(metaOrderContexts.orderId, old.id))
    const later = new Date(Date.now() + 3600 * 1000)
    const payload: MetaEventJob = {
      kind: 'browser',
      eventName: 'Contact',
      eventId: 'purge-1',
      eventTime: Math.floor(Date.now() / 1000),
      eventSourceUrl: 'http://tienda.test/',
      customData: {},
      browser: { clientIpAddress: '203.0.113.7', clientUserAgent: 'UA', fbp: null, fbc: null },
    }
    const oldJob = await boss.send('meta-event', payload, { startAfter: later })
    const oldDeadLetter = await boss.send(DEAD_LETTER_QUEUE, payload)
    const recentJob = await boss.send('meta-event', payload, { startAfter: later })
    await t.database.executeSql(`update pgboss.job set created_on = $1 where id = any($2::uuid[])`, [
      nineDaysAgo.toISOString(),
      [oldJob, oldDeadLetter],
    ])

    const handlers = jobHandlers(services)
    expect(await handlers['meta-purge']({})).toEqual({ contexts: 1, jobs: 2 })
    const contexts = await t.db.select({ orderId: metaOrderContexts.orderId }).from(metaOrderContexts)
    expect(contexts.map((c) => c.orderId)).toContain(recent.id)
    expect(contexts.map((c) => c.orderId)).not.toContain(old.id)
    const { rows } = await t.database.executeSql(`select id from pgboss.job where id = any($1::uuid[])`, [
      [oldJob, oldDeadLetter, recentJob],
    ])
    expect(rows).toEqual([{ id: recentJob }])
    await boss.cancel('meta-event', recentJob!)
  })
})

/** The meta-event jobs of one order, whatever their state. */
async function metaJobsFor(orderId: string) {
  const { rows } = await t.database.executeSql(
    `select state from pgboss.job where name = 'meta-event' and data->>'orderId' = $1`,
    [orderId],
  )
  return rows
}

/** An online order with a kept context (no job runs for it until it is paid). */
async function placeWithoutWorkers() {
  return place('mercadopago')
}
