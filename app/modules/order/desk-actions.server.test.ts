import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct, stockOf } from '#tests/orders.ts'
import { cancelOrderAtDesk } from './cancel.server.ts'
import { completeOrder } from './complete.server.ts'
import { confirmOrder } from './confirm.server.ts'
import { getDeskOrder } from './desk.server.ts'
import { markOrderPaidAtDesk } from './mark-paid.server.ts'
import { ORDER_DESK_MESSAGES } from './messages.ts'
import { getOrder, listOrderEvents } from './order.server.ts'
import { shipOrder } from './ship.server.ts'
import { TransitionRefused } from './status.ts'

/** Each state change of the order desk: one transaction, on the timeline with who did it. */

const t = setupTestDatabase()
const jobs = recordingJobQueue()
const ADMIN = 'duena@vitrina.test'

async function refusalOf(run: () => Promise<unknown>) {
  try {
    await run()
  } catch (thrown) {
    return thrown
  }
  throw new Error('no fue rechazado')
}

const eventTypes = async (orderId: string) => (await listOrderEvents(t.db, orderId)).map((e) => e.type)

/** Everything a state change could write, to prove a refused or failed one wrote nothing. */
async function snapshot(orderId: string, sku: string) {
  const { updatedAt: _updated, ...order } = (await getOrder(t.db, orderId))!
  return { order, stock: await stockOf(t.db, sku), events: await listOrderEvents(t.db, orderId) }
}

describe('Marcar como Enviado', () => {
  test('the reservation becomes exits in the ledger; carrier and guía are kept; the admin is on the timeline', async () => {
    const product = await stockedProduct(t.db, 5)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2 })
    await shipOrder(t.db, jobs, order.id, { carrier: ' Servientrega ', trackingNumber: '123456' }, ADMIN)

    const shipped = await getOrder(t.db, order.id)
    expect(shipped).toMatchObject({
      status: 'pendiente de pago',
      reservationHeld: false,
      carrier: 'Servientrega',
      trackingNumber: '123456',
    })
    expect(shipped?.shippedAt).toBeInstanceOf(Date)
    const stock = await stockOf(t.db, product.sku)
    expect(stock).toMatchObject({ stock: 3, reserved: 0, unitsOut: 2 })
    const exits = stock.ledger.filter((row) => row.type === 'out')
    expect(exits).toEqual([
      expect.objectContaining({
        quantity: 2,
        receipt: String(order.number),
        orderId: order.id,
        createdBy: ADMIN,
      }),
    ])
    const events = await listOrderEvents(t.db, order.id)
    expect(events.at(-1)).toMatchObject({
      type: 'shipped',
      createdBy: ADMIN,
      message: 'Marcado como enviado (transportadora Servientrega, guía 123456).',
    })
  })

  test('twice, or on a cancelled order, is refused and writes nothing', async () => {
    const product = await stockedProduct(t.db, 5)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    await shipOrder(t.db, jobs, order.id, {}, ADMIN)
    const before = await snapshot(order.id, product.sku)
    expect(await refusalOf(() => shipOrder(t.db, jobs, order.id, {}, ADMIN))).toMatchObject({
      message: ORDER_DESK_MESSAGES.alreadyShipped,
      status: 409,
    })
    expect(await snapshot(order.id, product.sku)).toEqual(before)

    const other = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    await cancelOrderAtDesk(t.db, jobs, other.id, 'el cliente canceló', ADMIN)
    expect(await refusalOf(() => shipOrder(t.db, jobs, other.id, {}, ADMIN))).toMatchObject({
      message: ORDER_DESK_MESSAGES.closedNoShip,
    })
    expect((await getOrder(t.db, other.id))?.shippedAt).toBeNull()
  })

  test('an unknown order is a 404 refusal', async () => {
    const missing = '00000000-0000-4000-8000-000000000000'
    expect(await refusalOf(() => shipOrder(t.db, jobs, missing, {}, ADMIN))).toMatchObject({
      message: 'Pedido no encontrado.',
      status: 404,
    })
  })
})

describe('Marcar como pagado', () => {
  test('only while "pendiente de pago": the status map refuses it afterwards', async () => {
    const product = await stockedProduct(t.db, 3)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    await markOrderPaidAtDesk(t.db, order.id, ADMIN)
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'pagado', reservationHeld: true })
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({ type: 'paid', createdBy: ADMIN })
    expect((await stockOf(t.db, product.sku)).reserved).toBe(1)

    const again = await refusalOf(() => markOrderPaidAtDesk(t.db, order.id, ADMIN))
    expect(again).toBeInstanceOf(TransitionRefused)
    expect(again).toMatchObject({
      message: 'No se puede cambiar el estado del pedido de "pagado" a "pagado".',
    })

    const cancelled = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    await cancelOrderAtDesk(t.db, jobs, cancelled.id, 'el cliente canceló', ADMIN)
    expect(await refusalOf(() => markOrderPaidAtDesk(t.db, cancelled.id, ADMIN))).toBeInstanceOf(
      TransitionRefused,
    )
    expect((await getOrder(t.db, cancelled.id))?.status).toBe('cancelado')
  })
})

