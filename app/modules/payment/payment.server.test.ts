import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { placeOrder } from '#app/modules/checkout/checkout.server.ts'
import { CHECKOUT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeDiscountedOrder } from '#tests/discounted-orders.ts'
import { LOOSE_HOLD_LIMITS } from '#tests/orders.ts'
import { createProduct } from '#tests/factories.ts'
import { clearJobs, queuedJobs, setupJobQueue } from '#tests/jobs.ts'
import {
  expireUnpaidOnlineOrders,
  paymentLinkExpiry,
  processPaymentNotification,
  receivePaymentNotification,
  startOnlinePayment,
  type PaymentDeps,
} from './payment.server.ts'
import { preferenceBody } from './mercadopago.server.ts'
import {
  chargedAmount,
  noOnlinePayments,
  PaymentProviderError,
  type Payment,
  type PaymentProvider,
  type PreferenceInput,
} from './provider.ts'

const t = setupTestDatabase()
const jobs = setupJobQueue(() => t.database)

/** A provider whose answers each test sets. */
function fakeProvider() {
  const payments = new Map<string, Payment>()
  const preferences: PreferenceInput[] = []
  let failure: PaymentProviderError | null = null
  const provider: PaymentProvider & {
    payments: typeof payments
    preferences: typeof preferences
    failNext(error: PaymentProviderError): void
    /** While set, searching payments fails like a provider that cannot be reached. */
    searchDown: boolean
    searches: string[]
  } = {
    name: 'mercadopago',
    label: 'Mercado Pago',
    payments,
    preferences,
    searchDown: false,
    searches: [],
    failNext(error) {
      failure = error
    },
    async createPreference(input) {
      if (failure) {
        const error = failure
        failure = null
        throw error
      }
      preferences.push(input)
      return {
        id: `pref-${preferences.length}`,
        initPoint: `https://mp.example/checkout?pref=${preferences.length}`,
      }
    },
    async getPayment(id) {
      const payment = payments.get(id)
      if (!payment) throw new PaymentProviderError('rejected', 'Payment not found', 404)
      return payment
    },
    async searchPayments(externalReference) {
      provider.searches.push(externalReference)
      if (provider.searchDown) throw new PaymentProviderError('network', 'ECONNRESET')
      return [...payments.values()]
        .filter((payment) => payment.externalReference === externalReference)
        .reverse()
    },
    async refundPayment() {
      throw new PaymentProviderError('rejected', 'Sin reembolsos en estas pruebas')
    },
  }
  return provider
}

let provider: ReturnType<typeof fakeProvider>

/** The provider will answer this payment (amount in centavos) for this order. */
function knowPayment(id: string, status: string, externalReference: string | null, amount: number) {
  provider.payments.set(id, { id, status, externalReference, amount })
}
const deps = (): PaymentDeps => ({
  db: t.db,
  jobs: jobs.queue,
  providers: { mercadopago: provider, wompi: noOnlinePayments },
})

const customer = {
  name: 'Sara',
  last_name: 'Ruiz',
  phone: '3001234567',
  email: 'sara@example.com',
  address: 'Calle 50 # 40-30',
  city: 'Cali',
  department: 'Valle del Cauca',
  municipality_code: '76001',
  payment_method: 'mercadopago' as const,
  consent: true,
}

const checkoutCtx = () => ({
  db: t.db,
  jobs: jobs.queue,
  shipping: { shippingCost: 9_000_00, freeShippingThreshold: 100_000_00 },
  notifyNumbers: ['573001112233'],
  onlinePayments: { mercadopago: true, wompi: true },
  holdLimits: LOOSE_HOLD_LIMITS,
})

async function onlineOrder(stock = 5, quantity = 2, checkoutKey?: string) {
  const product = await createProduct(t.db, { pesos: 45000, stock, discountPercent: 10 })
  const result = await placeOrder(checkoutCtx(), {
    lines: [{ sku: product.sku, quantity }],
    customer,
    checkoutKey,
  })
  return { order: result.order, product }
}

