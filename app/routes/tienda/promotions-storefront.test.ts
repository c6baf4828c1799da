import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CART_COOKIE, serializeCartCookieValue } from '#app/modules/cart/cart-cookie.ts'
import { shippingFor } from '#app/modules/cart/shipping.ts'
import { cartQuoteKey, type CartQuote } from '#app/modules/checkout/cart-quote.ts'
import { CHECKOUT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { orders } from '#app/modules/order/schema.ts'
import { CODE_COOKIE } from '#app/modules/promotions/code-cookie.ts'
import { CODE_MESSAGES } from '#app/modules/promotions/messages.ts'
import { withShelfPrices } from '#app/modules/promotions/shelf.server.ts'
import { getCartProducts } from '#app/modules/catalog/catalog.server.ts'
import { readStoreShipping } from '#app/modules/settings/settings.server.ts'
import { startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { bogotaMoment } from '#app/utils/bogota-days.ts'
import { slugify } from '#app/utils/slug.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { createPromotion } from '#tests/promotions.ts'
import { routeContext } from '#tests/routes.ts'
import * as cartApi from '../api/cart.ts'
import * as cartRoute from './cart.tsx'
import * as checkout from './checkout.tsx'
import * as product from './product.tsx'

/**
 * "Descuentos y Promociones" in the storefront: the discount code in the cart and the checkout (a
 * cookie, forms without JavaScript), each promotion's row, the same total shown and charged, and
 * the prices cards and product pages show.
 */

const BASE = 'http://tienda.test'
const t = setupTestDatabase()
const env = parseEnv({ PUBLIC_URL: BASE, SHIPPING_COST: '8000', FREE_SHIPPING_THRESHOLD: '100000' })
let services: Awaited<ReturnType<typeof startServices>>

beforeAll(async () => {
  services = await startServices(env, t.database, { workers: false })
})
afterAll(async () => {
  await services.stop()
})

const context = () => routeContext(services)
const cookieOf = (lines: { sku: string; quantity: number }[], code?: string) =>
  `${CART_COOKIE}=${serializeCartCookieValue(lines)}${code ? `; ${CODE_COOKIE}=${code}` : ''}`

type Rendered = { lines: { sku: string; quantity: number }[]; quote: CartQuote }
async function cartPage(cookie: string) {
  const request = new Request(`${BASE}/carrito`, { headers: { Cookie: cookie } })
  const answer = (await cartRoute.loader({
    request,
    url: new URL(request.url),
    params: {},
    context: context(),
  } as never)) as {
    data: { rendered: Rendered; code: string | null }
    init?: { headers?: Record<string, string> }
  }
  return answer.data
}

async function cartAction(cookie: string, fields: Record<string, string>) {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  const request = new Request(`${BASE}/carrito`, { method: 'POST', body, headers: { Cookie: cookie } })
  const response = (await cartRoute.action({ request, params: {}, context: context() } as never)) as Response
  return { location: response.headers.get('Location'), cookies: response.headers.getSetCookie() }
}

const total = (quote: CartQuote) => quote.rows.reduce((sum, row) => sum + row.amount, 0)

describe('the cart’s "Código de descuento"', () => {
  test('"Aplicar" keeps the code in its cookie, and the cart shows its row and what it did', async () => {
    const item = await createProduct(t.db, { pesos: 40_000 })
    await createPromotion(t.db, {
      name: 'Cupón de Laura',
      code: 'LAURA10',
      percent: 10,
      target: 'products',
      productSkus: [item.sku],
    })
    const lines = [{ sku: item.sku, quantity: 2 }]
    const applied = await cartAction(cookieOf(lines), { intent: 'apply-code', discount_code: ' laura10 ' })
    expect(applied.location).toBe('/carrito')
    const kept = applied.cookies.find((cookie) => cookie.startsWith(`${CODE_COOKIE}=`))!
    expect(kept).toMatch(/^vitrina_codigo=LAURA10;.*HttpOnly; SameSite=Lax/)
    const page = await cartPage(cookieOf(lines, 'LAURA10'))
    expect(page.code).toBe('LAURA10')
    expect(page.rendered.quote.rows).toEqual([{ name: 'Cupón de Laura (LAURA10)', amount: 8_000_00 }])
    expect(page.rendered.quote.codeOutcome).toEqual({
      applied: true,
      message: CODE_MESSAGES.applied('LAURA10'),
    })
  })

  test('"Quitar" deletes the cookie and says so once', async () => {
    const item = await createProduct(t.db)
    const removed = await cartAction(cookieOf([{ sku: item.sku, quantity: 1 }], 'LAURA10'), {
      intent: 'remove-code',
      discount_code: 'LAURA10',
    })
    expect(removed.cookies).toContain('vitrina_codigo=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax')
    expect(decodeURIComponent(removed.cookies.join(' '))).toContain(CODE_MESSAGES.removed)
  })

  test('each refusal in Spanish, beside the code kept as typed', async () => {
    const item = await createProduct(t.db, { pesos: 30_000 })
    const other = await createProduct(t.db)
    const past = new Date(Date.now() - 86_400_000)
    const future = new Date(Date.now() + 7 * 86_400_000)
    await createPromotion(t.db, { code: 'VENCIDO', endsAt: past })
    await createPromotion(t.db, { code: 'MANANA', startsAt: future })
    await createPromotion(t.db, { code: 'MINIMO', minSubtotal: 100_000_00 })
    await createPromotion(t.db, { code: 'OTROS', target: 'products', productSkus: [other.sku] })
    const usedUp = await createPromotion(t.db, { code: 'AGOTADO', maxUses: 0 })
    expect(usedUp.maxUses).toBe(0)
    const lines = [{ sku: item.sku, quantity: 1 }]
    const outcome = async (code: string) => (await cartPage(cookieOf(lines, code))).rendered.quote
    expect((await outcome('NOEXISTE')).codeOutcome).toEqual({
      applied: false,
      message: CODE_MESSAGES.unknown('NOEXISTE'),
    })
    expect((await outcome('VENCIDO')).codeOutcome?.message).toBe(
      CODE_MESSAGES.expired('VENCIDO', bogotaMoment(past)),
    )
    expect((await outcome('MANANA')).codeOutcome?.message).toBe(
      CODE_MESSAGES.notStarted('MANANA', bogotaMoment(future)),
    )
    expect((await outcome('AGOTADO')).codeOutcome?.message).toBe(CODE_MESSAGES.usedUp('AGOTADO'))
    expect((await outcome('MINIMO')).codeOutcome?.message).toBe(
      CODE_MESSAGES.minimum('MINIMO', 100_000_00, 70_000_00),
    )
    const refused = await outcome('OTROS')
    expect(refused.codeOutcome?.message).toBe(CODE_MESSAGES.products('OTROS'))
    expect(refused.rows).toEqual([])
    // The message names the code; the cart keeps it (it applies once the cart reaches its minimum).
    expect(CODE_MESSAGES.minimum('MINIMO', 1, 1)).toContain(formatCOP(1))
  })

  test('a code over 40 characters is refused without touching the kept one', async () => {
    const answer = await cartAction(cookieOf([], 'LAURA10'), {
      intent: 'apply-code',
      discount_code: 'X'.repeat(41),
    })
    expect(answer.cookies.some((cookie) => cookie.startsWith(`${CODE_COOKIE}=`))).toBe(false)
    expect(decodeURIComponent(answer.cookies.join(' '))).toContain(CODE_MESSAGES.tooLong)
  })
})

describe('the cart API prices exactly the lines, code and shipping it is given', () => {
  test('its key matches the page’s, and an automatic promotion is a row of its own', async () => {
    const category = await createCategory(t.db, { name: 'Aretes API' })
    const item = await createProduct(t.db, { pesos: 20_000, categoryIds: [category.id] })
    await createPromotion(t.db, {
      name: 'Aretes 3x2',
      benefit: 'buy_x_pay_y',
      target: 'products',
      buyQuantity: 3,
      payQuantity: 2,
      categoryIds: [category.id],
      combinable: true,
    })
    await createPromotion(t.db, {
      name: 'Envío a mitad',
      code: 'ENVIO50',
      target: 'shipping',
      percent: 50,
      combinable: true,
    })
    const lines = [{ sku: item.sku, quantity: 3 }]
    const params = new URLSearchParams({
      skus: item.sku,
      lineas: serializeCartCookieValue(lines),
      codigo: 'ENVIO50',
      envio: '800000',
    })
    const request = new Request(`${BASE}/api/carrito?${params}`)
    const answer = (await cartApi.loader({
      request,
      url: new URL(request.url),
      params: {},
      context: context(),
    } as never)) as {
      products: { sku: string }[]
      quote: CartQuote
    }
    expect(answer.products.map((found) => found.sku)).toEqual([item.sku])
    expect(answer.quote.key).toBe(cartQuoteKey(lines, 'ENVIO50', 8_000_00))
    expect(answer.quote.rows).toEqual([
      { name: 'Aretes 3x2', amount: 20_000_00 },
      { name: 'Envío a mitad (ENVIO50)', amount: 4_000_00 },
    ])
  })
})

describe('the checkout', () => {
  function checkoutForm(lines: { sku: string; quantity: number }[], fields: Record<string, string>) {
    const body = new FormData()
    const all: Record<string, string> = {
      name: 'Ana',
      phone: `310${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`,
      address: 'Calle 10 # 20-30',
      department: 'Antioquia',
      municipality_code: '05001',
      payment_method: 'acordar',
      consent: 'on',
      cart: JSON.stringify(lines),
      checkout_key: randomUUID(),
      ...fields,
    }
    for (const [name, value] of Object.entries(all)) body.set(name, value)
    return body
  }
  async function post(
    lines: { sku: string; quantity: number }[],
    fields: Record<string, string>,
    cookie = '',
  ) {
    const request = new Request(`${BASE}/finalizar-pedido`, {
      method: 'POST',
      body: checkoutForm(lines, fields),
      headers: { Cookie: cookie },
    })
    const result = (await checkout.action({ request, params: {}, context: context() } as never)) as unknown
    if (result instanceof Response)
      return {
        status: result.status,
        location: result.headers.get('Location'),
        cookies: result.headers.getSetCookie(),
        data: null,
      }
    const wrapped = result as {
      data: {
        messages: string[]
        values: Record<string, string>
        promotions: CartQuote
        fieldErrors: Record<string, string>
      }
      init: { status: number; headers?: HeadersInit }
    }
    return {
      status: wrapped.init.status,
      location: null,
      cookies: new Headers(wrapped.init.headers).getSetCookie(),
      data: wrapped.data,
    }
  }

  test('"Aplicar" shows the form again with the code’s row, keeps everything typed and keeps the code', async () => {
    const item = await createProduct(t.db, { pesos: 30_000 })
    await createPromotion(t.db, {
      name: 'Bienvenida',
      code: 'HOLA5',
      benefit: 'fixed',
      amount: 5_000_00,
      target: 'order',
    })
    const lines = [{ sku: item.sku, quantity: 1 }]
    const answer = await post(lines, {
      intent: 'apply-code',
      discount_code: 'hola5',
      address: 'Carrera 1 # 2-3',
    })
    expect(answer.status).toBe(200)
    expect(answer.data!.values).toMatchObject({
      address: 'Carrera 1 # 2-3',
      discount_code: 'HOLA5',
      municipality_code: '05001',
    })
    expect(answer.data!.promotions.rows).toEqual([{ name: 'Bienvenida (HOLA5)', amount: 5_000_00 }])
    expect(answer.data!.promotions.key).toBe(cartQuoteKey(lines, 'HOLA5', 8_000_00))
    expect(answer.cookies[0]).toMatch(/^vitrina_codigo=HOLA5;/)
    expect(await t.db.select().from(orders).where(eq(orders.customerAddress, 'Carrera 1 # 2-3'))).toEqual([])
  })

  test('a code the summary was not priced with places no order: the shopper sees its total first', async () => {
    const item = await createProduct(t.db, { pesos: 30_000 })
    await createPromotion(t.db, { name: 'Sorpresa', code: 'SORPRESA', percent: 20 })
    const answer = await post([{ sku: item.sku, quantity: 1 }], {
      discount_code: 'sorpresa',
      priced_code: '',
    })
    expect(answer.status).toBe(409)
    expect(answer.data!.messages).toEqual([CHECKOUT_MESSAGES.codeChanged])
    expect(answer.data!.promotions.rows).toEqual([{ name: 'Sorpresa (SORPRESA)', amount: 6_000_00 }])
  })

  test('a refused code at order time shows beside the field and loses nothing', async () => {
    const item = await createProduct(t.db, { pesos: 30_000 })
    const answer = await post([{ sku: item.sku, quantity: 1 }], {
      discount_code: 'NADA',
      priced_code: 'NADA',
      address: 'Calle 5',
    })
    expect(answer.status).toBe(409)
    expect(answer.data!.fieldErrors.discount_code).toBe(CODE_MESSAGES.unknown('NADA'))
    expect(answer.data!.values).toMatchObject({ address: 'Calle 5', discount_code: 'NADA' })
  })

  test('the total the page shows is the total the order charges, automatic promotions and code together', async () => {
    const category = await createCategory(t.db, { name: 'Collares total' })
    const a = await createProduct(t.db, { pesos: 25_000, discountPercent: 10, categoryIds: [category.id] })
    const b = await createProduct(t.db, { pesos: 17_500 })
    await createPromotion(t.db, {
      name: 'Collares 15 %',
      target: 'products',
      percent: 15,
      categoryIds: [category.id],
      combinable: true,
    })
    await createPromotion(t.db, {
      name: 'Envío 3.000 menos',
      code: 'ENVIO3',
      target: 'shipping',
      benefit: 'fixed',
      amount: 3_000_00,
      combinable: true,
    })
    const lines = [
      { sku: a.sku, quantity: 2 },
      { sku: b.sku, quantity: 1 },
    ]
    // What the page shows: the lines at their prices, the shipping for them, and the quote's rows.
    const page = await cartPage(cookieOf(lines, 'ENVIO3'))
    const cards = await getCartProducts(
      services.reads,
      lines.map((line) => line.sku),
    )
    const subtotal = lines.reduce(
      (sum, line) => sum + cards.find((card) => card.sku === line.sku)!.finalPrice * line.quantity,
      0,
    )
    const shipping = shippingFor(subtotal, await readStoreShipping(t.db, env))
    expect(page.rendered.quote.key).toBe(cartQuoteKey(lines, 'ENVIO3', shipping))
    expect(page.rendered.quote.rows.map((row) => row.name)).toEqual([
      'Collares 15 %',
      'Envío 3.000 menos (ENVIO3)',
    ])
    const shown = subtotal + shipping - total(page.rendered.quote)
    const placed = await post(
      lines,
      { discount_code: 'ENVIO3', priced_code: 'ENVIO3' },
      cookieOf(lines, 'ENVIO3'),
    )
    expect(placed.status).toBe(302)
    // The order used the code: the cart starts without one.
    expect(placed.cookies).toContain('vitrina_codigo=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax')
    const orderId = new URL(placed.location!, BASE).searchParams.get('pedido')!
    const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId))
    expect(order!.total).toBe(shown)
    expect(order!.discount).toBe(total(page.rendered.quote))
  })
})