describe('Cancelado', () => {
  test('releases a held reservation and records the reason and who', async () => {
    const product = await stockedProduct(t.db, 4)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 3 })
    expect((await stockOf(t.db, product.sku)).reserved).toBe(3)
    await cancelOrderAtDesk(t.db, jobs, order.id, ' el cliente no responde. ', ADMIN)
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'cancelado', reservationHeld: false })
    expect(await stockOf(t.db, product.sku)).toMatchObject({ stock: 4, reserved: 0 })
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'cancelled',
      message: 'Cancelado: el cliente no responde.',
      createdBy: ADMIN,
    })
    const again = await refusalOf(() => cancelOrderAtDesk(t.db, jobs, order.id, 'otra vez', ADMIN))
    expect(again).toMatchObject({ message: ORDER_DESK_MESSAGES.alreadyCancelled, status: 409 })
    expect(ORDER_DESK_MESSAGES.alreadyCancelled).toBe('El pedido ya está cancelado.')
    expect((await listOrderEvents(t.db, order.id)).filter((e) => e.type === 'cancelled')).toHaveLength(1)
  })

  test('a shipped order refused at delivery: its units come back as a return at their exit cost', async () => {
    const product = await stockedProduct(t.db, 5, 30_000_00, 'P2-C1-A1-E1-X1-Y1-Z1')
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, phone: '3151112233' })
    await shipOrder(t.db, jobs, order.id, {}, ADMIN)
    expect((await stockOf(t.db, product.sku)).stock).toBe(3)
    await cancelOrderAtDesk(t.db, jobs, order.id, 'rechazado en la entrega', ADMIN)

    const stock = await stockOf(t.db, product.sku)
    expect(stock).toMatchObject({ stock: 5, reserved: 0 })
    const returned = stock.ledger.filter((row) => row.type === 'in' && row.orderId === order.id)
    expect(returned).toEqual([
      expect.objectContaining({ quantity: 2, unitPrice: 30_000_00, location: 'P2-C1-A1-E1-X1-Y1-Z1' }),
    ])
    expect(stock.locations).toEqual([expect.objectContaining({ code: 'P2-C1-A1-E1-X1-Y1-Z1', stock: 5 })])
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'cancelado', reservationHeld: false })

    // The shopper's next order shows it as refused at delivery.
    const next = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone: '3151112233' })
    expect((await getDeskOrder(t.db, next.id, 48))?.history).toMatchObject({
      count: 1,
      cancelled: 0,
      refused: 1,
    })
  })

  test('a blank reason is refused before anything changes', async () => {
    const product = await stockedProduct(t.db, 2)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    const before = await snapshot(order.id, product.sku)
    expect(await refusalOf(() => cancelOrderAtDesk(t.db, jobs, order.id, '   ', ADMIN))).toMatchObject({
      message: ORDER_DESK_MESSAGES.reasonRequired,
      status: 400,
    })
    expect(await snapshot(order.id, product.sku)).toEqual(before)
  })
})

describe('Completado', () => {
  test('an order not shipped yet is shipped in the same transaction: no unit stays held', async () => {
    const product = await stockedProduct(t.db, 4)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2 })
    await completeOrder(t.db, jobs, order.id, ADMIN)
    const done = await getOrder(t.db, order.id)
    expect(done).toMatchObject({ status: 'Completado', reservationHeld: false })
    expect(done?.shippedAt).toBeInstanceOf(Date)
    expect(await stockOf(t.db, product.sku)).toMatchObject({ stock: 2, reserved: 0, unitsOut: 2 })
    expect((await eventTypes(order.id)).slice(-2)).toEqual(['shipped', 'completed'])

    expect(await refusalOf(() => completeOrder(t.db, jobs, order.id, ADMIN))).toBeInstanceOf(
      TransitionRefused,
    )
    expect(await refusalOf(() => cancelOrderAtDesk(t.db, jobs, order.id, 'tarde', ADMIN))).toBeInstanceOf(
      TransitionRefused,
    )
    expect(await stockOf(t.db, product.sku)).toMatchObject({ stock: 2, reserved: 0 })
  })

  test('a shipped, paid order is completed without a second exit', async () => {
    const product = await stockedProduct(t.db, 4)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, paymentMethod: 'mercadopago' })
    await markOrderPaidAtDesk(t.db, order.id, ADMIN)
    await shipOrder(t.db, jobs, order.id, {}, ADMIN)
    await completeOrder(t.db, jobs, order.id, ADMIN)
    const stock = await stockOf(t.db, product.sku)
    expect(stock).toMatchObject({ stock: 3, reserved: 0, unitsOut: 1 })
    expect(stock.ledger.filter((row) => row.type === 'out')).toHaveLength(1)
  })

  test('a cancelled order cannot be completed', async () => {
    const product = await stockedProduct(t.db, 2)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    await cancelOrderAtDesk(t.db, jobs, order.id, 'el cliente canceló', ADMIN)
    const before = await snapshot(order.id, product.sku)
    expect(await refusalOf(() => completeOrder(t.db, jobs, order.id, ADMIN))).toMatchObject({
      message: 'No se puede cambiar el estado del pedido de "cancelado" a "Completado".',
      status: 409,
    })
    expect(await snapshot(order.id, product.sku)).toEqual(before)
  })
})

