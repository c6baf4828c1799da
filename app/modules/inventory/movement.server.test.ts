import { asc, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { DEFAULT_LOCATION } from './locations.ts'
import {
  adjustCost,
  recordEntry,
  recordExit,
  returnShippedUnits,
  shipOrderUnits,
  StockRefused,
} from './movement.server.ts'
import { productLocations, stockMovements } from './schema.ts'
import { releaseUnits, reserveUnits } from './stock.server.ts'
import { STOCK_MESSAGES } from './validators.ts'

const t = setupTestDatabase()
const jobs = recordingJobQueue()
const OTHER = 'P2-C1-A1-E1-X1-Y1-Z3'
const ADMIN = 'dueña@vitrina.example'

async function stockOf(sku: string) {
  const [row] = await t.db
    .select({
      stock: products.stock,
      reserved: products.reserved,
      unitsIn: products.unitsIn,
      unitsOut: products.unitsOut,
      cost: products.cost,
    })
    .from(products)
    .where(eq(products.sku, sku))
  const locations = await t.db
    .select({ code: productLocations.code, stock: productLocations.stock })
    .from(productLocations)
    .where(eq(productLocations.productSku, sku))
  return { ...row!, locations: Object.fromEntries(locations.map((l) => [l.code, l.stock])) }
}

const ledgerOf = (sku: string) =>
  t.db.select().from(stockMovements).where(eq(stockMovements.productSku, sku)).orderBy(asc(stockMovements.id))

const entry = (sku: string, quantity: number, unitCost: number, location = DEFAULT_LOCATION) =>
  recordEntry(t.db, jobs, { sku, quantity, unitCost, location, receipt: 'FAC-1', note: 'Compra' }, ADMIN)
const exit = (sku: string, quantity: number, unitPrice: number, location = DEFAULT_LOCATION) =>
  recordExit(t.db, jobs, { sku, quantity, unitPrice, location, receipt: 'R-9', note: 'Regalo' }, ADMIN)

const empty = () => createProduct(t.db, { stock: 0, cost: 0 })

describe('entries (Entrada)', () => {
  test('add to stock, units in and the location, and average the cost (hand-computed)', async () => {
    const product = await empty()
    // 10 × $1.000,00 then 5 × $2.500,00: (10 × 100000 + 5 × 250000) / 15 = 150000 centavos.
    await entry(product.sku, 10, 100_000)
    const result = await entry(product.sku, 5, 250_000, ' p2-c1-a1-e1-x1-y1-z3 ')
    expect(result).toMatchObject({ stock: 15, cost: 150_000 })
    expect(await stockOf(product.sku)).toEqual({
      stock: 15,
      reserved: 0,
      unitsIn: 15,
      unitsOut: 0,
      cost: 150_000,
      locations: { [DEFAULT_LOCATION]: 10, [OTHER]: 5 },
    })
    const ledger = await ledgerOf(product.sku)
    expect(ledger.map((row) => [row.type, row.quantity, row.unitPrice, row.total])).toEqual([
      ['in', 10, 100_000, 1_000_000],
      ['in', 5, 250_000, 1_250_000],
    ])
    expect(ledger[1]).toMatchObject({
      location: OTHER,
      receipt: 'FAC-1',
      note: 'Compra',
      stockAfter: 15,
      averageCostAfter: 150_000,
      createdBy: ADMIN,
    })
    expect(result.movementId).toBe(ledger[1]!.id)
  })

  test('a third of a centavo rounds to the nearest centavo', async () => {
    const product = await empty()
    await entry(product.sku, 2, 100)
    expect(await entry(product.sku, 1, 101)).toMatchObject({ cost: 100 }) // 301 / 3 = 100.33
    expect(await entry(product.sku, 1, 102)).toMatchObject({ cost: 101 }) // 403 / 4 = 100.75
  })

  test('refuse bad numbers, a blank or malformed location and an unknown product, writing nothing', async () => {
    const product = await empty()
    const cases: [() => Promise<unknown>, string, string][] = [
      [() => entry(product.sku, 0, 100), STOCK_MESSAGES.quantity, 'quantity'],
      [() => entry(product.sku, 1.5, 100), STOCK_MESSAGES.quantity, 'quantity'],
      [() => entry(product.sku, 1, -1), STOCK_MESSAGES.unitCost, 'unitPrice'],
      [() => entry(product.sku, 1, 100, '   '), STOCK_MESSAGES.missingFields, 'location'],
      [() => entry(product.sku, 1, 100, 'Bodega'), STOCK_MESSAGES.locationFormat, 'location'],
      [() => entry('NO-EXISTE', 1, 100), STOCK_MESSAGES.productNotFound, 'sku'],
    ]
    for (const [attempt, message, field] of cases) {
      const refusal = await attempt().catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(StockRefused)
      expect(refusal).toMatchObject({ message, field })
    }
    expect(await stockOf(product.sku)).toMatchObject({ stock: 0, unitsIn: 0, locations: {} })
    expect(await ledgerOf(product.sku)).toEqual([])
  })

  test('tell the channels of the new stock', async () => {
    const product = await empty()
    const queue = recordingJobQueue()
    await recordEntry(
      t.db,
      queue,
      { sku: product.sku, quantity: 1, unitCost: 0, location: DEFAULT_LOCATION, receipt: '', note: '' },
      ADMIN,
    )
    expect(queue.sent.map((job) => job.data)).toEqual([
      { channel: 'mercadolibre', sku: product.sku },
      { channel: 'shopify', sku: product.sku },
    ])
  })
})

describe('exits (Salida)', () => {
  test('take from stock and the location, keep the cost at cost, and reprice at an edited price', async () => {
    const product = await empty()
    await entry(product.sku, 10, 150_000)
    await entry(product.sku, 2, 150_000, OTHER)
    // At the average cost the cost stays: (12 × 150000 − 4 × 150000) / 8 = 150000.
    expect(await exit(product.sku, 4, 150_000)).toMatchObject({ stock: 8, cost: 150_000 })
    // At an edited price: (8 × 150000 − 2 × 200000) / 6 = 133333.33 → 133333.
    expect(await exit(product.sku, 2, 200_000, OTHER)).toMatchObject({ stock: 6, cost: 133_333 })
    expect(await stockOf(product.sku)).toMatchObject({
      stock: 6,
      unitsIn: 12,
      unitsOut: 6,
      locations: { [DEFAULT_LOCATION]: 6 },
    })
    const last = (await ledgerOf(product.sku)).at(-1)!
    expect(last).toMatchObject({ type: 'out', quantity: 2, unitPrice: 200_000, total: 400_000 })
    expect(last).toMatchObject({ location: OTHER, stockAfter: 6, averageCostAfter: 133_333 })
  })

  test('at the average cost: the cost of the locked row, whatever landed just before', async () => {
    const product = await empty()
    await entry(product.sku, 2, 100_000)
    await entry(product.sku, 2, 200_000) // (200000 + 400000) / 4 = 150000
    const result = await recordExit(
      t.db,
      jobs,
      {
        sku: product.sku,
        quantity: 1,
        unitPrice: 'average-cost',
        location: DEFAULT_LOCATION,
        receipt: '',
        note: '',
      },
      ADMIN,
    )
    expect(result).toMatchObject({ stock: 3, cost: 150_000 })
    expect((await ledgerOf(product.sku)).at(-1)).toMatchObject({ unitPrice: 150_000, total: 150_000 })
  })

  test('to zero: the cost becomes 0 and the location is gone', async () => {
    const product = await empty()
    await entry(product.sku, 3, 90_000)
    expect(await exit(product.sku, 3, 90_000)).toMatchObject({ stock: 0, cost: 0 })
    expect(await stockOf(product.sku)).toMatchObject({ stock: 0, cost: 0, unitsOut: 3, locations: {} })
  })

  test('refused with the spec messages, writing nothing', async () => {
    const product = await empty()
    await entry(product.sku, 5, 1000)
    await entry(product.sku, 1, 1000, OTHER)
    const before = await stockOf(product.sku)
    const cases: [() => Promise<unknown>, string, string][] = [
      [() => exit(product.sku, 7, 1000), 'No hay suficiente stock para la salida.', 'quantity'],
      [
        () => exit(product.sku, 1, 1000, 'P9-C9-A9-E9-X9-Y9-Z9'),
        'La ubicación P9-C9-A9-E9-X9-Y9-Z9 no existe.',
        'location',
      ],
      [
        () => exit(product.sku, 2, 1000, OTHER),
        `No hay suficiente stock en la ubicación ${OTHER}.`,
        'location',
      ],
      [() => exit(product.sku, 1, -5), STOCK_MESSAGES.unitPrice, 'unitPrice'],
    ]
    for (const [attempt, message, field] of cases) {
      await expect(attempt()).rejects.toMatchObject({ message, field })
    }
    expect(await stockOf(product.sku)).toEqual(before)
    expect(await ledgerOf(product.sku)).toHaveLength(2)
  })

  test('never take units that orders have reserved', async () => {
    const product = await empty()
    await entry(product.sku, 5, 1000)
    await t.db.transaction((tx) => reserveUnits(tx, jobs, [{ sku: product.sku, quantity: 4 }]))
    await expect(exit(product.sku, 2, 1000)).rejects.toMatchObject({
      message: STOCK_MESSAGES.reservedUnits(1, 4),
      field: 'quantity',
      status: 409,
    })
    expect(await exit(product.sku, 1, 1000)).toMatchObject({ stock: 4 })
    expect(await stockOf(product.sku)).toMatchObject({ stock: 4, reserved: 4 })
  })
})

describe('shipping and returning an order', () => {
  test('the reservation leaves from the largest locations first, and a return puts it back', async () => {
    const product = await empty()
    await entry(product.sku, 3, 100_000)
    await entry(product.sku, 5, 100_000, OTHER)
    await entry(product.sku, 2, 160_000, OTHER) // 10 units at (300000 + 500000 + 320000) / 10 = 112000
    const other = await empty()
    await entry(other.sku, 1, 5_000)
    const lines = [
      { sku: product.sku, quantity: 8 },
      { sku: other.sku, quantity: 1 },
    ]
    await t.db.transaction((tx) => reserveUnits(tx, jobs, lines))
    const order = { id: 'pedido-envio', number: 1042, lines }

    const shipped = await t.db.transaction((tx) => shipOrderUnits(tx, jobs, order, ADMIN))
    expect(shipped).toEqual(
      [
        { sku: product.sku, location: OTHER, quantity: 7, unitPrice: 112_000 },
        { sku: product.sku, location: DEFAULT_LOCATION, quantity: 1, unitPrice: 112_000 },
        { sku: other.sku, location: DEFAULT_LOCATION, quantity: 1, unitPrice: 5_000 },
      ].sort((a, b) => (a.sku === b.sku ? 0 : a.sku < b.sku ? -1 : 1)),
    )
    expect(await stockOf(product.sku)).toMatchObject({
      stock: 2,
      reserved: 0,
      unitsOut: 8,
      cost: 112_000,
      locations: { [DEFAULT_LOCATION]: 2 },
    })
    expect(await stockOf(other.sku)).toMatchObject({ stock: 0, reserved: 0, cost: 0, locations: {} })
    const exits = (await ledgerOf(product.sku)).filter((row) => row.type === 'out')
    expect(exits.map((row) => [row.receipt, row.orderId, row.createdBy])).toEqual([
      ['1042', 'pedido-envio', ADMIN],
      ['1042', 'pedido-envio', ADMIN],
    ])

    await t.db.transaction((tx) => returnShippedUnits(tx, jobs, order, ADMIN))
    await t.db.transaction((tx) => returnShippedUnits(tx, jobs, order, ADMIN)) // once only
    expect(await stockOf(product.sku)).toMatchObject({
      stock: 10,
      reserved: 0,
      unitsIn: 18,
      cost: 112_000,
      locations: { [DEFAULT_LOCATION]: 3, [OTHER]: 7 },
    })
    expect(await stockOf(other.sku)).toMatchObject({ stock: 1, cost: 5_000 })
    const returns = (await ledgerOf(product.sku)).filter((row) => row.note.startsWith('Devolución'))
    expect(returns.map((row) => [row.type, row.quantity, row.unitPrice, row.location])).toEqual([
      ['in', 7, 112_000, OTHER],
      ['in', 1, 112_000, DEFAULT_LOCATION],
    ])
  })

  test('a line whose locations lack the units rolls the whole shipment back', async () => {
    const fine = await empty()
    await entry(fine.sku, 2, 1000)
    // Stock recorded without a location (data from before locations were kept).
    const unplaced = await createProduct(t.db, { stock: 2, locations: {} })
    const lines = [
      { sku: fine.sku, quantity: 1 },
      { sku: unplaced.sku, quantity: 1 },
    ]
    await t.db.transaction((tx) => reserveUnits(tx, jobs, lines))
    const attempt = t.db.transaction((tx) =>
      shipOrderUnits(tx, jobs, { id: 'pedido-sin-ubicacion', number: 7, lines }, ADMIN),
    )
    await expect(attempt).rejects.toThrow(StockRefused)
    expect(await stockOf(fine.sku)).toMatchObject({ stock: 2, reserved: 1 })
    expect(await stockOf(unplaced.sku)).toMatchObject({ stock: 2, reserved: 1 })
    expect((await ledgerOf(fine.sku)).filter((row) => row.orderId)).toEqual([])
  })
})

describe('shipping an order whose reservation was released', () => {
  test("is refused and writes nothing: it never takes another order's reserved units", async () => {
    const product = await empty()
    await entry(product.sku, 5, 1000)
    const released = [{ sku: product.sku, quantity: 3 }]
    await t.db.transaction((tx) => reserveUnits(tx, jobs, released))
    await t.db.transaction((tx) => releaseUnits(tx, jobs, released))
    // Another order holds 2 units.
    await t.db.transaction((tx) => reserveUnits(tx, jobs, [{ sku: product.sku, quantity: 2 }]))
    const before = await stockOf(product.sku)
    const attempt = t.db.transaction((tx) =>
      shipOrderUnits(tx, jobs, { id: 'pedido-liberado', number: 88, lines: released }, ADMIN),
    )
    await expect(attempt).rejects.toThrow(StockRefused)
    await expect(attempt).rejects.toThrow(STOCK_MESSAGES.notReserved(product.sku, 3, 88, 2))
    expect(await stockOf(product.sku)).toEqual(before)
    expect(before).toMatchObject({ stock: 5, reserved: 2 })
    expect((await ledgerOf(product.sku)).filter((row) => row.orderId)).toEqual([])
  })
})

describe('big movements', () => {
  test('200 units × $ 150.000 (a total past 2^31 centavos) is kept exactly', async () => {
    const product = await empty()
    await entry(product.sku, 200, 150_000_00)
    const [row] = await ledgerOf(product.sku)
    expect(row!.total).toBe(3_000_000_000)
    expect(row!.total).toBeGreaterThan(2 ** 31)
    await exit(product.sku, 200, 150_000_00)
    expect((await ledgerOf(product.sku)).map((r) => r.total)).toEqual([3_000_000_000, 3_000_000_000])
  })
})

describe('cost adjustments', () => {
  test('with stock the new cost is a ledger row of quantity 0; the same cost or no stock writes none', async () => {
    const product = await empty()
    await t.db.transaction((tx) => adjustCost(tx, product.sku, { from: 0, to: 5_000 }, ADMIN))
    expect(await ledgerOf(product.sku)).toEqual([])
    expect((await stockOf(product.sku)).cost).toBe(5_000)

    await entry(product.sku, 4, 5_000)
    await t.db.transaction((tx) => adjustCost(tx, product.sku, { from: 5_000, to: 5_000 }, ADMIN))
    await t.db.transaction((tx) => adjustCost(tx, product.sku, { from: 5_000, to: 6_250 }, ADMIN))
    const ledger = await ledgerOf(product.sku)
    expect(ledger).toHaveLength(2)
    expect(ledger[1]).toMatchObject({
      type: 'adjust',
      quantity: 0,
      unitPrice: 6_250,
      total: 0,
      stockAfter: 4,
      averageCostAfter: 6_250,
      createdBy: ADMIN,
    })
    expect(await stockOf(product.sku)).toMatchObject({ stock: 4, cost: 6_250 })
  })
})
