import { expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { saveSettings } from '#tests/carrier-quotes.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct, stockOf } from '#tests/orders.ts'
import { expireUnpaidOnlineOrders } from './payment.server.ts'
import { noOnlinePayments } from './provider.ts'
import { confirmTransferPaid, saveTransferReceipt } from './transfer.server.ts'

/**
 * An unpaid transfer expires after the shop's deadline ("Pagos"), not the online payments' timeout:
 * the order is cancelled and its reserved units go back on sale; one marked paid in time stays.
 * Nobody is asked first: a transfer has no provider.
 */

const t = setupTestDatabase()
const jobs = recordingJobQueue()
const deps = () => ({
  db: t.db,
  jobs,
  providers: { mercadopago: noOnlinePayments, wompi: noOnlinePayments },
})

test('past the shop’s deadline an unpaid transfer is cancelled and its units freed; a paid one stays', async () => {
  await saveSettings(t.db, { paymentTransfer: 'yes', transferBrebKey: '@vitrina', transferDeadlineHours: 6 })
  const product = await stockedProduct(t.db, 5)
  const unpaid = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, paymentMethod: 'transferencia' })
  const paid = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 1,
    phone: '3109990000',
    paymentMethod: 'transferencia',
  })
  await confirmTransferPaid(t.db, jobs, paid.id, 'duena@vitrina.test')
  expect(await stockOf(t.db, product.sku)).toMatchObject({ stock: 5, reserved: 3 })

  // Five hours on: within the deadline, nothing happens (the online timeout, 48 h, is not it).
  const fiveHours = new Date(Date.now() + 5 * 3_600_000)
  expect(await expireUnpaidOnlineOrders(deps(), 48, fiveHours)).toMatchObject({ transfersCancelled: 0 })
  expect((await getOrder(t.db, unpaid.id))!.status).toBe('pendiente de pago')

  const sevenHours = new Date(Date.now() + 7 * 3_600_000)
  expect(await expireUnpaidOnlineOrders(deps(), 48, sevenHours)).toMatchObject({ transfersCancelled: 1 })
  expect(await getOrder(t.db, unpaid.id)).toMatchObject({ status: 'cancelado', reservationHeld: false })
  expect((await listOrderEvents(t.db, unpaid.id)).map((event) => event.message)).toContain(
    'Cancelado: la transferencia no llegó en 6 horas; unidades liberadas.',
  )
  expect((await getOrder(t.db, paid.id))!.status).toBe('pagado')
  expect(await stockOf(t.db, product.sku)).toMatchObject({ stock: 5, reserved: 1 })
})

test('transfers turned off later: orders still waiting expire by the saved deadline all the same', async () => {
  await saveSettings(t.db, { paymentTransfer: 'yes', transferBrebKey: '@vitrina', transferDeadlineHours: 2 })
  const product = await stockedProduct(t.db, 3)
  const waiting = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 1,
    phone: '3109990001',
    paymentMethod: 'transferencia',
  })
  await saveSettings(t.db, { paymentTransfer: 'no' })
  await expireUnpaidOnlineOrders(deps(), 48, new Date(Date.now() + 3 * 3_600_000))
  expect((await getOrder(t.db, waiting.id))!.status).toBe('cancelado')
})

test('a buyer who sent the receipt is not cancelled past the deadline: the owner decides', async () => {
  await saveSettings(t.db, { paymentTransfer: 'yes', transferBrebKey: '@vitrina', transferDeadlineHours: 2 })
  const product = await stockedProduct(t.db, 3)
  const sent = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 1,
    phone: '3109990002',
    paymentMethod: 'transferencia',
  })
  await saveTransferReceipt(t.db, sent.id, {
    name: 'pago.pdf',
    bytes: Buffer.from('%PDF-1.7\n%%EOF\n'),
  })
  await expireUnpaidOnlineOrders(deps(), 48, new Date(Date.now() + 3 * 3_600_000))
  expect((await getOrder(t.db, sent.id))!.status).toBe('pendiente de pago')
  expect(await stockOf(t.db, product.sku)).toMatchObject({ reserved: 1 })
})
