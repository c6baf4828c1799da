import { randomUUID } from 'node:crypto'
import { formatCOP } from '#app/utils/money.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { products } from '#app/modules/catalog/schema.ts'
import { CART_COOKIE } from '#app/modules/cart/cart-cookie.ts'
import { CAMPAIGN_COOKIE } from '#app/modules/analytics/campaign.ts'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, serializeConsent } from '#app/modules/analytics/consent.ts'
import { getOrder } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { startServices } from '#app/services.server.ts'
import { CHECKOUT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { routeContext } from '#tests/routes.ts'
import { createProduct } from '#tests/factories.ts'
import { startMercadoPagoStandIn, type MercadoPagoStandIn } from '#tests/stand-ins/mercadopago.ts'
import { HOLD_LIMIT_MESSAGES } from '#app/modules/checkout/hold-limits.server.ts'
import * as checkout from './checkout.tsx'
import * as checkoutResult from './checkout-result.tsx'
import { logger } from '#app/utils/logger.server.ts'
import { quoteFlat, quoteLive, standInCarriers } from '#tests/carrier-quotes.ts'
import { startEnviaStandIn } from '#tests/stand-ins/envia.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'

/** The checkout route's action on a real database, with Mercado Pago played by its stand-in. */

const BASE = 'http://tienda.test'
const t = setupTestDatabase()
let services: Awaited<ReturnType<typeof startServices>>
let mp: MercadoPagoStandIn

beforeAll(async () => {
  mp = await startMercadoPagoStandIn()
  const env = parseEnv({
    MP_ACCESS_TOKEN: mp.accessToken,
    MP_WEBHOOK_SECRET: 'secreto',
    MP_API_URL: mp.url,
    PUBLIC_URL: BASE,
  })
  services = await startServices(env, t.database, { workers: false })
})
afterAll(async () => {
  await services.stop()
  await mp.stop()
})
beforeEach(() => mp.reset())

type ActionData = { messages: string[]; checkoutKey: string }

let phoneCounter = 0

function form(fields: Record<string, string>) {
  const body = new FormData()
  // A phone per post: unpaid orders count against their phone's hold limits across the file's tests.
  const phone = `300${String(1_000_000 + phoneCounter++).padStart(7, '0')}`
  const all: Record<string, string> = {
    name: 'Ana',
    last_name: 'Gómez',
    phone,
    email: 'ana@example.com',
    address: 'Calle 10 # 20-30',
    city: 'Medellín',
    department: 'Antioquia',
    municipality_code: '05001',
    payment_method: 'mercadopago',
    consent: 'on',
    ...fields,
  }
  for (const [name, value] of Object.entries(all)) body.set(name, value)
  return body
}

/** Runs the action; answers `{status, data}` for data(), `{status, location}` for a redirect. */
async function submit(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  clientAddress: string | null = null,
) {
  const request = new Request(`${BASE}/finalizar-pedido`, { method: 'POST', body: form(fields), headers })
  const context = routeContext(services, clientAddress)
  const result = (await checkout.action({ request, params: {}, context } as never)) as unknown
  if (result instanceof Response) {
    return {
      status: result.status,
      location: result.headers.get('Location'),
      setCookie: result.headers.get('Set-Cookie'),
      data: undefined as ActionData | undefined,
    }
  }
  const wrapped = result as { data: ActionData; init: { status: number } }
  return { status: wrapped.init.status, data: wrapped.data, location: null, setCookie: null }
}

const reservedOf = async (sku: string) =>
  (await t.db.select({ reserved: products.reserved }).from(products).where(eq(products.sku, sku)))[0]!
    .reserved

const ordersWithKey = (key: string) => t.db.select().from(orders).where(eq(orders.checkoutKey, key))

describe('a failed Mercado Pago start', () => {
  test('answers a fresh checkout key, and the same form sent again places a new order', async () => {
    const product = await createProduct(t.db, { stock: 5 })
    const key = randomUUID()
    const fields = { cart: JSON.stringify([{ sku: product.sku, quantity: 1 }]), checkout_key: key }
    mp.failNext(1, 500)
    const failed = await submit(fields)
    expect(failed.status).toBe(502)
    expect(failed.data?.messages).toEqual(['Hubo un error al procesar el pago. Internal server error'])
    // React Router keeps the loader's key after a 5xx: the answer carries a new one for the form.
    expect(failed.data?.checkoutKey).toMatch(/^[0-9a-f-]{36}$/)
    expect(failed.data?.checkoutKey).not.toBe(key)
    expect(await reservedOf(product.sku)).toBe(0)

    // A form that still sends the old key (no JavaScript, or an old page) is not stuck either.
    const again = await submit(fields)
    expect(again.status).toBe(302)
    expect(again.location).toMatch(/^https:\/\/www\.mercadopago\.com\.co\/checkout\/v1\/redirect\?pref_id=/)
    const [placed] = await ordersWithKey(key)
    expect(placed?.status).toBe('pendiente de pago')
    expect(await reservedOf(product.sku)).toBe(1)
  })
})

test('a double submit whose second payment start fails does not cancel the first one’s order', async () => {
  const product = await createProduct(t.db, { stock: 5 })
  const key = randomUUID()
  const fields = { cart: JSON.stringify([{ sku: product.sku, quantity: 2 }]), checkout_key: key }
  const first = await submit(fields)
  expect(first.status).toBe(302)
  mp.failNext(1, 500)
  const second = await submit(fields)
  expect(second.status).toBe(502)
  const [order] = await ordersWithKey(key)
  expect(order?.status).toBe('pendiente de pago')
  expect(await reservedOf(product.sku)).toBe(2)
})

test('a quantity that is no whole number says so, naming the product, and the form keeps what was typed', async () => {
  const product = await createProduct(t.db, { name: 'Collar Brisa', stock: 5 })
  for (const quantity of ['1.5', '-3', '"abc"', '"1e3"']) {
    const result = await submit({
      cart: `[{"sku":${JSON.stringify(product.sku)},"quantity":${quantity}}]`,
      checkout_key: randomUUID(),
      name: 'Lucía',
      address: 'Carrera 7 # 8-9',
    })
    expect(result.status, quantity).toBe(400)
    const data = result.data as ActionData & { values: Record<string, unknown> }
    expect(data.messages, quantity).toEqual([
      'La cantidad de Collar Brisa debe ser un número entero de 1 en adelante.',
    ])
    expect(data.messages).not.toContain(CHECKOUT_MESSAGES.emptyCart)
    expect(data.values).toMatchObject({
      name: 'Lucía',
      address: 'Carrera 7 # 8-9',
      municipality_code: '05001',
    })
  }
  expect(await reservedOf(product.sku)).toBe(0)
})

describe('before hydration or without JavaScript the cart comes from its cookie', () => {
  test('an empty posted cart falls back to the cookie, which the success page empties', async () => {
    const product = await createProduct(t.db, { stock: 5 })
    const cookie = `otra=1; ${CART_COOKIE}=${encodeURIComponent(product.sku)}:2`
    const result = await submit(
      { cart: '[]', checkout_key: randomUUID(), payment_method: 'acordar' },
      { Cookie: cookie },
    )
    expect(result.status).toBe(302)
    const id = new URL(result.location!, BASE).searchParams.get('pedido')!
    expect((await getOrder(t.db, id))?.items).toMatchObject([{ productSku: product.sku, quantity: 2 }])
    const url = new URL(result.location!, BASE)
    const success = (await checkoutResult.loader({
      request: new Request(url),
      url,
      params: {},
      context: routeContext(services),
    } as never)) as unknown as { init: ResponseInit | null }
    expect(new Headers(success.init?.headers).get('Set-Cookie')).toMatch(
      new RegExp(`^${CART_COOKIE}=;.*Max-Age=0`),
    )
  })

  test('a posted cart wins over the cookie', async () => {
    const posted = await createProduct(t.db, { stock: 5 })
    const other = await createProduct(t.db, { stock: 5 })
    const result = await submit(
      {
        cart: JSON.stringify([{ sku: posted.sku, quantity: 1 }]),
        checkout_key: randomUUID(),
        payment_method: 'acordar',
      },
      { Cookie: `${CART_COOKIE}=${encodeURIComponent(other.sku)}:3` },
    )
    const id = new URL(result.location!, BASE).searchParams.get('pedido')!
    expect((await getOrder(t.db, id))?.items).toMatchObject([{ productSku: posted.sku, quantity: 1 }])
    expect(result.setCookie).toBeNull()
  })

  test('both empty: "Debe tener al menos un producto"', async () => {
    const cookies: Record<string, string>[] = [
      {},
      { Cookie: `${CART_COOKIE}=` },
      { Cookie: `${CART_COOKIE}=basura` },
    ]
    for (const headers of cookies) {
      const result = await submit({ cart: '[]', checkout_key: randomUUID() }, headers)
      expect(result.status).toBe(400)
      expect(result.data?.messages).toEqual(['Debe tener al menos un producto'])
    }
  })
})

test.each([
  ['none (an empty field)', ''],
  ['a NUL', '\u0000'],
  ['garbage', 'clave-cualquiera'],
  ['an over-long key', 'a'.repeat(5000)],
])('a checkout key that is not ours (%s) is a 400 in Spanish, never a 500', async (_name, key) => {
  const product = await createProduct(t.db, { stock: 5 })
  const result = await submit({
    cart: JSON.stringify([{ sku: product.sku, quantity: 1 }]),
    checkout_key: key,
    payment_method: 'acordar',
  })
  expect(result.status).toBe(400)
  expect(result.data?.messages).toEqual([
    'El formulario no es válido. Recarga la página e inténtalo de nuevo.',
  ])
  expect(await reservedOf(product.sku)).toBe(0)
})

test('a post without a checkout key is refused like a bad one, so sending it twice makes no order', async () => {
  const product = await createProduct(t.db, { stock: 5 })
  const body = form({ cart: JSON.stringify([{ sku: product.sku, quantity: 1 }]), payment_method: 'acordar' })
  expect(body.has('checkout_key')).toBe(false)
  for (let i = 0; i < 2; i++) {
    const request = new Request(`${BASE}/finalizar-pedido`, { method: 'POST', body })
    const result = (await checkout.action({
      request,
      params: {},
      context: routeContext(services),
    } as never)) as {
      data: ActionData
      init: { status: number }
    }
    expect(result.init.status).toBe(400)
    expect(result.data.messages).toEqual([
      'El formulario no es válido. Recarga la página e inténtalo de nuevo.',
    ])
  }
  expect(await reservedOf(product.sku)).toBe(0)
})

test('an unexpected failure reads spec §8 "no answer" on the form with a fresh key, and is logged', async () => {
  const product = await createProduct(t.db, { stock: 5 })
  const { checkout: context } = services
  const broken = vi.spyOn(context.db, 'transaction').mockRejectedValueOnce(new Error('conexión perdida'))
  const log = vi.spyOn(logger, 'error').mockImplementation(() => {})
  try {
    const key = randomUUID()
    const failed = await submit({
      cart: JSON.stringify([{ sku: product.sku, quantity: 1 }]),
      checkout_key: key,
    })
    expect(failed.status).toBe(500)
    expect(failed.data?.messages).toEqual([CHECKOUT_MESSAGES.noServer])
    expect(failed.data?.checkoutKey).not.toBe(key)
    expect(log).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: 'conexión perdida' }) },
      '[POST /finalizar-pedido]',
    )
    expect(await ordersWithKey(key)).toEqual([])
    expect(await reservedOf(product.sku)).toBe(0)
  } finally {
    broken.mockRestore()
    log.mockRestore()
  }
})

