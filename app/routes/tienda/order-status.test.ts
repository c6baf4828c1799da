import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { CLAIM_MESSAGES } from '#app/modules/order/claims.ts'
import { completeOrder } from '#app/modules/order/complete.server.ts'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { claimsOf } from '#app/modules/order/request-claim.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { orderLinkToken } from '#app/modules/order/status-link.server.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { queuedJobs } from '#tests/jobs.ts'
import { placeDiscountedOrder } from '#tests/discounted-orders.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { routeContext } from '#tests/routes.ts'
import * as orderStatus from './order-status.tsx'

/**
 * `/pedido/:numero`, the buyer's order page: the phone's last 4 digits give its signed link, only
 * that link shows the order, and the requests it sends (retracto, reversión) carry the same key.
 */

const BASE = 'http://tienda.test'
const NOTIFY_NUMBER = '573001112233'
const LOOKUP_REFUSED = 'No encontramos un pedido con ese número y esos dígitos del teléfono.'
const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>

beforeAll(async () => {
  const env = parseEnv({ PUBLIC_URL: BASE, WHATSAPP_NOTIFY_NUMBERS: NOTIFY_NUMBER })
  services = await startServices(env, t.database, { workers: false })
})
afterAll(async () => {
  await services.stop()
})

let phones = 0
/** A cash-on-delivery order of 2 units delivered just now (its retracto open), and its phone. */
async function deliveredOrder() {
  const product = await stockedProduct(t.db, 5)
  const phone = `315${String(2_000_000 + phones++).padStart(7, '0')}`
  const placed = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, phone })
  await completeOrder(t.db, recordingJobQueue(), placed.id, 'duena@vitrina.test')
  return { id: placed.id, number: placed.number, phone }
}

const keyOf = (number: number) => orderLinkToken(services.orderLinkSecret, number)

let clients = 0
/** Each call its own client address, so the lookup allowance only bites where a test means it. */
const context = (client = `10.9.0.${++clients}`) => routeContext(services, client)

function load(numero: string, clave?: string | null) {
  const url = new URL(`${BASE}/pedido/${encodeURIComponent(numero)}`)
  if (clave != null) url.searchParams.set('clave', clave)
  return orderStatus.loader({
    request: new Request(url),
    url,
    params: { numero },
    context: context(),
  } as never)
}

type Answer = { ok: boolean; message: string }

/** Posts the form; answers the status and body of a `data()` answer, or the redirect's location. */
async function post(numero: string, fields: Record<string, string>, client?: string) {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  const request = new Request(`${BASE}/pedido/${numero}`, { method: 'POST', body, headers: { Origin: BASE } })
  const result = (await orderStatus.action({
    request,
    params: { numero },
    context: context(client),
  } as never)) as unknown
  if (result instanceof Response) {
    return { status: result.status, location: result.headers.get('Location'), answer: null }
  }
  const wrapped = result as { type?: string; data: Answer; init: { status: number } | null }
  if (wrapped.type !== 'DataWithResponseInit')
    return { status: 200, location: null, answer: result as Answer }
  return { status: wrapped.init?.status ?? 200, location: null, answer: wrapped.data }
}

/** What a route threw (React Router answers it), or a failure when it did not throw. */
async function thrown(run: () => Promise<unknown>) {
  try {
    await run()
  } catch (error) {
    return error as { data?: unknown; init?: { status: number } | null }
  }
  throw new Error('no lanzó nada')
}