describe('Confirmado (cash on delivery)', () => {
  test('records when and who, once; online orders and closed ones are refused', async () => {
    const product = await stockedProduct(t.db, 5)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    await confirmOrder(t.db, jobs, order.id, ADMIN)
    expect((await getOrder(t.db, order.id))?.confirmedAt).toBeInstanceOf(Date)
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'confirmed',
      message: 'Confirmado con el cliente por WhatsApp.',
      createdBy: ADMIN,
    })
    expect(await refusalOf(() => confirmOrder(t.db, jobs, order.id, ADMIN))).toMatchObject({
      message: ORDER_DESK_MESSAGES.alreadyConfirmed,
    })
    const online = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, paymentMethod: 'mercadopago' })
    expect(await refusalOf(() => confirmOrder(t.db, jobs, online.id, ADMIN))).toMatchObject({
      message: ORDER_DESK_MESSAGES.notCashOnDelivery,
    })
    const cancelled = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    await cancelOrderAtDesk(t.db, jobs, cancelled.id, 'el cliente canceló', ADMIN)
    const refused = await refusalOf(() => confirmOrder(t.db, jobs, cancelled.id, ADMIN))
    expect(refused).toBeInstanceOf(Refusal)
    expect((await getOrder(t.db, cancelled.id))?.confirmedAt).toBeNull()
  })
})

describe('a step that fails rolls the whole change back', () => {
  // A trigger makes the last write of a change (its timeline event) fail, after inventory has
  // already moved units in the same transaction.
  afterEach(async () => {
    await t.db.execute(sql`drop trigger if exists fail_event on order_events`)
  })
  async function failEvent(type: string) {
    await t.db.execute(
      sql.raw(`create or replace function fail_event() returns trigger language plpgsql as $$
        begin raise exception 'fallo simulado'; end $$`),
    )
    await t.db.execute(
      sql.raw(`create trigger fail_event before insert on order_events
        for each row when (new.type = '${type}') execute function fail_event()`),
    )
  }

  test.each([
    ['shipped', 'ship'],
    ['completed', 'complete'],
    ['cancelled', 'cancel a shipped order'],
    ['paid', 'mark paid'],
    ['confirmed', 'confirm'],
  ])('the %s event fails (%s): order, stock, ledger and timeline are as before', async (type, change) => {
    const product = await stockedProduct(t.db, 5)
    const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2 })
    if (change === 'cancel a shipped order') await shipOrder(t.db, jobs, order.id, {}, ADMIN)
    const before = await snapshot(order.id, product.sku)
    await failEvent(type)
    const run = {
      ship: () => shipOrder(t.db, jobs, order.id, { carrier: 'Envía' }, ADMIN),
      complete: () => completeOrder(t.db, jobs, order.id, ADMIN),
      'cancel a shipped order': () =>
        cancelOrderAtDesk(t.db, jobs, order.id, 'rechazado en la entrega', ADMIN),
      'mark paid': () => markOrderPaidAtDesk(t.db, order.id, ADMIN),
      confirm: () => confirmOrder(t.db, jobs, order.id, ADMIN),
    }[change]!
    await expect(run()).rejects.toThrow()
    expect(await snapshot(order.id, product.sku)).toEqual(before)
  })
})

test('shipping and cancelling one order at once: one waits for the other, stock ends right', async () => {
  const product = await stockedProduct(t.db, 6)
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2 })
  // Ship and cancel at once: one of them wins, and stock ends consistent either way.
  const results = await Promise.allSettled([
    shipOrder(t.db, jobs, order.id, {}, ADMIN),
    cancelOrderAtDesk(t.db, jobs, order.id, 'el cliente canceló', ADMIN),
  ])
  expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(1)
  const final = await getOrder(t.db, order.id)
  const stock = await stockOf(t.db, product.sku)
  expect(final?.status).toBe('cancelado')
  expect(stock).toMatchObject({ stock: 6, reserved: 0 })
  expect(stock.locations.reduce((sum, location) => sum + location.stock, 0)).toBe(6)
  expect(final?.reservationHeld).toBe(false)
})
