import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, test, vi } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { getOrder } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import {
  noOnlinePayments,
  PaymentProviderError,
  type PaymentProvider,
} from '#app/modules/payment/provider.ts'
import { simulatedProvider } from '#app/modules/payment/simulated.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { LOOSE_HOLD_LIMITS } from '#tests/orders.ts'
import { createProduct } from '#tests/factories.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { quoteFlat, quoteLive, standInCarriers } from '#tests/carrier-quotes.ts'
import { startEnviaStandIn } from '#tests/stand-ins/envia.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { CheckoutRefused } from './checkout.server.ts'
import { readCheckoutForm } from './form.server.ts'
import { submitCheckout, type CheckoutDeps } from './submit.server.ts'
import { CHECKOUT_MESSAGES, ID_MESSAGES } from './messages.ts'

const t = setupTestDatabase()
const PUBLIC_URL = 'http://127.0.0.1:9'

function deps(
  payments: PaymentProvider = simulatedProvider({ db: t.db, publicUrl: PUBLIC_URL }),
): CheckoutDeps {
  const jobs = recordingJobQueue()
  return {
    checkout: {
      db: t.db,
      jobs,
      shipping: { shippingCost: 0, freeShippingThreshold: 100_000_00 },
      notifyNumbers: [],
      onlinePayments: { mercadopago: true, wompi: true },
      holdLimits: LOOSE_HOLD_LIMITS,
    },
    payments: { db: t.db, jobs, providers: { mercadopago: payments, wompi: noOnlinePayments } },
    publicUrl: PUBLIC_URL,
  }
}

function form(fields: Record<string, string>, cookie?: string) {
  const body = new FormData()
  const all: Record<string, string> = {
    name: 'Ana',
    phone: '3001234567',
    address: 'Calle 10 # 20-30',
    department: 'Antioquia',
    municipality_code: '05001',
    payment_method: 'acordar',
    consent: 'on',
    checkout_key: randomUUID(),
    ...fields,
  }
  for (const [name, value] of Object.entries(all)) body.set(name, value)
  return readCheckoutForm(body, cookie)
}

const cart = (sku: string, quantity = 1) => JSON.stringify([{ sku, quantity }])
const reservedOf = async (sku: string) =>
  (await t.db.select({ reserved: products.reserved }).from(products).where(eq(products.sku, sku)))[0]!
    .reserved

/** The refusal a submit throws (fails the test when it does not throw one of `type`). */
async function refusal<T extends Refusal = CheckoutRefused>(
  run: Promise<unknown>,
  type: new (...args: never[]) => T = CheckoutRefused as never,
): Promise<T> {
  const thrown = await run.then(
    () => null,
    (error: unknown) => error,
  )
  expect(thrown).toBeInstanceOf(type)
  return thrown as T
}

describe('submitCheckout answers where the shopper goes next', () => {
  test('cash on delivery: the success page, with the cart posted or in its cookie', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const posted = await submitCheckout(deps(), form({ cart: cart(product.sku) }))
    expect(posted.redirectTo).toMatch(/^\/finalizar-pedido\/success\?pedido=[0-9a-f-]{36}$/)
    const fromCookie = await submitCheckout(
      deps(),
      form({ cart: '[]' }, `vitrina_carrito=${encodeURIComponent(product.sku)}:1`),
    )
    expect(fromCookie.redirectTo).toMatch(/^\/finalizar-pedido\/success\?pedido=[0-9a-f-]{36}$/)
    expect(await reservedOf(product.sku)).toBe(2)
  })

  test('online: the provider’s payment link (here the simulator’s page)', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const next = await submitCheckout(
      deps(),
      form({ cart: cart(product.sku), payment_method: 'mercadopago' }),
    )
    expect(next.redirectTo).toMatch(/^\/pago-simulado\/[0-9a-f-]{36}$/)
    const order = await getOrder(t.db, next.redirectTo.split('/').at(-1)!)
    expect(order?.status).toBe('pendiente de pago')
  })
})

