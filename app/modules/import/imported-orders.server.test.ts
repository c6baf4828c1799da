import fs from 'node:fs'
import path from 'node:path'
import { asc, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { stockMovements } from '#app/modules/inventory/schema.ts'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { insertImportedOrders, type ImportedOrder } from '#app/modules/order/import.server.ts'
import { shipOrder } from '#app/modules/order/ship.server.ts'
import { createTestDatabase, setupTestDatabase } from '#tests/db.ts'
import { memoryStorage } from '#tests/media.ts'
import { importOriginalShop } from './import.server.ts'

const t = setupTestDatabase()
const SAMPLE = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/import/sample-export.json'), 'utf8'),
) as { pedidos: Record<string, { items: { quantity: number; unit_price: number }[]; total: number }> }
const SKU = 'COL-CAT-7K2M9QXA'
const offline = { download: async () => ({ ok: false as const, reason: 'sin red' }) }

test('an imported order still to ship holds its units and ships from the desk like one placed here', async () => {
  // A third order asks for more than the 6 units the other open order leaves available.
  const source = structuredClone(SAMPLE)
  const open = source.pedidos['b3Kd8FgH1jKlM2nOpQ5r']!
  source.pedidos['sin-unidades'] = {
    ...structuredClone(open),
    items: [{ ...open.items[0]!, quantity: 7 }],
    total: 7 * 40_500,
  } as (typeof source.pedidos)[string]
  const report = await importOriginalShop({ db: t.db, storage: memoryStorage(), remote: offline }, source)
  expect(report.refused).toEqual([])
  expect(report.imported).toMatchObject({ orders: 3, ordersHoldingUnits: 1 })
  expect(report.warnings).toContainEqual({
    kind: 'pedido',
    key: 'sin-unidades',
    reason: 'Está por enviar, pero no hay unidades disponibles para apartarle: no se apartaron.',
  })

  const [product] = await t.db.select().from(products).where(eq(products.sku, SKU))
  expect(product).toMatchObject({ stock: 8, reserved: 2, cost: 1_525_000 })
  const [held] = await t.db.select().from(orders).where(eq(orders.id, 'b3Kd8FgH1jKlM2nOpQ5r'))
  // Cash on delivery the shop was already handling: confirmed, so the confirmation expiry leaves it.
  expect(held).toMatchObject({ reservationHeld: true, status: 'pendiente de pago', shippedAt: null })
  expect(held!.confirmedAt).not.toBeNull()
  const [unheld] = await t.db.select().from(orders).where(eq(orders.id, 'sin-unidades'))
  expect(unheld!.reservationHeld).toBe(false)
  expect((await listOrderEvents(t.db, 'sin-unidades'))[0]!.message).toBe(
    'Importado de la tienda original con estado "pendiente de pago". No se apartaron sus unidades: no había suficientes disponibles al importarlo.',
  )
  // Numbered by date: the shipped order of the sample is the older one.
  const numbers = await t.db
    .select({ id: orders.id, number: orders.number })
    .from(orders)
    .orderBy(asc(orders.number))
  expect(numbers.map((row) => row.id)).toEqual([
    'x7Hq2LmN9pQrS4tUvW1y',
    'b3Kd8FgH1jKlM2nOpQ5r',
    'sin-unidades',
  ])

  await shipOrder(t.db, recordingJobQueue(), 'b3Kd8FgH1jKlM2nOpQ5r', {}, 'admin@vitrina.local')
  const [after] = await t.db.select().from(products).where(eq(products.sku, SKU))
  expect(after).toMatchObject({ stock: 6, reserved: 0, unitsOut: 4, cost: 1_525_000 })
  const exits = await t.db
    .select()
    .from(stockMovements)
    .where(eq(stockMovements.orderId, 'b3Kd8FgH1jKlM2nOpQ5r'))
  expect(exits.reduce((sum, row) => sum + row.quantity, 0)).toBe(2)
})