test('cash on delivery: the order keeps the client address, and past the address hold limit the form says why', async () => {
  const product = await createProduct(t.db, { stock: 20 })
  const cart = JSON.stringify([{ sku: product.sku, quantity: 1 }])
  const address = '198.51.100.23'
  const cash = (phone: string) =>
    submit({ cart, phone, payment_method: 'acordar', checkout_key: randomUUID() }, {}, address)
  const first = await cash('3161110001')
  expect(first.status).toBe(302)
  const orderId = new URL(first.location!, BASE).searchParams.get('pedido')!
  expect((await getOrder(t.db, orderId))?.clientAddress).toBe(address)
  for (let i = 2; i <= 6; i++) expect((await cash(`316111000${i}`)).status).toBe(302)
  // A seventh phone from the same address: over COD_MAX_OPEN_ORDERS_PER_ADDRESS (6 by default).
  const refused = await cash('3161110007')
  expect(refused.status).toBe(409)
  expect(refused.data?.messages).toEqual([HOLD_LIMIT_MESSAGES.addressOrders(6)])
  expect(await reservedOf(product.sku)).toBe(6)
})

test('the order keeps where the shopper came from, only while they allow analytics', async () => {
  const product = await createProduct(t.db, { stock: 5 })
  const cart = JSON.stringify([{ sku: product.sku, quantity: 1 }])
  const consent = (analytics: boolean) =>
    `${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent({ analytics, advertising: false, version: CONSENT_POLICY_VERSION }))}`
  const touch = `${CAMPAIGN_COOKIE}=${encodeURIComponent('s=instagram&m=social&c=navidad&r=l.instagram.com')}`
  const placedWith = async (cookie: string) => {
    const placed = await submit(
      { cart, payment_method: 'acordar', checkout_key: randomUUID() },
      { Cookie: cookie },
    )
    expect(placed.status).toBe(302)
    const [order] = await t.db
      .select()
      .from(orders)
      .where(eq(orders.id, new URL(placed.location!, BASE).searchParams.get('pedido')!))
    return order!
  }
  expect(await placedWith(`${consent(true)}; ${touch}`)).toMatchObject({
    campaignKnown: true,
    utmSource: 'instagram',
    utmMedium: 'social',
    utmCampaign: 'navidad',
    referrerHost: 'l.instagram.com',
  })
  expect(await placedWith(`${consent(true)}; ${CAMPAIGN_COOKIE}=directo`)).toMatchObject({
    campaignKnown: true,
    utmSource: null,
    referrerHost: null,
  })
  // Analytics withdrawn since: the touch still in the browser is not read.
  expect(await placedWith(`${consent(false)}; ${touch}`)).toMatchObject({
    campaignKnown: false,
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    referrerHost: null,
  })
})

