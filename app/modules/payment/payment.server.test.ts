import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { placeOrder, enqueueNewOrderNotices } from '#app/modules/checkout/checkout.server.ts'
import { CHECKOUT_MESSAGES } from '#app/modules/checkout/validators.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { clearJobs, queuedJobs, setupJobQueue } from '#tests/jobs.ts'
import {
  chargedAmount,
  paymentLinkExpiry,
  processPaymentNotification,
  receivePaymentNotification,
  startOnlinePayment,
  type PaymentDeps,
} from './payment.server.ts'
import { PaymentProviderError, type Payment, type PaymentProvider, type PreferenceInput } from './provider.ts'

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
  } = {
    name: 'mercadopago',
    payments,
    preferences,
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
  payments: provider,
  onPaid: (tx, orderId) =>
    enqueueNewOrderNotices({ jobs: jobs.queue, notifyNumbers: ['573001112233'] }, tx, orderId),
})

const customer = {
  name: 'Sara',
  last_name: 'Ruiz',
  phone: '3001234567',
  email: 'sara@example.com',
  address: 'Calle 50 # 40-30',
  city: 'Cali',
  department: 'Valle del Cauca',
  payment_method: 'mercadopago' as const,
  consent: true,
}

async function onlineOrder(stock = 5, quantity = 2) {
  const product = await createProduct(t.db, { pesos: 45000, stock, discountPercent: 10 })
  const result = await placeOrder(
    {
      db: t.db,
      jobs: jobs.queue,
      shipping: { shippingCost: 9_000_00, freeShippingThreshold: 100_000_00 },
      notifyNumbers: ['573001112233'],
      onlinePayments: true,
    },
    { lines: [{ sku: product.sku, quantity }], customer },
  )
  if (!result.ok) throw new Error(result.errors.form.join(' '))
  return { order: result.order, product }
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
    const result = await startOnlinePayment(deps(), order.id, 'https://tienda.example', {
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
    const result = await startOnlinePayment(deps(), order.id, 'https://tienda.example', {
      cancelOnFailure: true,
    })
    expect(result).toEqual({ ok: false, message })
    expect(await reservedOf(product.sku)).toBe(0)
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
  })

  test('retrying from the failure page keeps the order when the provider fails again', async () => {
    const { order, product } = await onlineOrder()
    provider.failNext(new PaymentProviderError('network', 'timeout'))
    await startOnlinePayment(deps(), order.id, 'https://tienda.example', { cancelOnFailure: false })
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
  test('a repeated notification is recorded once and processed once', async () => {
    const notification = { eventId: 'evt-1', topic: 'payment', resourceId: '111', payload: { id: 'evt-1' } }
    expect(await receivePaymentNotification(deps(), notification)).toBe('accepted')
    expect(await receivePaymentNotification(deps(), notification)).toBe('duplicate')
    expect(await queuedJobs(t.database, 'payment-notification')).toEqual([
      { eventId: 'evt-1', paymentId: '111' },
    ])
  })

  test('other topics are ignored', async () => {
    expect(
      await receivePaymentNotification(deps(), {
        eventId: 'm-1',
        topic: 'merchant_order',
        resourceId: '9',
        payload: {},
      }),
    ).toBe('ignored')
  })

  test('approved: the order becomes "pagado", keeps its units reserved, and the business is told', async () => {
    const { order, product } = await onlineOrder()
    const stored = (await getOrder(t.db, order.id))!
    knowPayment('222', 'approved', order.id, chargedAmount(stored))
    expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '222' })).toBe('paid')
    const paid = await getOrder(t.db, order.id)
    expect(paid).toMatchObject({ status: 'pagado', paymentId: '222', paymentStatus: 'approved' })
    expect(await reservedOf(product.sku)).toBe(2)
    expect((await listOrderEvents(t.db, order.id)).map((e) => e.type)).toContain('paid')
    expect(await queuedJobs(t.database, 'order-new-notice')).toEqual([
      { orderId: order.id, to: '573001112233' },
    ])

    // Mercado Pago retries: a second run changes nothing and tells nobody again.
    expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '222' })).toBe('already-paid')
    expect(await queuedJobs(t.database, 'order-new-notice')).toHaveLength(1)
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
    await startOnlinePayment(deps(), order.id, 'https://t.example', { cancelOnFailure: true })
    knowPayment('666', 'approved', order.id, chargedAmount(stored))
    expect(await processPaymentNotification(deps(), { eventId: 'e', paymentId: '666' })).toBe(
      'paid-after-cancel',
    )
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
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
