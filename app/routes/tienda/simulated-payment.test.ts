import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { placeOrder } from '#app/modules/checkout/checkout.server.ts'
import { getOrder } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { expireUnpaidOnlineOrders } from '#app/modules/payment/payment.server.ts'
import { SIMULATOR_MESSAGES } from '#app/modules/payment/messages.ts'
import { simulatedPayments } from '#app/modules/payment/schema.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { routeContext } from '#tests/routes.ts'
import { createProduct } from '#tests/factories.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import * as result from './checkout-result.tsx'
import * as simulated from './simulated-payment.tsx'
import { logger } from '#app/utils/logger.server.ts'

/** The simulated payment page and the result pages on a real database (no MP_ACCESS_TOKEN). */

const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>
let base: string

beforeAll(async () => {
  // Nothing listens there: the simulator's own webhook call fails quietly, as a lost one would.
  base = await refusedUrl()
  services = await startServices(parseEnv({ PUBLIC_URL: base }), t.database, { workers: false })
})
afterAll(async () => {
  await services.stop()
})

async function onlineOrder() {
  const product = await createProduct(t.db, { stock: 5 })
  const placed = await placeOrder(services.checkout, {
    lines: [{ sku: product.sku, quantity: 1 }],
    customer: {
      name: 'Ana',
      phone: '3001234567',
      address: 'Calle 1 # 2-3',
      department: 'Antioquia',
      municipality_code: '05001',
      payment_method: 'mercadopago',
      consent: true,
    },
  })
  return placed.order
}

/** The thrown or returned answer of a loader or action: status and body. */
async function answer(run: () => Promise<unknown>) {
  let value: unknown
  try {
    value = await run()
  } catch (thrown) {
    value = thrown
  }
  if (value instanceof Response) return { status: value.status, body: value.headers.get('Location') }
  if (value && typeof value === 'object' && 'init' in value) {
    const wrapped = value as { data: unknown; init: { status: number } | null }
    return { status: wrapped.init?.status ?? 200, body: wrapped.data }
  }
  return { status: 200, body: value }
}

const callLoader = (module: { loader: (args: never) => unknown }, path: string, params = {}) =>
  answer(async () => {
    const request = new Request(`${base}${path}`)
    return module.loader({
      request,
      url: new URL(request.url),
      params,
      context: routeContext(services),
    } as never)
  })

function post(
  module: { action: (args: never) => unknown },
  path: string,
  fields: Record<string, string>,
  params = {},
) {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  const request = new Request(`${base}${path}`, { method: 'POST', body })
  return answer(async () => module.action({ request, params, context: routeContext(services) } as never))
}

describe('ids that are not ours get a 404 or 400 in Spanish, never a 500', () => {
  test.each(['\u0000', 'basura', "1' or '1'='1"])('/pago-simulado/%j', async (id) => {
    expect(await callLoader(simulated, `/pago-simulado/x`, { id })).toEqual({
      status: 404,
      body: 'Pedido no encontrado.',
    })
    expect((await post(simulated, '/pago-simulado/x', { resultado: 'approved' }, { id })).status).toBe(404)
  })

  test.each(['?pedido=%00', '?pedido=basura', '?external_reference=%00', `?pedido=${crypto.randomUUID()}`])(
    'result page %s',
    async (query) => {
      expect(await callLoader(result, `/finalizar-pedido/failure${query}`)).toEqual({
        status: 404,
        body: 'Pedido no encontrado.',
      })
    },
  )

  test.each(['', '?pedido=', '?external_reference='])(
    'the result page without an order (%j) still shows',
    async (query) => {
      expect(await callLoader(result, `/finalizar-pedido/pending${query}`)).toMatchObject({
        status: 200,
        body: { outcome: 'pending', order: null },
      })
    },
  )

  test.each(['\u0000', 'basura', ''])('the retry form with pedido=%j', async (pedido) => {
    expect(await post(result, '/finalizar-pedido/failure', { pedido })).toEqual({
      status: 400,
      body: { ok: false, message: 'El pedido no es válido.', at: expect.any(Number) },
    })
  })
})