/**
 * What `startOnlinePayment` gave: `{ ok: true, url }`, or `{ ok: false, message }` from the 502
 * `Refusal` it threw (anything else is thrown on).
 */
async function start(...args: Parameters<typeof startOnlinePayment>) {
  try {
    return { ok: true as const, url: await startOnlinePayment(...args) }
  } catch (thrown) {
    if (!(thrown instanceof Refusal) || thrown.status !== 502) throw thrown
    return { ok: false as const, message: thrown.message }
  }
}

const reservedOf = async (sku: string) =>
  (await t.db.select({ reserved: products.reserved }).from(products).where(eq(products.sku, sku)))[0]!
    .reserved

beforeEach(async () => {
  provider = fakeProvider()
  await clearJobs(t.database)
})

describe('starting an online payment', () => {
  test('creates the preference from the stored order and returns its link', async () => {
    const { order, product } = await onlineOrder()
    const result = await start(deps(), order.id, 'https://tienda.example', {
      cancelOnFailure: true,
    })
    expect(result).toEqual({ ok: true, url: 'https://mp.example/checkout?pref=1' })
    expect(provider.preferences[0]).toMatchObject({
      orderId: order.id,
      items: [{ sku: product.sku, quantity: 2, unitPrice: 40_500_00 }],
      shippingCost: 9_000_00,
      payer: { name: 'Sara', surname: 'Ruiz', email: 'sara@example.com', phone: '3001234567' },
      backUrls: {
        success: 'https://tienda.example/finalizar-pedido/success',
        pending: 'https://tienda.example/finalizar-pedido/pending',
        failure: 'https://tienda.example/finalizar-pedido/failure',
      },
      notificationUrl: 'https://tienda.example/api/webhooks/mercadopago',
    })
    expect((await getOrder(t.db, order.id))?.paymentPreferenceId).toBe('pref-1')
  })

  test.each([
    [new PaymentProviderError('network', 'ECONNREFUSED'), CHECKOUT_MESSAGES.noServer],
    [new PaymentProviderError('invalid-response', 'sin init_point'), CHECKOUT_MESSAGES.noPaymentUrl],
    [
      new PaymentProviderError('rejected', 'invalid access token', 401),
      'Hubo un error al procesar el pago. invalid access token',
    ],
  ])('a failed start (%s) cancels the new order and leaves no reserved stock', async (error, message) => {
    const { order, product } = await onlineOrder()
    expect(await reservedOf(product.sku)).toBe(2)
    provider.failNext(error)
    const result = await start(deps(), order.id, 'https://tienda.example', {
      cancelOnFailure: true,
    })
    expect(result).toEqual({ ok: false, message })
    expect(await reservedOf(product.sku)).toBe(0)
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
  })

  test("a failed start is a 502 refusal the shopper reads whole; the provider's error is its cause", async () => {
    const { order } = await onlineOrder()
    const error = new PaymentProviderError('network', 'ECONNRESET')
    provider.failNext(error)
    const refusal = await startOnlinePayment(deps(), order.id, 'https://tienda.example', {
      cancelOnFailure: true,
    }).catch((thrown: unknown) => thrown)
    expect(refusal).toBeInstanceOf(Refusal)
    expect(refusal).toMatchObject({ message: CHECKOUT_MESSAGES.noServer, status: 502, standsAlone: true })
    expect((refusal as Refusal).cause).toBe(error)
  })

  test('retrying from the failure page keeps the order when the provider fails again', async () => {
    const { order, product } = await onlineOrder()
    provider.failNext(new PaymentProviderError('network', 'timeout'))
    await start(deps(), order.id, 'https://tienda.example', { cancelOnFailure: false })
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
    expect(await reservedOf(product.sku)).toBe(2)
  })
})