describe('cards and product pages', () => {
  test('an automatic discount shows as the product’s price and badge; "lleve 3 pague 2" as a badge', async () => {
    const category = await createCategory(t.db, { name: 'Pulseras estante' })
    const discounted = await createProduct(t.db, { pesos: 40_000, categoryIds: [category.id] })
    const threeForTwo = await createProduct(t.db, { pesos: 20_000 })
    const untouched = await createProduct(t.db, { pesos: 10_000 })
    await createPromotion(t.db, {
      name: 'Pulseras',
      target: 'products',
      benefit: 'set_discount',
      percent: 25,
      categoryIds: [category.id],
    })
    await createPromotion(t.db, {
      name: '3x2',
      target: 'products',
      benefit: 'buy_x_pay_y',
      buyQuantity: 3,
      payQuantity: 2,
      productSkus: [threeForTwo.sku],
    })
    // A code or a minimum needs a cart: never on the shelf.
    await createPromotion(t.db, {
      code: 'ESTANTE',
      target: 'products',
      percent: 50,
      productSkus: [untouched.sku],
    })
    await createPromotion(t.db, {
      target: 'products',
      percent: 50,
      minSubtotal: 1,
      productSkus: [untouched.sku],
    })
    const cards = await withShelfPrices(
      t.db,
      await getCartProducts(services.reads, [discounted.sku, threeForTwo.sku, untouched.sku]),
    )
    const bySku = new Map(cards.map((card) => [card.sku, card]))
    expect(bySku.get(discounted.sku)).toMatchObject({
      price: 40_000_00,
      finalPrice: 30_000_00,
      discountPercent: 25,
    })
    expect(bySku.get(threeForTwo.sku)).toMatchObject({
      finalPrice: 20_000_00,
      discountPercent: 0,
      buyPay: { buy: 3, pay: 2 },
    })
    expect(bySku.get(untouched.sku)).toMatchObject({ finalPrice: 10_000_00, discountPercent: 0 })
    expect(bySku.get(untouched.sku)?.buyPay).toBeUndefined()

    const request = new Request(`${BASE}/producto/${discounted.sku}/${slugify(discounted.name)}`)
    const page = (await product.loader({
      request,
      url: new URL(request.url),
      params: { sku: discounted.sku, slug: slugify(discounted.name) },
      context: context(),
    } as never)) as {
      product: { finalPrice: number; discountPercent: number }
      jsonLd: string
    }
    expect(page.product).toMatchObject({ finalPrice: 30_000_00, discountPercent: 25 })
    expect(page.jsonLd).toContain('"price":"30000.00"')
  })
})