describe('submitCheckout refuses: CheckoutRefused for the cart and form, a Refusal for the payment', () => {
  test('a form without our key, before anything is reserved', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const refused = await refusal(submitCheckout(deps(), form({ cart: cart(product.sku), checkout_key: '' })))
    expect(refused).toMatchObject({ status: 400, errors: { form: [ID_MESSAGES.badForm], fields: {} } })
    expect(await reservedOf(product.sku)).toBe(0)
  })

  test('what the order rules refuse, with the field messages', async () => {
    const product = await createProduct(t.db, { stock: 1 })
    const over = await refusal(submitCheckout(deps(), form({ cart: cart(product.sku, 2) })))
    expect(over).toMatchObject({ status: 400, errors: { form: [CHECKOUT_MESSAGES.overStock] } })
    const fields = await refusal(submitCheckout(deps(), form({ cart: cart(product.sku), phone: '12' })))
    expect(fields.errors.fields.phone).toBe(CHECKOUT_MESSAGES.phone)
  })

  test('a posted quantity that is no whole number is named, never read as an empty cart (issue 23)', async () => {
    const product = await createProduct(t.db, { name: 'Pulsera Río', stock: 3 })
    const line = (quantity: string) => `[{"sku":${JSON.stringify(product.sku)},"quantity":${quantity}}]`
    // The cookie holds a good cart: the form's own is judged, never swapped for it.
    const cookie = `vitrina_carrito=${encodeURIComponent(product.sku)}:1`
    for (const quantity of ['1.5', '-1', '"abc"', '"1e3"', 'null', '1e-3']) {
      const refused = await refusal(submitCheckout(deps(), form({ cart: line(quantity) }, cookie)))
      expect(refused.status, quantity).toBe(400)
      expect(refused.errors.form, quantity).toEqual([
        'La cantidad de Pulsera Río debe ser un número entero de 1 en adelante.',
      ])
    }
    const zero = await refusal(submitCheckout(deps(), form({ cart: line('0') }, cookie)))
    expect(zero.errors.form).toEqual([CHECKOUT_MESSAGES.zeroQuantity])
    expect(await reservedOf(product.sku)).toBe(0)
  })

  test('a payment that cannot start: 502, and the order it made is cancelled with its units released', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const failing: PaymentProvider = {
      ...simulatedProvider({ db: t.db, publicUrl: PUBLIC_URL }),
      name: 'mercadopago',
      async createPreference() {
        throw new PaymentProviderError('network', 'ECONNREFUSED')
      },
    }
    const key = randomUUID()
    const refused = await refusal(
      submitCheckout(
        deps(failing),
        form({ cart: cart(product.sku), payment_method: 'mercadopago', checkout_key: key }),
      ),
      Refusal,
    )
    expect(refused).toMatchObject({ status: 502, message: CHECKOUT_MESSAGES.noServer })
    expect(await reservedOf(product.sku)).toBe(0)
    const [order] = await t.db.select().from(orders).where(eq(orders.checkoutKey, key))
    // The key is released with the cancelled order, so the same form may try again.
    expect(order).toBeUndefined()
  })
})

describe('submitCheckout with live shipping quotes (Envia stand-in)', () => {
  const standIn = standInForFile(startEnviaStandIn)
  const withQuotes = (): CheckoutDeps => {
    const base = deps()
    return {
      ...base,
      checkout: { ...base.checkout, shipping: { shippingCost: 8_000_00, freeShippingThreshold: 100_000_00 } },
      quotes: { db: t.db, carriers: standInCarriers(standIn()), env: parseEnv({}) },
    }
  }
  const shippingOf = async (redirectTo: string) =>
    (await getOrder(t.db, new URL(redirectTo, PUBLIC_URL).searchParams.get('pedido')!))!

  test('the order pays the cheapest quote to its municipality, asked before it is placed', async () => {
    await quoteLive(t.db)
    try {
      const product = await createProduct(t.db, { stock: 3, pesos: 20_000 })
      const next = await submitCheckout(
        withQuotes(),
        form({ cart: cart(product.sku), department: 'Bogotá D.C.', municipality_code: '11001' }),
      )
      const order = await shippingOf(next.redirectTo)
      expect(order.shippingCost).toBe(1_245_050)
      expect((await listOrderEvents(t.db, order.id)).map((event) => event.message)).toContain(
        'Envío cotizado con Servientrega: $\u00a012.450,50 (2 días).',
      )
      // Bogotá's one municipality needs no choice: the quote is asked for it too.
      const unchosen = await submitCheckout(
        withQuotes(),
        form({ cart: cart(product.sku), department: 'Bogotá D.C.', municipality_code: '' }),
      )
      expect((await shippingOf(unchosen.redirectTo)).shippingCost).toBe(1_245_050)
    } finally {
      await quoteFlat(t.db)
    }
  })

  test('a quote that fails never blocks the checkout: the flat cost', async () => {
    await quoteLive(t.db)
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
    try {
      const product = await createProduct(t.db, { stock: 3, pesos: 20_000 })
      standIn().failNext(2, 500)
      const next = await submitCheckout(withQuotes(), form({ cart: cart(product.sku) }))
      expect((await shippingOf(next.redirectTo)).shippingCost).toBe(8_000_00)
      expect(standIn().requests.length).toBeGreaterThan(0)
    } finally {
      warn.mockRestore()
      await quoteFlat(t.db)
    }
  })

  test('with the flat-cost setting Envia is not asked', async () => {
    const product = await createProduct(t.db, { stock: 3, pesos: 20_000 })
    const next = await submitCheckout(withQuotes(), form({ cart: cart(product.sku) }))
    expect((await shippingOf(next.redirectTo)).shippingCost).toBe(8_000_00)
    expect(standIn().requests).toHaveLength(0)
  })
})