test('payment links stop an hour before the order expires, and never after it', () => {
  const created = new Date('2026-11-20T10:00:00Z')
  expect(paymentLinkExpiry(created, 48, new Date('2026-11-20T11:00:00Z')).toISOString()).toBe(
    '2026-11-22T09:00:00.000Z',
  )
  // A retry late in the window gets ten minutes…
  expect(paymentLinkExpiry(created, 48, new Date('2026-11-22T09:30:00Z')).toISOString()).toBe(
    '2026-11-22T09:40:00.000Z',
  )
  // …but not beyond the expiry.
  expect(paymentLinkExpiry(created, 48, new Date('2026-11-22T09:55:00Z')).toISOString()).toBe(
    '2026-11-22T10:00:00.000Z',
  )
})

describe('payment notifications', () => {
  test('a repeated notification is recorded once; it is queued again only until it is processed', async () => {
    const { order } = await onlineOrder()
    const stored = (await getOrder(t.db, order.id))!
    knowPayment('111', 'approved', order.id, chargedAmount(stored))
    const notification = {
      provider: 'mercadopago' as const,
      eventId: 'evt-1',
      topic: 'payment',
      resourceId: '111',
      payload: { id: 'evt-1' },
    }
    expect(await receivePaymentNotification(deps(), notification)).toBe('accepted')
    expect(await queuedJobs(t.database, 'payment-notification')).toEqual([
      { eventId: 'evt-1', paymentId: '111', provider: 'mercadopago' },
    ])
    // Repeated while its job still waits in the queue: one job is enough.
    expect(await receivePaymentNotification(deps(), notification)).toBe('duplicate')
    expect(await queuedJobs(t.database, 'payment-notification')).toHaveLength(1)
    // Its job gave up (provider down past every retry): Mercado Pago's repeat must get it going again.
    await clearJobs(t.database)
    expect(await receivePaymentNotification(deps(), notification)).toBe('requeued')
    expect(await queuedJobs(t.database, 'payment-notification')).toEqual([
      { eventId: 'evt-1', paymentId: '111', provider: 'mercadopago' },
    ])
    expect(await processPaymentNotification(deps(), { eventId: 'evt-1', paymentId: '111' })).toBe('paid')
    // Once processed, a repeat does nothing.
    await clearJobs(t.database)
    expect(await receivePaymentNotification(deps(), notification)).toBe('duplicate')
    expect(await queuedJobs(t.database, 'payment-notification')).toEqual([])
  })

  test('other topics are ignored', async () => {
    expect(
      await receivePaymentNotification(deps(), {
        provider: 'mercadopago',
        eventId: 'm-1',
        topic: 'merchant_order',
        resourceId: '9',
        payload: {},
      }),
    ).toBe('ignored')
  })

  test('approved: the order becomes "pagado", keeps its units reserved; the business was told at purchase', async () => {
    const { order, product } = await onlineOrder()
    // Spec §7 and the issue: the notice is enqueued with the order, before any payment.
    expect(await queuedJobs(t.database, 'order-new-notice')).toEqual([
      { orderId: order.id, to: '573001112233' },
    ])
    const stored = (await getOrder(t.db, order.id))!
    knowPayment('222', 'approved', order.id, chargedAmount(stored))
    expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '222' })).toBe('paid')
    const paid = await getOrder(t.db, order.id)
    expect(paid).toMatchObject({ status: 'pagado', paymentId: '222', paymentStatus: 'approved' })
    expect(await reservedOf(product.sku)).toBe(2)
    expect((await listOrderEvents(t.db, order.id)).map((e) => e.type)).toContain('paid')
    // Approval tells nobody a second time.
    expect(await queuedJobs(t.database, 'order-new-notice')).toEqual([
      { orderId: order.id, to: '573001112233' },
    ])

    // Mercado Pago retries: a second run changes nothing and tells nobody again.
    expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '222' })).toBe('already-paid')
    expect(await queuedJobs(t.database, 'order-new-notice')).toHaveLength(1)
  })

  test("approved: Meta's Purchase is queued once, only for an order whose checkout kept advertising consent", async () => {
    const tracking = {
      eventSourceUrl: 'http://tienda.test/finalizar-pedido',
      browser: { clientIpAddress: '203.0.113.7', clientUserAgent: 'UA', fbp: null, fbc: null },
    }
    const product = await createProduct(t.db, { pesos: 45000, stock: 5 })
    const tracked = await placeOrder(checkoutCtx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer,
      tracking,
    })
    const untracked = await onlineOrder()
    // An online order is no purchase until it is paid.
    expect(await queuedJobs(t.database, 'meta-event')).toEqual([])
    for (const [order, paymentId] of [
      [tracked.order, '231'],
      [untracked.order, '232'],
    ] as const) {
      knowPayment(paymentId, 'approved', order.id, chargedAmount((await getOrder(t.db, order.id))!))
      expect(await processPaymentNotification(deps(), { eventId: paymentId, paymentId })).toBe('paid')
    }
    await processPaymentNotification(deps(), { eventId: 'again', paymentId: '231' })
    expect(await queuedJobs(t.database, 'meta-event')).toEqual([
      { kind: 'purchase', orderId: tracked.order.id, eventTime: expect.any(Number) },
    ])
  })

  test.each(['rejected', 'cancelled'])(
    '%s: the order stays pending so the shopper can retry',
    async (status) => {
      const { order } = await onlineOrder()
      knowPayment('333', status, order.id, 0)
      expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '333' })).toBe('rejected')
      expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
      expect((await listOrderEvents(t.db, order.id)).at(-1)?.type).toBe('payment-rejected')
    },
  )

  test('an unknown order is recorded and not retried', async () => {
    knowPayment('444', 'approved', 'no-existe', 100)
    expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '444' })).toBe('unknown-order')
  })

  test('a payment below the order total does not mark it paid', async () => {
    const { order } = await onlineOrder()
    knowPayment('555', 'approved', order.id, 1_000_00)
    expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '555' })).toBe(
      'amount-mismatch',
    )
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
  })

  test('an approval for an expired (cancelled) order is flagged for the owner', async () => {
    const { order } = await onlineOrder()
    const stored = (await getOrder(t.db, order.id))!
    provider.failNext(new PaymentProviderError('network', 'x'))
    await start(deps(), order.id, 'https://t.example', { cancelOnFailure: true })
    knowPayment('666', 'approved', order.id, chargedAmount(stored))
    expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '666' })).toBe(
      'paid-after-cancel',
    )
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
    // Cancelled orders are final: the note asks for a refund, never to bring the order back.
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'paid-after-cancel',
      message: 'Pago 666 aprobado para un pedido cancelado: revisa el reembolso.',
    })
  })

  test('a late rejection of an earlier attempt does not touch a paid order', async () => {
    const { order } = await onlineOrder()
    const stored = (await getOrder(t.db, order.id))!
    knowPayment('701', 'approved', order.id, chargedAmount(stored))
    knowPayment('700', 'rejected', order.id, 0)
    expect(await processPaymentNotification(deps(), { eventId: 'a', paymentId: '701' })).toBe('paid')
    await processPaymentNotification(deps(), { eventId: 'b', paymentId: '700' })
    expect(await getOrder(t.db, order.id)).toMatchObject({
      status: 'pagado',
      paymentId: '701',
      paymentStatus: 'approved',
    })
  })

  test('a second approved payment for a paid order is flagged, not silently accepted', async () => {
    const { order } = await onlineOrder()
    const stored = (await getOrder(t.db, order.id))!
    knowPayment('801', 'approved', order.id, chargedAmount(stored))
    knowPayment('802', 'approved', order.id, chargedAmount(stored))
    await processPaymentNotification(deps(), { eventId: 'a', paymentId: '801' })
    expect(await processPaymentNotification(deps(), { eventId: 'b', paymentId: '802' })).toBe(
      'duplicate-payment',
    )
    expect((await getOrder(t.db, order.id))?.paymentId).toBe('801')
    expect(await queuedJobs(t.database, 'order-new-notice')).toHaveLength(1)
  })

  test('a refund of the paying payment is put on the order for the owner to see', async () => {
    const { order } = await onlineOrder()
    const stored = (await getOrder(t.db, order.id))!
    knowPayment('901', 'approved', order.id, chargedAmount(stored))
    await processPaymentNotification(deps(), { eventId: 'a', paymentId: '901' })
    knowPayment('901', 'refunded', order.id, chargedAmount(stored))
    expect(await processPaymentNotification(deps(), { eventId: 'b', paymentId: '901' })).toBe('reversed')
    expect((await listOrderEvents(t.db, order.id)).at(-1)?.type).toBe('payment-reversed')
  })

  test('the provider being down makes the job fail, so the queue retries it', async () => {
    await expect(processPaymentNotification(deps(), { eventId: 'e', paymentId: 'missing' })).rejects.toThrow(
      PaymentProviderError,
    )
  })
})

