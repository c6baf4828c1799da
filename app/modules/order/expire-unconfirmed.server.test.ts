import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct, stockOf } from '#tests/orders.ts'
import { confirmOrder } from './confirm.server.ts'
import { confirmationDeadline, expireUnconfirmedCashOrders } from './expire-unconfirmed.server.ts'
import { getOrder, listOrderEvents } from './order.server.ts'
import { orders } from './schema.ts'
import { shipOrder } from './ship.server.ts'

const t = setupTestDatabase()
const jobs = recordingJobQueue()

async function age(orderId: string, hours: number) {
  await t.db
    .update(orders)
    .set({ createdAt: new Date(Date.now() - hours * 3_600_000) })
    .where(eq(orders.id, orderId))
}

test('the deadline is the placing time plus the window', () => {
  expect(confirmationDeadline(new Date('2026-11-20T10:00:00Z'), 48)).toEqual(new Date('2026-11-22T10:00:00Z'))
})

test('unconfirmed cash orders older than the window are cancelled and give their units back; others stay', async () => {
  const product = await stockedProduct(t.db, 20)
  const stale = await placeTestOrder(t.db, { sku: product.sku, quantity: 2 })
  const recent = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  const confirmed = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  const shipped = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  const online = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, paymentMethod: 'mercadopago' })
  await confirmOrder(t.db, jobs, confirmed.id, 'duena@vitrina.test')
  await shipOrder(t.db, jobs, shipped.id, {}, 'duena@vitrina.test')
  for (const order of [stale, confirmed, shipped, online]) await age(order.id, 49)
  await age(recent.id, 47)
  expect((await stockOf(t.db, product.sku)).reserved).toBe(5)

  expect(await expireUnconfirmedCashOrders(t.db, jobs, 48)).toEqual({ cancelled: 1 })
  expect(await getOrder(t.db, stale.id)).toMatchObject({ status: 'cancelado', reservationHeld: false })
  for (const order of [recent, confirmed, shipped, online]) {
    expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
  }
  expect((await stockOf(t.db, product.sku)).reserved).toBe(3)
  expect((await listOrderEvents(t.db, stale.id)).at(-1)).toMatchObject({
    type: 'cancelled',
    createdBy: 'sistema',
    message: 'Cancelado: contra entrega sin confirmar después de 48 horas; unidades liberadas.',
  })
  expect(await expireUnconfirmedCashOrders(t.db, jobs, 48)).toEqual({ cancelled: 0 })
})

test('the window is the configured one', async () => {
  const product = await stockedProduct(t.db, 5)
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  await age(order.id, 3)
  await expireUnconfirmedCashOrders(t.db, jobs, 4)
  expect((await getOrder(t.db, order.id))?.status).toBe('pendiente de pago')
  await expireUnconfirmedCashOrders(t.db, jobs, 2)
  expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
})