describe('consulta con los dígitos del teléfono', () => {
  test('the right last 4 digits redirect to the signed page', async () => {
    const order = await deliveredOrder()
    const answer = await post(String(order.number), { intent: 'consultar', digitos: order.phone.slice(-4) })
    expect(answer.status).toBe(302)
    expect(answer.location).toBe(`/pedido/${order.number}?clave=${keyOf(order.number)}`)
  })

  test('wrong digits, and a number no order has, get the same 400 and Spanish message', async () => {
    const order = await deliveredOrder()
    const wrong = order.phone.slice(-4) === '0000' ? '1111' : '0000'
    const answers = [
      await post(String(order.number), { intent: 'consultar', digitos: wrong }),
      // Not 4 digits: the whole phone, or nothing at all.
      await post(String(order.number), { intent: 'consultar', digitos: order.phone }),
      await post(String(order.number), { intent: 'consultar' }),
      // Unknown order, even with digits of a real phone: it says nothing of whether it exists.
      await post('987654', { intent: 'consultar', digitos: order.phone.slice(-4) }),
    ]
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 400,
        location: null,
        answer: expect.objectContaining({ ok: false, message: LOOKUP_REFUSED }),
      })
    }
  })

  test('past 10 tries from one connection the lookup is refused with the limit’s message', async () => {
    const order = await deliveredOrder()
    const client = '10.77.0.1'
    for (let i = 0; i < RATE_LIMITS.orderLookup.points; i++) {
      expect(
        (await post(String(order.number), { intent: 'consultar', digitos: '0000' }, client)).status,
      ).toBe(400)
    }
    const refused = await post(
      String(order.number),
      { intent: 'consultar', digitos: order.phone.slice(-4) },
      client,
    )
    expect(refused.status).toBe(429)
    expect(refused.answer?.message).toBe(RATE_LIMITS.orderLookup.message)
  })
})

