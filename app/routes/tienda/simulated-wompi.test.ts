import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { logger } from '#app/utils/logger.server.ts'
import { placeOrder } from '#app/modules/checkout/checkout.server.ts'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { SIMULATOR_MESSAGES } from '#app/modules/payment/messages.ts'
import { startOnlinePayment } from '#app/modules/payment/payment.server.ts'
import { chargedAmount } from '#app/modules/payment/provider.ts'
import { payments, simulatedPayments } from '#app/modules/payment/schema.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { routeContext } from '#tests/routes.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import * as wompiReturn from './wompi-return.ts'
import * as simulated from './simulated-wompi.tsx'

/**
 * The simulated Wompi page (no WOMPI_* keys) and the way back from Wompi, on a real database: the
 * page takes only the link the checkout signed, records the shopper's choice, and the return page
 * settles the order by the transaction it reads.
 */

const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>
let base: string

beforeAll(async () => {
  // Nothing listens there: the simulator's event post fails quietly, as a lost event would.
  base = await refusedUrl()
  services = await startServices(parseEnv({ PUBLIC_URL: base }), t.database, { workers: false })
  vi.spyOn(logger, 'error').mockImplementation(() => {})
})
afterAll(async () => {
  await services.stop()
  vi.restoreAllMocks()
})

let phones = 0

async function wompiOrder() {
  const product = await createProduct(t.db, { stock: 5, pesos: 45_000 })
  const placed = await placeOrder(services.checkout, {
    lines: [{ sku: product.sku, quantity: 2 }],
    customer: {
      name: 'Ana',
      // One phone per order: the hold limits count a phone's unpaid orders.
      phone: `310${String(1_000_000 + phones++)}`,
      address: 'Calle 1 # 2-3',
      department: 'Antioquia',
      municipality_code: '05001',
      payment_method: 'wompi',
      consent: true,
    },
  })
  const link = await startOnlinePayment(services.paymentDeps, placed.order.id, base, {
    cancelOnFailure: false,
  })
  return { order: (await getOrder(t.db, placed.order.id))!, link }
}

async function answer(run: () => Promise<unknown>) {
  try {
    const value = await run()
    if (value instanceof Response) return { status: value.status, location: value.headers.get('Location') }
    return { status: 200, body: value }
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get('Location') }
    const wrapped = thrown as { data: unknown; init: { status: number } | null }
    return { status: wrapped.init?.status ?? 500, body: wrapped.data }
  }
}

const args = (request: Request) => ({
  request,
  url: new URL(request.url),
  params: {},
  context: routeContext(services),
})

const choose = (path: string, resultado: string) =>
  answer(() =>
    simulated.action(
      args(
        new Request(`${base}${path}`, { method: 'POST', body: new URLSearchParams({ resultado }) }),
      ) as never,
    ),
  )

describe('the simulated Wompi page', () => {
  test('shows the signed amount; approving records one transaction and goes back to the return page', async () => {
    const { order, link } = await wompiOrder()
    expect(link.startsWith('/pago-simulado-wompi?')).toBe(true)
    const page = await answer(() => simulated.loader(args(new Request(`${base}${link}`)) as never))
    expect(page).toMatchObject({ status: 200, body: { amount: chargedAmount(order) } })
    const chosen = await choose(link, 'approved')
    expect(chosen.status).toBe(302)
    const back = new URL(chosen.location!, base)
    expect(back.pathname).toBe('/finalizar-pedido/wompi')
    expect(back.searchParams.get('pedido')).toBe(order.id)
    const [transaction] = await t.db
      .select()
      .from(simulatedPayments)
      .where(eq(simulatedPayments.orderId, order.id))
    expect(transaction).toMatchObject({
      provider: 'wompi',
      status: 'approved',
      id: back.searchParams.get('id'),
    })

    const returned = await answer(() => wompiReturn.loader(args(new Request(back)) as never))
    expect(returned).toMatchObject({ status: 302, location: `/finalizar-pedido/success?pedido=${order.id}` })
    expect((await getOrder(t.db, order.id))!.status).toBe('pagado')
    expect(await t.db.select().from(payments).where(eq(payments.orderId, order.id))).toMatchObject([
      { provider: 'wompi', status: 'approved' },
    ])
  })

  test('a link changed after signing (amount, reference, key) is refused, nothing recorded', async () => {
    const { order, link } = await wompiOrder()
    for (const [name, value] of [
      ['amount-in-cents', '100'],
      ['public-key', 'pub_test_otra'],
      ['signature:integrity', '0'.repeat(64)],
    ]) {
      const changed = new URL(link, base)
      changed.searchParams.set(name!, value!)
      const refused = await choose(`${changed.pathname}${changed.search}`, 'approved')
      expect(refused).toMatchObject({ status: 400, body: { message: SIMULATOR_MESSAGES.badWompiLink } })
    }
    expect(
      await t.db.select().from(simulatedPayments).where(eq(simulatedPayments.orderId, order.id)),
    ).toEqual([])
  })

  test('declined goes back to the failure page with the order still pending', async () => {
    const { order, link } = await wompiOrder()
    const back = new URL((await choose(link, 'rejected')).location!, base)
    expect(await answer(() => wompiReturn.loader(args(new Request(back)) as never))).toMatchObject({
      location: `/finalizar-pedido/failure?pedido=${order.id}`,
    })
    expect((await getOrder(t.db, order.id))!.status).toBe('pendiente de pago')
  })
})

describe('the way back from Wompi', () => {
  test('past the client’s allowance the return asks Wompi nothing and shows the order as it stands', async () => {
    const { order, link } = await wompiOrder()
    const back = new URL((await choose(link, 'approved')).location!, base)
    const client = '198.18.77.1'
    for (let i = 0; i < RATE_LIMITS.paymentReturn.points; i++)
      await services.rateLimits.take('paymentReturn', client)
    const returned = (from: string) =>
      answer(() =>
        wompiReturn.loader({
          request: new Request(back),
          url: back,
          params: {},
          context: routeContext(services, from),
        } as never),
      )
    expect(await returned(client)).toMatchObject({ location: `/finalizar-pedido/pending?pedido=${order.id}` })
    expect((await getOrder(t.db, order.id))!.status).toBe('pendiente de pago')
    expect(await returned('198.18.77.2')).toMatchObject({
      location: `/finalizar-pedido/success?pedido=${order.id}`,
    })
    // Reloaded: the same approval adds nothing to the timeline.
    await returned('198.18.77.2')
    const events = await listOrderEvents(t.db, order.id)
    expect(events.filter((event) => event.type === 'paid')).toHaveLength(1)
  })

  test('an unknown or malformed order is a 404; a malformed transaction id is not asked for', async () => {
    const { order } = await wompiOrder()
    const at = (query: string) =>
      answer(() => wompiReturn.loader(args(new Request(`${base}/finalizar-pedido/wompi?${query}`)) as never))
    expect((await at('pedido=no-es-un-id')).status).toBe(404)
    expect((await at(`pedido=${crypto.randomUUID()}`)).status).toBe(404)
    expect(await at(`pedido=${order.id}&id=${encodeURIComponent('../../x')}`)).toMatchObject({
      status: 302,
      location: `/finalizar-pedido/pending?pedido=${order.id}`,
    })
    expect(chargedAmount((await getOrder(t.db, order.id))!)).toBeGreaterThan(0)
  })
})
