import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  CART_COOKIE,
  CART_NOTICE_COOKIE,
  readCartCookie,
  readCartNotice,
} from '#app/modules/cart/cart-cookie.ts'
import { DRAFT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { checkoutDrafts } from '#app/modules/checkout/schema.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { routeContext } from '#tests/routes.ts'
import * as draftRoute from '../api/checkout-draft.ts'
import * as recovery from './cart-recovery.ts'
import * as checkout from './checkout.tsx'
import { CHECKOUT_DRAFT_PATH } from './checkout/keep-draft.ts'

/** A checkout begun and left: kept as typed (script or refused form), recovered by its link. */
const BASE = 'http://tienda.test'
const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>

beforeAll(async () => {
  services = await startServices(parseEnv({ PUBLIC_URL: BASE }), t.database, { workers: false })
})
afterAll(() => services.stop())

const draftOf = async (phone: string) =>
  t.db.select().from(checkoutDrafts).where(eq(checkoutDrafts.phone, phone))

function postDraft(fields: Record<string, string>, cookie = '', client = '203.0.113.7') {
  const request = new Request(`${BASE}${CHECKOUT_DRAFT_PATH}`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
  })
  return draftRoute.action({ request, params: {}, context: routeContext(services, client) } as never)
}

test('the page’s script keeps what is typed, with the cart posted or in the cookie; unticked, it is forgotten', async () => {
  const product = await createProduct(t.db, { stock: 4 })
  const cart = JSON.stringify([{ sku: product.sku, quantity: 2 }])
  const kept = await postDraft({ phone: '300 222 0001', name: 'Sara', email: '', consent: 'on', cart })
  expect(kept.status).toBe(204)
  expect(await draftOf('3002220001')).toMatchObject([
    { name: 'Sara', lines: [{ sku: product.sku, quantity: 2 }] },
  ])

  await postDraft({ phone: '3002220001', name: 'Sara', consent: 'on' }, `${CART_COOKIE}=${product.sku}:1`)
  expect(await draftOf('3002220001')).toMatchObject([{ lines: [{ sku: product.sku, quantity: 1 }] }])

  await postDraft({ phone: '3002220001', name: 'Sara', cart })
  expect(await draftOf('3002220001')).toEqual([])
})

test('a client past its allowance is told so and nothing is kept', async () => {
  const product = await createProduct(t.db, { stock: 4 })
  const cart = JSON.stringify([{ sku: product.sku, quantity: 1 }])
  const client = '198.51.100.77'
  for (let i = 0; i < RATE_LIMITS.checkoutDraft.points; i++)
    await postDraft({ phone: '3002220002', consent: 'on', cart }, '', client)
  await t.db.delete(checkoutDrafts).where(eq(checkoutDrafts.phone, '3002220002'))
  const refused = await postDraft({ phone: '3002220002', consent: 'on', cart }, '', client)
  expect(refused.status).toBe(429)
  expect(await refused.json()).toEqual({ ok: false, message: RATE_LIMITS.checkoutDraft.message })
  expect(await draftOf('3002220002')).toEqual([])

  // Nor through the checkout form shown again ("Ver municipios" keeps a draft too): same allowance.
  const form = new FormData()
  for (const [name, value] of Object.entries({
    phone: '3002220002',
    consent: 'on',
    cart,
    intent: 'municipios',
  }))
    form.set(name, value)
  await checkout.action({
    request: new Request(`${BASE}/finalizar-pedido`, { method: 'POST', body: form }),
    params: {},
    context: routeContext(services, client),
  } as never)
  expect(await draftOf('3002220002')).toEqual([])
})

test('a checkout form the shop shows again without an order keeps what was typed (no scripts needed)', async () => {
  const product = await createProduct(t.db, { stock: 4 })
  const body = new FormData()
  const fields = {
    cart: JSON.stringify([{ sku: product.sku, quantity: 1 }]),
    name: 'Tomás',
    phone: '3002220003',
    email: 'tomas@example.com',
    consent: 'on',
    payment_method: 'acordar',
    checkout_key: randomUUID(),
    // No address: the form is refused and shown again.
  }
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  const request = new Request(`${BASE}/finalizar-pedido`, { method: 'POST', body })
  const answer = (await checkout.action({
    request,
    params: {},
    context: routeContext(services),
  } as never)) as {
    init: { status: number }
  }
  expect(answer.init.status).toBe(400)
  expect(await draftOf('3002220003')).toMatchObject([{ name: 'Tomás', email: 'tomas@example.com' }])

  // "Ver municipios" before ticking the box again leaves it; an order sent with it unticked forgets it.
  const send = async (extra: Record<string, string>) => {
    const form = new FormData()
    for (const [name, value] of Object.entries({ ...fields, consent: '', ...extra })) form.set(name, value)
    await checkout.action({
      request: new Request(`${BASE}/finalizar-pedido`, { method: 'POST', body: form }),
      params: {},
      context: routeContext(services),
    } as never)
  }
  await send({ intent: 'municipios', department: 'Antioquia' })
  expect(await draftOf('3002220003')).toHaveLength(1)
  await send({ checkout_key: randomUUID() })
  expect(await draftOf('3002220003')).toEqual([])
})

test('the recovery link puts the products back beside the cart’s, says so, and a link no longer kept says that', async () => {
  const left = await createProduct(t.db, { stock: 4 })
  const inCart = await createProduct(t.db, { stock: 4 })
  await postDraft({
    phone: '3002220004',
    consent: 'on',
    cart: JSON.stringify([{ sku: left.sku, quantity: 3 }]),
  })
  const [draft] = await draftOf('3002220004')
  const open = (token: string, cookie = '', userAgent = 'Mozilla/5.0 (Linux; Android 14)') =>
    recovery.loader({
      request: new Request(`${BASE}/carrito/recuperar/${token}`, {
        headers: { Cookie: cookie, 'User-Agent': userAgent },
      }),
      params: { token },
      context: routeContext(services),
    } as never) as Promise<Response>
  const cookiesOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ')

  // WhatsApp fetching the link for its preview of the shop's message is not the shopper opening it.
  const preview = await open(draft!.token, '', 'WhatsApp/2.24.8.85 A')
  expect(readCartCookie(cookiesOf(preview))).toEqual([{ sku: left.sku, quantity: 3 }])
  expect((await draftOf('3002220004'))[0]!.linkOpenedAt).toBeNull()

  const back = await open(draft!.token, `${CART_COOKIE}=${inCart.sku}:2|${left.sku}:1`)
  expect(back.status).toBe(302)
  expect(back.headers.get('Location')).toBe('/carrito')
  expect(readCartCookie(cookiesOf(back))).toEqual([
    { sku: inCart.sku, quantity: 2 },
    { sku: left.sku, quantity: 3 },
  ])
  expect(readCartNotice(cookiesOf(back))).toEqual({ message: DRAFT_MESSAGES.recovered, tone: 'success' })
  expect((await draftOf('3002220004'))[0]!.linkOpenedAt).not.toBeNull()

  const gone = await open('enlace-que-no-existe')
  expect(gone.headers.get('Location')).toBe('/carrito')
  expect(cookiesOf(gone)).not.toContain(`${CART_COOKIE}=`)
  expect(cookiesOf(gone)).toContain(`${CART_NOTICE_COOKIE}=`)
  expect(readCartNotice(cookiesOf(gone))).toEqual({ message: DRAFT_MESSAGES.linkGone, tone: 'warning' })
})