test('an order whose product did not come over is refused while still to ship, and comes with its product; a shipped one comes with a warning', async () => {
  const database = await createTestDatabase()
  try {
    const deps = { db: database.db, storage: memoryStorage(), remote: offline }
    // Its ledger no longer explains its stock: the product is refused.
    const broken = structuredClone(SAMPLE) as unknown as Record<string, { productos: { stock: number }[] }>
    broken['productos/productos_bloque_1']!.productos[0]!.stock += 1
    const first = await importOriginalShop(deps, broken)
    expect(first.refused).toContainEqual({
      kind: 'pedido',
      key: 'b3Kd8FgH1jKlM2nOpQ5r',
      reason: `Está por enviar y su producto ${SKU} no se importó; se importará con él.`,
    })
    expect(first.warnings).toContainEqual({
      kind: 'pedido',
      key: 'x7Hq2LmN9pQrS4tUvW1y',
      reason: `Su producto ${SKU} no está en Vitrina: se importó con el nombre y el precio que guardaba.`,
    })
    expect(first.warnings.filter((warning) => warning.reason.includes('unidades disponibles'))).toEqual([])
    expect(first.imported).toMatchObject({ products: 1, orders: 1, ordersHoldingUnits: 0 })
    expect((await database.db.select({ id: orders.id }).from(orders)).map((row) => row.id)).toEqual([
      'x7Hq2LmN9pQrS4tUvW1y',
    ])

    // The corrected export brings the product, and the order still to ship with it.
    const second = await importOriginalShop(deps, SAMPLE)
    expect(second.refused).toEqual([])
    expect(second.imported).toMatchObject({ products: 1, orders: 1, ordersHoldingUnits: 1 })
    const [held] = await database.db.select().from(orders).where(eq(orders.id, 'b3Kd8FgH1jKlM2nOpQ5r'))
    expect(held!.reservationHeld).toBe(true)
  } finally {
    await database.close()
  }
})

test('writing an order still to ship whose product is not here is a bug, not an order without units', async () => {
  const database = await createTestDatabase()
  try {
    const order: ImportedOrder = {
      id: 'sin-producto',
      status: 'pagado',
      shippedAt: null,
      paymentMethod: 'acordar',
      customer: {
        name: 'Ana',
        lastName: 'Pérez',
        identificationNumber: '1',
        phone: '3000000000',
        email: 'ana@example.com',
        address: 'Calle 1',
        city: 'Bogotá',
        department: 'Cundinamarca',
      },
      items: [{ sku: 'NO-EXISTE', title: 'Collar', quantity: 1, unitPrice: 1000 }],
      subtotal: 1000,
      shippingCost: 0,
      total: 1000,
      createdAt: new Date('2025-01-06T15:00:00Z'),
      note: 'Importado de la tienda original.',
    }
    await expect(
      database.db.transaction((tx) => insertImportedOrders(tx, [order], 'importación')),
    ).rejects.toThrow('names NO-EXISTE, which is not in Vitrina')
    expect(await database.db.$count(orders)).toBe(0)
  } finally {
    await database.close()
  }
})

test('a dry run uses up no order numbers, and still says which orders would hold their units', async () => {
  const database = await createTestDatabase()
  try {
    const deps = { db: database.db, storage: memoryStorage(), remote: offline }
    const dry = await importOriginalShop(deps, SAMPLE, { dryRun: true })
    expect(dry.imported).toMatchObject({ orders: 2, ordersHoldingUnits: 1 })
    expect(await database.db.$count(orders)).toBe(0)
    await importOriginalShop(deps, SAMPLE)
    const numbers = await database.db
      .select({ number: orders.number })
      .from(orders)
      .orderBy(asc(orders.number))
    // The first numbers of the shop (the identity starts at 1001), as if no dry run had been made.
    expect(numbers.map((row) => row.number)).toEqual([1001, 1002])
  } finally {
    await database.close()
  }
})
