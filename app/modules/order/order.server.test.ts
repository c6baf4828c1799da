import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { placeOrder } from '#app/modules/checkout/checkout.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { LOOSE_HOLD_LIMITS } from '#tests/orders.ts'
import { createProduct } from '#tests/factories.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { cancelOrder } from './cancel.server.ts'
import { expireUnpaidOrders, type PaymentCheck } from './expire.server.ts'
import { markOrderPaid } from './mark-paid.server.ts'
import { getOrder, listOrderEvents } from './order.server.ts'
import { orders } from './schema.ts'
import { shipOrder } from './ship.server.ts'
import { TransitionRefused } from './status.ts'

const t = setupTestDatabase()
const jobs = recordingJobQueue()

const customer = {
  name: 'Luis',
  phone: '3109876543',
  address: 'Carrera 7 # 8-9',
  department: 'Bogotá D.C.',
  municipality_code: '11001',
  consent: true,
}

async function place(sku: string, quantity: number, paymentMethod: 'acordar' | 'mercadopago') {
  const result = await placeOrder(
    {
      db: t.db,
      jobs: recordingJobQueue(),
      shipping: { shippingCost: 0, freeShippingThreshold: 0 },
      notifyNumbers: [],
      onlinePayments: { mercadopago: true, wompi: true },
      holdLimits: LOOSE_HOLD_LIMITS,
    },
    { lines: [{ sku, quantity }], customer: { ...customer, payment_method: paymentMethod } },
  )
  return result.order
}

const stockOf = async (sku: string) =>
  (await t.db.select({ stock: products.stock }).from(products).where(eq(products.sku, sku)))[0]!.stock

const reservedOf = async (sku: string) =>
  (await t.db.select({ reserved: products.reserved }).from(products).where(eq(products.sku, sku)))[0]!
    .reserved

/** The provider has no approved payment for any order. */
const unpaid: PaymentCheck = async () => 'unpaid'

async function age(orderId: string, hours: number) {
  await t.db
    .update(orders)
    .set({ createdAt: new Date(Date.now() - hours * 3_600_000) })
    .where(eq(orders.id, orderId))
}

describe('cancelling', () => {
  test('releases the reservation once, however often it is called', async () => {
    const product = await createProduct(t.db, { stock: 4 })
    const order = await place(product.sku, 3, 'acordar')
    expect(await reservedOf(product.sku)).toBe(3)
    expect(await cancelOrder(t.db, jobs, order.id, 'Prueba')).toBe(true)
    expect(await reservedOf(product.sku)).toBe(0)
    expect(await cancelOrder(t.db, jobs, order.id, 'Prueba otra vez')).toBe(false)
    expect(await reservedOf(product.sku)).toBe(0)
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
    expect((await listOrderEvents(t.db, order.id)).map((e) => e.type)).toEqual([
      'placed',
      'notice-skipped',
      'cancelled',
    ])
  })

  test('a completed order is not cancelled: the status map refuses it and nothing changes', async () => {
    const product = await createProduct(t.db, { stock: 4 })
    const order = await place(product.sku, 2, 'acordar')
    await t.db.update(orders).set({ status: 'Completado' }).where(eq(orders.id, order.id))
    await expect(cancelOrder(t.db, jobs, order.id, 'Prueba')).rejects.toThrow(TransitionRefused)
    expect((await getOrder(t.db, order.id))?.status).toBe('Completado')
    expect(await reservedOf(product.sku)).toBe(2)
    expect((await listOrderEvents(t.db, order.id)).map((e) => e.type)).not.toContain('cancelled')
  })
})

describe('marking paid', () => {
  const approved = { id: '9001', status: 'approved' }

  test('a pending order becomes "pagado", keeps its units reserved, once', async () => {
    const product = await createProduct(t.db, { stock: 4 })
    const order = await place(product.sku, 2, 'mercadopago')
    expect(await t.db.transaction((tx) => markOrderPaid(tx, order.id, approved, recordingJobQueue()))).toBe(
      true,
    )
    expect(await t.db.transaction((tx) => markOrderPaid(tx, order.id, approved, recordingJobQueue()))).toBe(
      false,
    )
    expect(await getOrder(t.db, order.id)).toMatchObject({
      status: 'pagado',
      paymentId: '9001',
      paymentStatus: 'approved',
      reservationHeld: true,
    })
    expect(await reservedOf(product.sku)).toBe(2)
    expect((await listOrderEvents(t.db, order.id)).filter((e) => e.type === 'paid')).toHaveLength(1)
  })

  test('a cancelled order is refused by the status map and stays cancelled', async () => {
    const product = await createProduct(t.db, { stock: 4 })
    const order = await place(product.sku, 1, 'mercadopago')
    await cancelOrder(t.db, jobs, order.id, 'Prueba')
    await expect(
      t.db.transaction((tx) => markOrderPaid(tx, order.id, approved, recordingJobQueue())),
    ).rejects.toThrow(TransitionRefused)
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
    expect(await reservedOf(product.sku)).toBe(0)
  })
})

