import { expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { cancelOrder } from '#app/modules/order/cancel.server.ts'
import { confirmOrder } from '#app/modules/order/confirm.server.ts'
import { markOrderPaid } from '#app/modules/order/mark-paid.server.ts'
import { getOrder } from '#app/modules/order/order.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct, stockOf, type Placement } from '#tests/orders.ts'
import { inArray } from 'drizzle-orm'
import { settings } from '#app/modules/settings/schema.ts'
import { CheckoutRefused } from './checkout.server.ts'
import { HOLD_LIMIT_MESSAGES } from './hold-limits.server.ts'

/** Nobody holds the stock hostage with orders they never pay or confirm. */

const t = setupTestDatabase()
const limits = { maxOpenOrders: 2, maxOpenUnits: 10, maxOpenOrdersPerAddress: 3, maxOpenUnitsPerAddress: 12 }
let phoneCounter = 0
/** A phone no other test uses (the database is shared by the file's tests). */
const newPhone = () => `320${String(1_000_000 + phoneCounter++).padStart(7, '0')}`

const place = (placement: Placement) => placeTestOrder(t.db, { holdLimits: limits, ...placement })

async function refusalOf(run: () => Promise<unknown>) {
  try {
    await run()
  } catch (thrown) {
    return thrown
  }
  throw new Error('no fue rechazado')
}

const ordersRefusal = HOLD_LIMIT_MESSAGES.orders(2)
const unitsRefusal = HOLD_LIMIT_MESSAGES.units(10)
const orderUnitsRefusal = HOLD_LIMIT_MESSAGES.orderUnits(10)

test('a phone holds at most two open unconfirmed cash orders; the third is refused and reserves nothing', async () => {
  const product = await stockedProduct(t.db, 20)
  const phone = newPhone()
  await place({ sku: product.sku, quantity: 1, phone })
  await place({ sku: product.sku, quantity: 1, phone })
  const refused = await refusalOf(() => place({ sku: product.sku, quantity: 1, phone }))
  expect(refused).toBeInstanceOf(CheckoutRefused)
  expect(refused).toMatchObject({ message: ordersRefusal, status: 409 })
  expect((refused as CheckoutRefused).errors.form).toEqual([ordersRefusal])
  expect((await stockOf(t.db, product.sku)).reserved).toBe(2)
  expect(HOLD_LIMIT_MESSAGES.orders(2)).toBe(
    'Ya tienes 2 pedidos pendientes sin pagar ni confirmar. Cuando pagues o confirmemos por WhatsApp alguno de ellos, podrás hacer otro pedido.',
  )

  // Choosing to pay online is no way around it: an unpaid online order holds units just as long.
  expect(
    await refusalOf(() => place({ sku: product.sku, quantity: 1, phone, paymentMethod: 'mercadopago' })),
  ).toMatchObject({ message: ordersRefusal, status: 409 })
  expect((await stockOf(t.db, product.sku)).reserved).toBe(2)
})

test('unpaid online orders count under the same limits, against either method', async () => {
  const product = await stockedProduct(t.db, 30)
  const phone = newPhone()
  const online = await place({ sku: product.sku, quantity: 1, phone, paymentMethod: 'mercadopago' })
  await place({ sku: product.sku, quantity: 1, phone, paymentMethod: 'mercadopago' })
  expect(await refusalOf(() => place({ sku: product.sku, quantity: 1, phone }))).toMatchObject({
    message: ordersRefusal,
  })
  expect(
    await refusalOf(() => place({ sku: product.sku, quantity: 1, phone, paymentMethod: 'mercadopago' })),
  ).toMatchObject({ message: ordersRefusal })
  // Paid, it holds units for a customer who paid: no longer counted.
  await t.db.transaction((tx) =>
    markOrderPaid(tx, online.id, { id: '77', status: 'approved' }, recordingJobQueue()),
  )
  await place({ sku: product.sku, quantity: 1, phone, paymentMethod: 'mercadopago' })

  const other = newPhone()
  expect(
    await refusalOf(() =>
      place({ sku: product.sku, quantity: 11, phone: other, paymentMethod: 'mercadopago' }),
    ),
  ).toMatchObject({ message: orderUnitsRefusal })
  expect((await stockOf(t.db, product.sku)).reserved).toBe(3)
})

test('confirming or cancelling an order frees its place', async () => {
  const product = await stockedProduct(t.db, 20)
  const phone = newPhone()
  const first = await place({ sku: product.sku, quantity: 1, phone })
  const second = await place({ sku: product.sku, quantity: 1, phone })
  await confirmOrder(t.db, recordingJobQueue(), first.id, 'duena@vitrina.test')
  const third = await place({ sku: product.sku, quantity: 1, phone })
  await expect(place({ sku: product.sku, quantity: 1, phone })).rejects.toThrow(CheckoutRefused)
  await cancelOrder(t.db, recordingJobQueue(), second.id, 'Prueba')
  await place({ sku: product.sku, quantity: 1, phone })
  expect((await getOrder(t.db, third.id))?.status).toBe('pendiente de pago')
})

test('the units those orders hold together are limited too, this order included', async () => {
  const product = await stockedProduct(t.db, 30)
  const phone = newPhone()
  // An order too large by itself is told to talk it over by WhatsApp, not to pay pending orders.
  const alone = await refusalOf(() => place({ sku: product.sku, quantity: 11, phone }))
  expect(alone).toMatchObject({ message: orderUnitsRefusal })
  expect((alone as CheckoutRefused).errors.offerWhatsapp).toBe(true)
  expect(orderUnitsRefusal).toBe(
    'Un pedido en línea puede apartar hasta 10 unidades. Para comprar más (por ejemplo, al por mayor), escríbenos por WhatsApp y lo coordinamos contigo.',
  )
  await place({ sku: product.sku, quantity: 6, phone })
  const withPending = await refusalOf(() => place({ sku: product.sku, quantity: 5, phone }))
  expect(withPending).toMatchObject({ message: unitsRefusal })
  expect((withPending as CheckoutRefused).errors.offerWhatsapp).toBe(true)
  await place({ sku: product.sku, quantity: 4, phone })
  expect((await stockOf(t.db, product.sku)).reserved).toBe(10)
})

test("other phones from one client address count together, under the address's own higher limit", async () => {
  const product = await stockedProduct(t.db, 40)
  const clientAddress = '203.0.113.7'
  for (let i = 0; i < 3; i++) await place({ sku: product.sku, quantity: 1, phone: newPhone(), clientAddress })
  const refused = await refusalOf(() =>
    place({ sku: product.sku, quantity: 1, phone: newPhone(), clientAddress }),
  )
  expect(refused).toMatchObject({ message: HOLD_LIMIT_MESSAGES.addressOrders(3), status: 409 })
  expect(HOLD_LIMIT_MESSAGES.addressOrders(3)).not.toBe(HOLD_LIMIT_MESSAGES.orders(3))
  const elsewhere = await place({
    sku: product.sku,
    quantity: 1,
    phone: newPhone(),
    clientAddress: '198.51.100.9',
  })
  expect((await getOrder(t.db, elsewhere.id))?.clientAddress).toBe('198.51.100.9')
  for (let i = 0; i < 4; i++)
    await place({ sku: product.sku, quantity: 1, phone: newPhone(), clientAddress: null })

  // Units per address: 12 together, whoever's phone.
  const shared = '192.0.2.50'
  await place({ sku: product.sku, quantity: 8, phone: newPhone(), clientAddress: shared })
  expect(
    await refusalOf(() => place({ sku: product.sku, quantity: 5, phone: newPhone(), clientAddress: shared })),
  ).toMatchObject({ message: HOLD_LIMIT_MESSAGES.addressUnits(12) })
})

test('an IPv6 client rotating addresses within its /64 counts as one network', async () => {
  const product = await stockedProduct(t.db, 20)
  for (const host of ['1', 'a:b:c', 'ffff:0:1'])
    await place({ sku: product.sku, quantity: 1, phone: newPhone(), clientAddress: `2001:db8:1:2::${host}` })
  expect(
    await refusalOf(() =>
      place({ sku: product.sku, quantity: 1, phone: newPhone(), clientAddress: '2001:db8:1:2:9::9' }),
    ),
  ).toMatchObject({ message: HOLD_LIMIT_MESSAGES.addressOrders(3) })
  const order = await place({
    sku: product.sku,
    quantity: 1,
    phone: newPhone(),
    clientAddress: '2001:db8:1:3::1',
  })
  expect(await getOrder(t.db, order.id)).toMatchObject({
    clientAddress: '2001:db8:1:3::1',
    clientNetwork: '2001:db8:1:3::/64',
  })
})

test('five posts at once from one phone: exactly two orders are taken', async () => {
  const product = await stockedProduct(t.db, 20)
  const phone = newPhone()
  const results = await Promise.allSettled(
    Array.from({ length: 5 }, () => place({ sku: product.sku, quantity: 1, phone })),
  )
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2)
  expect(
    results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.message),
  ).toEqual(Array(3).fill(ordersRefusal))
  expect((await stockOf(t.db, product.sku)).reserved).toBe(2)
})

test('the limits saved in "Configuraciones" apply to the next order, in place of the defaults', async () => {
  const product = await stockedProduct(t.db, 40)
  const phone = newPhone()
  await t.db.insert(settings).values([
    { key: 'maxOpenUnits', value: 20 },
    { key: 'maxOpenUnitsPerAddress', value: 30 },
  ])
  try {
    // A reseller's 11 units now fit.
    await place({ sku: product.sku, quantity: 11, phone, clientAddress: '198.51.100.23' })
    expect(await refusalOf(() => place({ sku: product.sku, quantity: 10, phone }))).toMatchObject({
      message: HOLD_LIMIT_MESSAGES.units(20),
    })
  } finally {
    await t.db.delete(settings).where(inArray(settings.key, ['maxOpenUnits', 'maxOpenUnitsPerAddress']))
  }
})