describe('the page', () => {
  test('with its key it shows the order and what may be asked', async () => {
    const order = await deliveredOrder()
    const page = await load(String(order.number), keyOf(order.number))
    expect(page.key).toBe(keyOf(order.number))
    expect(page.order).toMatchObject({ number: order.number, status: 'Entregado', claims: [] })
    expect(page.order?.retracto).toMatchObject({ open: true })
    expect(page.today).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  test('without a key, or with a forged one or another order’s, it shows only the lookup', async () => {
    const order = await deliveredOrder()
    const other = await deliveredOrder()
    for (const clave of [null, '', 'x'.repeat(22), keyOf(order.number).slice(0, 21), keyOf(other.number)]) {
      expect(await load(String(order.number), clave), String(clave)).toEqual({
        number: order.number,
        key: null,
        order: null,
        today: '',
        invoice: null,
        transfer: null,
      })
    }
    // An order that does not exist reads the same as one that does, without its key.
    expect(await load('987654')).toEqual({
      number: 987654,
      key: null,
      order: null,
      today: '',
      invoice: null,
      transfer: null,
    })
  })

  test('a number that is not one is a 404; its lookup answers as an unknown order, its requests are refused', async () => {
    for (const numero of ['abc', '-1', '1.5', '12345678901', ' 1']) {
      expect((await thrown(() => load(numero))).init?.status, numero).toBe(404)
      const lookup = await post(numero, { intent: 'consultar', digitos: '1234' })
      expect(lookup, numero).toEqual({
        status: 400,
        location: null,
        answer: expect.objectContaining({ ok: false, message: LOOKUP_REFUSED }),
      })
      const request = await post(numero, { intent: 'retracto', clave: 'A'.repeat(22) }).catch(
        (error: { init?: { status: number } }) => ({ status: error.init?.status, answer: null }),
      )
      expect(request.status, numero).toBe(404)
    }
  })
})

describe('solicitudes', () => {
  test('a request without the page’s key is refused and writes nothing', async () => {
    const order = await deliveredOrder()
    const forged = 'A'.repeat(22)
    const requests: Record<string, string>[] = [
      { intent: 'retracto' },
      { intent: 'retracto', clave: forged },
      { intent: 'reversion', clave: '', motivo: 'defectuoso', fecha: '2026-01-01' },
    ]
    for (const fields of requests) {
      const answer = await post(String(order.number), fields)
      expect(answer.status).toBe(403)
      expect(answer.answer).toMatchObject({ ok: false, message: LOOKUP_REFUSED })
    }
    expect(await claimsOf(t.db, order.id)).toEqual([])
  })

  test('a retracto through the form: recorded, on the timeline, the owner told; a second one is refused', async () => {
    const order = await deliveredOrder()
    const clave = keyOf(order.number)
    const answer = await post(String(order.number), {
      intent: 'retracto',
      clave,
      descripcion: '  No me gustó  ',
    })
    expect(answer.status).toBe(200)
    expect(answer.answer).toMatchObject({ ok: true, message: CLAIM_MESSAGES.retractoRequested })
    const [claim, ...more] = await claimsOf(t.db, order.id)
    expect(more).toEqual([])
    expect(claim).toMatchObject({ kind: 'retracto', status: 'pendiente', description: 'No me gustó' })
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'claim-retracto',
      createdBy: 'cliente',
    })
    const notices = await queuedJobs<{ claimId: number; to: string }>(t.database, 'order-claim-notice')
    expect(notices.filter((notice) => notice.claimId === claim!.id)).toEqual([
      { claimId: claim!.id, to: NOTIFY_NUMBER },
    ])

    // The page now lists it and offers no form while it waits.
    const page = await load(String(order.number), clave)
    expect(page.order?.claims).toEqual([expect.objectContaining({ kind: 'retracto', status: 'pendiente' })])
    expect(page.order?.retracto).toBeNull()

    const again = await post(String(order.number), { intent: 'retracto', clave })
    expect(again.status).toBe(409)
    expect(again.answer?.message).toBe(CLAIM_MESSAGES.alreadyOpen)
  })

  test('a retracto after the term, a reversal of a cash order and an unknown intent are Spanish refusals', async () => {
    const order = await deliveredOrder()
    const clave = keyOf(order.number)
    await t.db
      .update(orders)
      .set({ deliveredAt: new Date(Date.now() - 30 * 24 * 60 * 60 * 1000) })
      .where(eq(orders.id, order.id))
    const late = await post(String(order.number), { intent: 'retracto', clave })
    expect(late.status).toBe(409)
    expect(late.answer?.message).toMatch(/^El plazo para el retracto venció el /)

    const today = new Date().toISOString().slice(0, 10)
    const reversal = await post(String(order.number), {
      intent: 'reversion',
      clave,
      motivo: 'defectuoso',
      fecha: today,
    })
    expect(reversal.status).toBe(409)
    expect(reversal.answer?.message).toBe(CLAIM_MESSAGES.notOnline)

    const unknown = await post(String(order.number), { intent: 'borrar', clave })
    expect(unknown.status).toBe(400)
    expect(unknown.answer?.message).toBe('Acción no reconocida.')
    expect(await claimsOf(t.db, order.id)).toEqual([])
  })
})

describe('an order with promotions', () => {
  test('the buyer’s page shows each line’s discount and net, the discount rows and the discounted total', async () => {
    const placed = await placeDiscountedOrder(t.db, { phone: '3152999001' })
    const page = (await load(String(placed.number), keyOf(placed.number))) as {
      order: {
        items: { title: string; net: number; discounts: { name: string; amount: number }[] }[]
        discounts: { name: string; amount: number }[]
        subtotal: number
        shippingCost: number
        total: number
      }
    }
    const lines = Object.fromEntries(page.order.items.map((item) => [item.title, item]))
    expect(lines['Collar Luna']).toMatchObject({
      net: 81_000_00,
      discounts: [{ name: 'Black Friday', amount: 9_000_00 }],
    })
    expect(lines['Aretes Sol']).toMatchObject({
      net: 18_000_00,
      discounts: [{ name: 'Cupón de Laura (LAURA10)', amount: 2_000_00 }],
    })
    expect(page.order.discounts).toEqual([
      { name: 'Black Friday', amount: 9_000_00 },
      { name: 'Cupón de Laura (LAURA10)', amount: 7_000_00 },
    ])
    expect(page.order).toMatchObject({ subtotal: 110_000_00, shippingCost: 12_000_00, total: 106_000_00 })
  })
})