test('a cancellation meant for pending orders leaves a just-paid order alone', async () => {
  const product = await createProduct(t.db, { stock: 2 })
  const order = await place(product.sku, 1, 'mercadopago')
  // The expiry job listed it as pending; the payment landed before it got to cancel it.
  await t.db.update(orders).set({ status: 'pagado' }).where(eq(orders.id, order.id))
  expect(await cancelOrder(t.db, jobs, order.id, 'Vencido', { onlyIfPending: true })).toBe(false)
  expect((await getOrder(t.db, order.id))?.status).toBe('pagado')
  expect(await reservedOf(product.sku)).toBe(1)
})

describe('expiring unpaid online orders', () => {
  test('cancels Mercado Pago orders older than the limit and frees their units', async () => {
    const product = await createProduct(t.db, { stock: 10 })
    const old = await place(product.sku, 2, 'mercadopago')
    const recent = await place(product.sku, 1, 'mercadopago')
    const cash = await place(product.sku, 4, 'acordar')
    await age(old.id, 49)
    await age(cash.id, 500)
    expect(await reservedOf(product.sku)).toBe(7)

    expect(await expireUnpaidOrders(t.db, jobs, 48, unpaid)).toEqual({ cancelled: 1, paid: 0, skipped: 0 })
    expect((await getOrder(t.db, old.id))?.status).toBe('cancelado')
    expect((await getOrder(t.db, recent.id))?.status).toBe('pendiente de pago')
    expect((await getOrder(t.db, cash.id))?.status).toBe('pendiente de pago')
    expect(await reservedOf(product.sku)).toBe(5)
    const events = await listOrderEvents(t.db, old.id)
    expect(events.at(-1)?.message).toBe('Cancelado: sin pago después de 48 horas; unidades liberadas.')

    expect(await expireUnpaidOrders(t.db, jobs, 48, unpaid)).toEqual({ cancelled: 0, paid: 0, skipped: 0 })
  })

  test('asks about each stale order first: paid or unknown ones are not cancelled', async () => {
    const product = await createProduct(t.db, { stock: 10 })
    const paid = await place(product.sku, 1, 'mercadopago')
    const unknown = await place(product.sku, 1, 'mercadopago')
    await age(paid.id, 49)
    await age(unknown.id, 49)
    const asked: string[] = []
    const check: PaymentCheck = async (orderId) => {
      asked.push(orderId)
      if (orderId === paid.id) {
        await t.db.update(orders).set({ status: 'pagado' }).where(eq(orders.id, orderId))
        return 'paid'
      }
      return orderId === unknown.id ? 'unknown' : 'unpaid'
    }
    expect(await expireUnpaidOrders(t.db, jobs, 48, check)).toMatchObject({
      cancelled: 0,
      paid: 1,
      skipped: 1,
    })
    expect(asked).toEqual(expect.arrayContaining([paid.id, unknown.id]))
    expect((await getOrder(t.db, unknown.id))?.status).toBe('pendiente de pago')
    expect(await reservedOf(product.sku)).toBe(2)
  })

  test('a paid order never expires', async () => {
    const product = await createProduct(t.db, { stock: 2 })
    const paid = await place(product.sku, 1, 'mercadopago')
    await t.db.update(orders).set({ status: 'pagado' }).where(eq(orders.id, paid.id))
    await age(paid.id, 100)
    await expireUnpaidOrders(t.db, jobs, 48, unpaid)
    expect((await getOrder(t.db, paid.id))?.status).toBe('pagado')
    expect(await reservedOf(product.sku)).toBe(1)
  })

  test('an unpaid order the desk already shipped never expires: its units stay out of stock', async () => {
    const product = await createProduct(t.db, { stock: 5 })
    const order = await place(product.sku, 2, 'mercadopago')
    await shipOrder(t.db, jobs, order.id, {}, 'admin@example.com')
    await age(order.id, 49)
    expect(await stockOf(product.sku)).toBe(3)

    expect(await expireUnpaidOrders(t.db, jobs, 48, unpaid)).toEqual({ cancelled: 0, paid: 0, skipped: 0 })
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
    expect(await stockOf(product.sku)).toBe(3)
    expect(await reservedOf(product.sku)).toBe(0)
  })

  test('an order shipped while the provider was being asked is left alone on the locked row', async () => {
    const product = await createProduct(t.db, { stock: 5 })
    const order = await place(product.sku, 2, 'mercadopago')
    await age(order.id, 49)
    const shipsMeanwhile: PaymentCheck = async (orderId) => {
      await shipOrder(t.db, jobs, orderId, {}, 'admin@example.com')
      return 'unpaid'
    }

    expect(await expireUnpaidOrders(t.db, jobs, 48, shipsMeanwhile)).toEqual({
      cancelled: 0,
      paid: 0,
      skipped: 0,
    })
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
    expect(await stockOf(product.sku)).toBe(3)
    expect((await listOrderEvents(t.db, order.id)).map((e) => e.type)).not.toContain('cancelled')
  })
})
