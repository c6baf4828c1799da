import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { recordEntry } from '#app/modules/inventory/movement.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct, stockOf } from '#tests/orders.ts'
import { saveSettings } from '#tests/carrier-quotes.ts'
import { cancelOrderAtDesk } from './cancel.server.ts'
import { completeOrder } from './complete.server.ts'
import { confirmOrder } from './confirm.server.ts'
import {
  DESK_PAGE_SIZE,
  deskCounts,
  getDeskOrder,
  getPackingSlips,
  listDeskOrders,
  releaseAtOf,
} from './desk.server.ts'
import { markOrderPaidAtDesk } from './mark-paid.server.ts'
import { orders } from './schema.ts'
import { getOrder } from './order.server.ts'
import { ORDER_DESK_MESSAGES } from './messages.ts'
import { shipOrder } from './ship.server.ts'

/** What the desk reads. Each test uses its own phone numbers, so the file's tests do not mix. */

const t = setupTestDatabase()
const jobs = recordingJobQueue()
const ADMIN = 'duena@vitrina.test'

const numbers = (items: { number: number }[]) => items.map((item) => item.number)

test('the lists, the work queues and the search', async () => {
  const product = await stockedProduct(t.db, 50)
  const phone = '3005550101'
  const place = (paymentMethod: 'acordar' | 'mercadopago' = 'acordar') =>
    placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone, paymentMethod })
  const before = await deskCounts(t.db)
  const unconfirmed = await place()
  const confirmed = await place()
  const paid = await place('mercadopago')
  const shipped = await place()
  const cancelled = await place()
  const completed = await place()
  await confirmOrder(t.db, jobs, confirmed.id, ADMIN)
  await markOrderPaidAtDesk(t.db, paid.id, ADMIN)
  await shipOrder(t.db, jobs, shipped.id, {}, ADMIN)
  await cancelOrderAtDesk(t.db, jobs, cancelled.id, 'el cliente canceló', ADMIN)
  await completeOrder(t.db, jobs, completed.id, ADMIN)

  const list = async (view: Parameters<typeof listDeskOrders>[1]['view']) =>
    numbers((await listDeskOrders(t.db, { view, query: phone, page: 1 }, 48)).items)
  // Newest first.
  expect(await list('abiertos')).toEqual(numbers([shipped, paid, confirmed, unconfirmed]))
  expect(await list('pagados')).toEqual(numbers([paid]))
  expect(await list('pendientes')).toEqual(numbers([shipped, confirmed, unconfirmed]))
  expect(await list('por-confirmar')).toEqual(numbers([unconfirmed]))
  expect(await list('por-enviar')).toEqual(numbers([paid, confirmed]))
  expect(await list('cancelados')).toEqual(numbers([cancelled]))
  expect(await list('completados')).toEqual(numbers([completed]))
  expect(await list('todos')).toHaveLength(6)

  const counts = await deskCounts(t.db)
  expect(counts.toConfirm - before.toConfirm).toBe(1)
  expect(counts.toShip - before.toShip).toBe(2)

  const search = async (query: string) =>
    numbers((await listDeskOrders(t.db, { view: 'todos', query, page: 1 }, 48)).items)
  expect(await search(String(paid.number))).toContain(paid.number)
  expect(await search(`#${paid.number}`)).toContain(paid.number)
  expect(await search('300 555 0101')).toHaveLength(6)
  expect(await search('+57 300-555-0101')).toHaveLength(6)
  // A short number is an order number, never a piece of a phone.
  expect(await search('5550')).toEqual([])
  expect(await search('luis góm')).toEqual(expect.arrayContaining(numbers([paid, cancelled])))
  expect(await search('nadie-se-llama-asi')).toEqual([])
  expect(await search('100%_')).toEqual([])
  // Found by the fuzz suite: a NUL made PostgreSQL refuse the query (a 500 on the list).
  expect(await search('luis\u0000 góm')).toEqual(expect.arrayContaining(numbers([paid, cancelled])))
})

test('pages on the server, and the countdown of an unconfirmed cash order', async () => {
  const product = await stockedProduct(t.db, 50)
  const phone = '3005550202'
  for (let i = 0; i < DESK_PAGE_SIZE + 2; i++) {
    await placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone, paymentMethod: 'mercadopago' })
  }
  const first = await listDeskOrders(t.db, { view: 'abiertos', query: phone, page: 1 }, 48)
  expect(first).toMatchObject({ total: DESK_PAGE_SIZE + 2, page: 1, pageCount: 2 })
  expect(first.items).toHaveLength(DESK_PAGE_SIZE)
  const second = await listDeskOrders(t.db, { view: 'abiertos', query: phone, page: 9 }, 48)
  expect(second).toMatchObject({ page: 2 })
  expect(second.items).toHaveLength(2)
  expect(first.items.every((item) => item.releaseAt === null)).toBe(true)

  const cash = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone: '3005550203' })
  const [row] = await t.db.select().from(orders).where(eq(orders.id, cash.id))
  expect(releaseAtOf(row!, 48)).toEqual(new Date(row!.createdAt.getTime() + 48 * 3_600_000))
  expect((await getDeskOrder(t.db, cash.id, 5))?.releaseAt).toEqual(
    new Date(row!.createdAt.getTime() + 5 * 3_600_000),
  )
})