describe('after a failed payment start', () => {
  test('the same form sent again (same checkout key) places a new order', async () => {
    const key = randomUUID()
    const { order, product } = await onlineOrder(5, 2, key)
    provider.failNext(new PaymentProviderError('network', 'ECONNREFUSED'))
    await start(deps(), order.id, 'https://t.example', { cancelOnFailure: true })
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')

    const again = await placeOrder(checkoutCtx(), {
      lines: [{ sku: product.sku, quantity: 2 }],
      customer,
      checkoutKey: key,
    })
    expect(again.created).toBe(true)
    expect(again.order.id).not.toBe(order.id)
    expect(await start(deps(), again.order.id, 'https://t.example', { cancelOnFailure: true })).toEqual({
      ok: true,
      url: expect.any(String),
    })
    expect(await reservedOf(product.sku)).toBe(2)
  })

  test('cancelling and recording the failure are one step, whatever the provider said', async () => {
    const { order, product } = await onlineOrder()
    // PostgreSQL refuses NUL in text: the provider's message must not keep the units reserved.
    provider.failNext(new PaymentProviderError('rejected', 'bad\u0000request', 400))
    const result = await start(deps(), order.id, 'https://t.example', { cancelOnFailure: true })
    expect(result).toEqual({ ok: false, message: 'Hubo un error al procesar el pago. bad\u0000request' })
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
    expect(await reservedOf(product.sku)).toBe(0)
    const events = await listOrderEvents(t.db, order.id)
    expect(events.map((e) => e.type).slice(-2)).toEqual(['payment-start-failed', 'cancelled'])
    expect(events.at(-2)?.message).toBe('No se pudo iniciar el pago: badrequest')
  })

  test('a second request with the same key gets the order without having created it', async () => {
    const key = randomUUID()
    const { order, product } = await onlineOrder(5, 2, key)
    const twin = await placeOrder(checkoutCtx(), {
      lines: [{ sku: product.sku, quantity: 2 }],
      customer,
      checkoutKey: key,
    })
    expect(twin).toMatchObject({ created: false, order: { id: order.id } })
    // Its payment start fails: not being the creator, it leaves the live order alone.
    provider.failNext(new PaymentProviderError('network', 'timeout'))
    await start(deps(), order.id, 'https://t.example', {
      cancelOnFailure: twin.created,
    })
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
    expect(await reservedOf(product.sku)).toBe(2)
  })

  test('the creator failing after its twin made a payment link does not cancel the order', async () => {
    const { order, product } = await onlineOrder(5, 2, randomUUID())
    // The twin (same form, sent twice) got its link and the shopper is paying with it...
    const twin = await start(deps(), order.id, 'https://t.example', { cancelOnFailure: false })
    expect(twin.ok).toBe(true)
    // ...while the creating request's own start fails.
    provider.failNext(new PaymentProviderError('network', 'timeout'))
    const creator = await start(deps(), order.id, 'https://t.example', {
      cancelOnFailure: true,
    })
    expect(creator.ok).toBe(false)
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
    expect(await reservedOf(product.sku)).toBe(2)
  })
})