test('a double click on "Aprobar pago" records one approval', async () => {
  const order = await onlineOrder()
  const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
  try {
    const [a, b] = await Promise.all([
      post(simulated, `/pago-simulado/${order.id}`, { resultado: 'approved' }, { id: order.id }),
      post(simulated, `/pago-simulado/${order.id}`, { resultado: 'approved' }, { id: order.id }),
    ])
    expect(a.status).toBe(302)
    expect(b.status).toBe(302)
    const paymentOf = (location: unknown) => new URL(String(location), base).searchParams.get('payment_id')
    expect(paymentOf(a.body)).toBe(paymentOf(b.body))
  } finally {
    error.mockRestore()
  }
  const approvals = await t.db.select().from(simulatedPayments).where(eq(simulatedPayments.orderId, order.id))
  expect(approvals.map((p) => p.status)).toEqual(['approved'])

  // Later (back button, a late click) the order is settled: the page sends the shopper to its result.
  await t.db.update(orders).set({ status: 'pagado' }).where(eq(orders.id, order.id))
  const late = await post(
    simulated,
    `/pago-simulado/${order.id}`,
    { resultado: 'approved' },
    { id: order.id },
  )
  expect(late).toMatchObject({ status: 302, body: `/finalizar-pedido/success?pedido=${order.id}` })
  await t.db.update(orders).set({ status: 'cancelado' }).where(eq(orders.id, order.id))
  const gone = await post(
    simulated,
    `/pago-simulado/${order.id}`,
    { resultado: 'approved' },
    { id: order.id },
  )
  expect(gone).toMatchObject({ status: 302, body: `/finalizar-pedido/failure?pedido=${order.id}` })
})

test('the simulated provider answers the expiry check from its own records', async () => {
  const paid = await onlineOrder()
  const unpaid = await onlineOrder()
  const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
  try {
    // Approved on the page, but its webhook never arrived (nothing listens at PUBLIC_URL).
    await post(simulated, `/pago-simulado/${paid.id}`, { resultado: 'approved' }, { id: paid.id })
    await post(simulated, `/pago-simulado/${unpaid.id}`, { resultado: 'rejected' }, { id: unpaid.id })
  } finally {
    error.mockRestore()
  }
  const old = new Date(Date.now() - 49 * 3_600_000)
  for (const id of [paid.id, unpaid.id]) {
    await t.db.update(orders).set({ createdAt: old }).where(eq(orders.id, id))
  }
  const outcome = await expireUnpaidOnlineOrders(services.paymentDeps, 48)
  expect(outcome).toMatchObject({ paid: 1, cancelled: 1 })
  expect((await getOrder(t.db, paid.id))?.status).toBe('pagado')
  expect((await getOrder(t.db, unpaid.id))?.status).toBe('cancelado')
})

describe('found by the fuzz suite', () => {
  test('a post naming no outcome the simulator offers is a 400 with a Spanish message', async () => {
    const order = await onlineOrder()
    for (const resultado of [undefined, 'toString', '__proto__', '']) {
      const fields: Record<string, string> = resultado === undefined ? {} : { resultado }
      expect(await post(simulated, `/pago-simulado/${order.id}`, fields, { id: order.id })).toEqual({
        status: 400,
        body: { message: SIMULATOR_MESSAGES.badChoice },
      })
    }
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
  })

  test('retrying the payment of an unknown or settled order is the shopper’s 4xx, not a 502', async () => {
    const unknown = await post(result, '/finalizar-pedido/failure', { pedido: crypto.randomUUID() })
    expect(unknown.status).toBe(404)
    const order = await onlineOrder()
    await t.db.update(orders).set({ status: 'cancelado' }).where(eq(orders.id, order.id))
    expect(await post(result, '/finalizar-pedido/failure', { pedido: order.id })).toEqual({
      status: 409,
      body: {
        ok: false,
        message: 'Hubo un error al procesar el pago. El pedido ya no está pendiente de pago.',
        at: expect.any(Number),
      },
    })
  })
})