test("a reseller's order over the unit limit is refused with a way to order it by WhatsApp", async () => {
  const product = await createProduct(t.db, { stock: 30 })
  const refused = await submit({
    cart: JSON.stringify([{ sku: product.sku, quantity: 11 }]),
    payment_method: 'acordar',
    checkout_key: randomUUID(),
  })
  expect(refused.status).toBe(409)
  expect(refused.data?.messages).toEqual([HOLD_LIMIT_MESSAGES.orderUnits(10)])
  // The link is written on the server: the cart as the catalogue names it, and the summary's total.
  const link = new URL(String((refused.data as { whatsappOrder?: string }).whatsappOrder))
  expect(link.origin + link.pathname).toMatch(/^https:\/\/wa\.me\/\d+$/)
  expect(link.searchParams.get('text')).toBe(
    `Hola, quiero hacer este pedido:\n- ${product.name} × 11\nTotal: ${formatCOP(11 * product.priceLevel1)}`,
  )
  expect(await reservedOf(product.sku)).toBe(0)
})

describe('live shipping quotes (Envia stand-in)', () => {
  const envia = standInForFile(startEnviaStandIn)
  const withCarriers = () => ({ ...services, carriers: standInCarriers(envia()) })
  const post = async (fields: Record<string, string>) => {
    const request = new Request(`${BASE}/finalizar-pedido`, { method: 'POST', body: form(fields) })
    const result = (await checkout.action({
      request,
      params: {},
      context: routeContext(withCarriers()),
    } as never)) as unknown
    return result
  }

  test('the loader says whether the summary asks for quotes: a provider, the setting and a pickup address', async () => {
    const load = async (with_: typeof services) => {
      const request = new Request(`${BASE}/finalizar-pedido`)
      const data = await checkout.loader({ request, params: {}, context: routeContext(with_) } as never)
      return data.liveQuotes
    }
    await quoteFlat(t.db)
    expect(await load(withCarriers())).toBe(false)
    await quoteLive(t.db)
    try {
      expect(await load(withCarriers())).toBe(true)
      expect(await load(services)).toBe(false)
    } finally {
      await quoteFlat(t.db)
    }
  })

  test('without scripts, "Ver municipios" and a refused form bring the posted municipality’s quote', async () => {
    const product = await createProduct(t.db, { stock: 5 })
    const cart = JSON.stringify([{ sku: product.sku, quantity: 1 }])
    await quoteLive(t.db)
    try {
      const shown = (await post({
        cart,
        intent: 'municipios',
        department: 'Bogotá D.C.',
        municipality_code: '11001',
      })) as {
        data: { shippingQuote: unknown }
      }
      const quote = { municipio: '11001', shipping: 1_245_050, note: 'Envío con Servientrega · 2 días' }
      expect(shown.data.shippingQuote).toEqual(quote)
      const refused = (await post({
        cart,
        department: 'Bogotá D.C.',
        municipality_code: '11001',
        phone: '12',
      })) as {
        data: { shippingQuote: unknown }
        init: { status: number }
      }
      expect(refused.init.status).toBe(400)
      expect(refused.data.shippingQuote).toEqual(quote)
      await quoteFlat(t.db)
      const flat = (await post({ cart, intent: 'municipios', municipality_code: '11001' })) as {
        data: { shippingQuote: unknown }
      }
      expect(flat.data.shippingQuote).toBeNull()
    } finally {
      await quoteFlat(t.db)
    }
  })
})