describe('expiring unpaid online orders asks the provider first', () => {
  async function staleOrder() {
    const placed = await onlineOrder()
    await t.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 49 * 3_600_000) })
      .where(eq(orders.id, placed.order.id))
    return { ...placed, stored: (await getOrder(t.db, placed.order.id))! }
  }

  test('an approved payment whose notification was lost settles the order instead of cancelling it', async () => {
    const { order, product, stored } = await staleOrder()
    knowPayment('1001', 'rejected', order.id, 0)
    knowPayment('1002', 'approved', order.id, chargedAmount(stored))
    const result = await expireUnpaidOnlineOrders(deps(), 48)
    expect(result).toMatchObject({ cancelled: 0, paid: 1 })
    expect(provider.searches).toContain(order.id)
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'pagado', paymentId: '1002' })
    expect(await reservedOf(product.sku)).toBe(2)
    // Announced once, at purchase.
    expect(await queuedJobs(t.database, 'order-new-notice')).toHaveLength(1)
  })

  test('a provider that cannot be asked leaves the order for the next run (never cancelled blind)', async () => {
    const { order, product } = await staleOrder()
    provider.searchDown = true
    expect(await expireUnpaidOnlineOrders(deps(), 48)).toMatchObject({ cancelled: 0, skipped: 1 })
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
    expect(await reservedOf(product.sku)).toBe(2)

    provider.searchDown = false
    expect(await expireUnpaidOnlineOrders(deps(), 48)).toMatchObject({ cancelled: 1 })
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
    expect(await reservedOf(product.sku)).toBe(0)
  })

  test('only rejected payments: the order is cancelled and its units released', async () => {
    const { order, product } = await staleOrder()
    knowPayment('1101', 'rejected', order.id, 0)
    expect(await expireUnpaidOnlineOrders(deps(), 48)).toMatchObject({ cancelled: 1 })
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
    expect(await reservedOf(product.sku)).toBe(0)
  })

  test('an approved payment short of the total is left for a person, and flagged once', async () => {
    const { order } = await staleOrder()
    knowPayment('1201', 'approved', order.id, 1_000_00)
    await expireUnpaidOnlineOrders(deps(), 48)
    await expireUnpaidOnlineOrders(deps(), 48)
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
    const flags = (await listOrderEvents(t.db, order.id)).filter((e) => e.type === 'payment-amount-mismatch')
    expect(flags).toHaveLength(1)
  })
})