test('a packing slip: where to pick each item, largest location first, and what to collect', async () => {
  const product = await stockedProduct(t.db, 2, 10_000_00, 'P1-C1-A1-E1-X1-Y1-Z1')
  await recordEntry(
    t.db,
    jobs,
    {
      sku: product.sku,
      quantity: 5,
      unitCost: 10_000_00,
      location: 'P3-C2-A1-E1-X1-Y1-Z1',
      receipt: '',
      note: '',
    },
    ADMIN,
  )
  const cash = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, phone: '3005550303' })
  const paid = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 1,
    phone: '3005550303',
    paymentMethod: 'mercadopago',
  })
  await markOrderPaidAtDesk(t.db, paid.id, ADMIN)
  const slips = await getPackingSlips(t.db, [paid.id, cash.id, '00000000-0000-4000-8000-000000000000'])
  expect(slips.map((slip) => slip.number)).toEqual([cash.number, paid.number])
  expect(slips[0]).toMatchObject({
    customerName: 'Luis Gómez',
    customerPhone: '3005550303',
    customerAddress: 'Carrera 7 # 8-9',
    toCollect: cash.total,
    items: [
      {
        sku: product.sku,
        quantity: 2,
        locations: [
          { code: 'P3-C2-A1-E1-X1-Y1-Z1', units: 5 },
          { code: 'P1-C1-A1-E1-X1-Y1-Z1', units: 2 },
        ],
      },
    ],
  })
  expect(slips[1]).toMatchObject({ toCollect: 0, cancelled: false, locationsFrom: 'stock' })
  expect(await getPackingSlips(t.db, [])).toEqual([])
})

test("a shipped order's slip lists where its units were taken from; a cancelled one says not to dispatch", async () => {
  const product = await stockedProduct(t.db, 1, 10_000_00, 'P1-C1-A1-E1-X1-Y1-Z1')
  await recordEntry(
    t.db,
    jobs,
    {
      sku: product.sku,
      quantity: 3,
      unitCost: 10_000_00,
      location: 'P3-C2-A1-E1-X1-Y1-Z1',
      receipt: '',
      note: '',
    },
    ADMIN,
  )
  const shipped = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, phone: '3005550404' })
  await shipOrder(t.db, jobs, shipped.id, {}, ADMIN)
  const [before] = await getPackingSlips(t.db, [shipped.id])
  // Today's stock is elsewhere: another entry lands after shipping.
  await recordEntry(
    t.db,
    jobs,
    {
      sku: product.sku,
      quantity: 9,
      unitCost: 10_000_00,
      location: 'P9-C9-A1-E1-X1-Y1-Z1',
      receipt: '',
      note: '',
    },
    ADMIN,
  )
  const [slip] = await getPackingSlips(t.db, [shipped.id])
  expect(slip).toEqual(before)
  const exits = (await stockOf(t.db, product.sku)).ledger.filter(
    (row) => row.type === 'out' && row.orderId === shipped.id,
  )
  const taken = new Map<string, number>()
  for (const row of exits) taken.set(row.location, (taken.get(row.location) ?? 0) + row.quantity)
  expect(slip).toMatchObject({ locationsFrom: 'shipment', cancelled: false })
  expect(Object.fromEntries(slip!.items[0]!.locations.map((l) => [l.code, l.units]))).toEqual(
    Object.fromEntries(taken),
  )
  expect(slip!.items[0]!.locations.reduce((sum, l) => sum + l.units, 0)).toBe(2)
  expect(slip!.items[0]!.locations.map((l) => l.code)).not.toContain('P9-C9-A1-E1-X1-Y1-Z1')

  const cancelled = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone: '3005550405' })
  await cancelOrderAtDesk(t.db, jobs, cancelled.id, 'el cliente canceló', ADMIN)
  expect((await getPackingSlips(t.db, [cancelled.id]))[0]).toMatchObject({ cancelled: true, toCollect: 0 })
})

test('"Transferencias por confirmar": transfer orders still waiting for their money, counted on the dashboard', async () => {
  await saveSettings(t.db, { paymentTransfer: 'yes', transferBrebKey: '@vitrina' })
  const product = await stockedProduct(t.db, 10)
  const phone = '3005550202'
  const before = await deskCounts(t.db)
  const waiting = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 1,
    phone,
    paymentMethod: 'transferencia',
  })
  const paid = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 1,
    phone,
    paymentMethod: 'transferencia',
  })
  await placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone, paymentMethod: 'acordar' })
  await markOrderPaidAtDesk(t.db, paid.id, ADMIN)
  const listed = await listDeskOrders(t.db, { view: 'transferencias', query: phone, page: 1 }, 48)
  expect(numbers(listed.items)).toEqual(numbers([waiting]))
  expect((await deskCounts(t.db)).transfers - before.transfers).toBe(1)
  // Delivered unpaid would be a sale nobody paid for: "Completado" waits for the payment.
  await expect(completeOrder(t.db, jobs, waiting.id, ADMIN)).rejects.toThrow(
    ORDER_DESK_MESSAGES.completeUnpaid,
  )
  expect((await getOrder(t.db, waiting.id))!.status).toBe('pendiente de pago')
  await completeOrder(t.db, jobs, paid.id, ADMIN)
})
