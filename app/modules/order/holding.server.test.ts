import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { cancelOrder } from './cancel.server.ts'
import { confirmOrder } from './confirm.server.ts'
import { deskCounts, listDeskOrders } from './desk.server.ts'
import { holdingUnconfirmed, isHoldingUnconfirmed } from './holding.ts'
import { markOrderPaidAtDesk } from './mark-paid.server.ts'
import { orders } from './schema.ts'
import { shipOrder } from './ship.server.ts'

const t = setupTestDatabase()
const jobs = recordingJobQueue()
const ADMIN = 'duena@vitrina.test'

test('"holding units unpaid and unconfirmed": one rule in SQL and for a row read, used by the desk', async () => {
  const product = await stockedProduct(t.db, 40)
  const place = (paymentMethod: 'acordar' | 'mercadopago' = 'acordar') =>
    placeTestOrder(t.db, { sku: product.sku, quantity: 1, paymentMethod })
  const cash = await place()
  const online = await place('mercadopago')
  const confirmed = await place()
  await confirmOrder(t.db, jobs, confirmed.id, ADMIN)
  const shipped = await place()
  await shipOrder(t.db, jobs, shipped.id, {}, ADMIN)
  const paid = await place('mercadopago')
  await markOrderPaidAtDesk(t.db, paid.id, ADMIN)
  const cancelled = await place()
  await cancelOrder(t.db, jobs, cancelled.id, 'Prueba')
  // Pending but no longer holding units: nothing left for the limits or the expiry to release.
  const released = await place()
  await t.db.update(orders).set({ reservationHeld: false }).where(eq(orders.id, released.id))

  const ids = [cash, online, confirmed, shipped, paid, cancelled, released].map((order) => order.id)
  const bySql = (await t.db.select({ id: orders.id }).from(orders).where(holdingUnconfirmed)).map(
    (row) => row.id,
  )
  const rows = await t.db.select().from(orders)
  const byRow = rows.filter((row) => isHoldingUnconfirmed(row)).map((row) => row.id)
  expect(bySql.filter((id) => ids.includes(id)).sort()).toEqual([cash.id, online.id].sort())
  expect(byRow.filter((id) => ids.includes(id)).sort()).toEqual([cash.id, online.id].sort())

  // The desk's "por confirmar" queue is the cash-on-delivery part of it.
  expect(await deskCounts(t.db)).toMatchObject({ toConfirm: 1 })
  const queue = await listDeskOrders(t.db, { view: 'por-confirmar', query: '', page: 1 }, 48)
  expect(queue.items.map((item) => item.id)).toEqual([cash.id])
  expect(queue.items[0]?.releaseAt).toBeInstanceOf(Date)
})