describe('an order with promotions', () => {
  test('its payment charges the order total: the items net of each discount, and it settles on that amount', async () => {
    const order = await placeDiscountedOrder(t.db, { paymentMethod: 'mercadopago', phone: '3005550101' })
    await startOnlinePayment(deps(), order.id, 'https://tienda.example', { cancelOnFailure: false })
    const input = provider.preferences.at(-1)!
    expect(input).toMatchObject({ shippingCost: 12_000_00, shippingDiscount: 5_000_00, total: 106_000_00 })
    const items = preferenceBody(input).items.map((item) => [item.title, item.quantity, item.unit_price])
    expect(items.sort()).toEqual([
      ['Aretes Sol', 1, 18_000],
      ['Collar Luna × 2', 1, 81_000],
      ['Envío', 1, 7_000],
    ])
    const stored = (await getOrder(t.db, order.id))!
    expect(chargedAmount(stored)).toBe(106_000_00)
    // A peso short of the discounted total is not enough; the discounted total is.
    knowPayment('d-1', 'approved', order.id, 105_999_00)
    expect(await processPaymentNotification(deps(), { eventId: 'd-1', paymentId: 'd-1' })).toBe(
      'amount-mismatch',
    )
    knowPayment('d-2', 'approved', order.id, 106_000_00)
    expect(await processPaymentNotification(deps(), { eventId: 'd-2', paymentId: 'd-2' })).toBe('paid')
  })
})
