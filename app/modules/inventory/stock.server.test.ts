import { asc, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { productLocations, stockMovements } from './schema.ts'
import { OutOfStock, releaseUnits, replayHistories, reserveUnits, type PastMovement } from './stock.server.ts'

const t = setupTestDatabase()
const jobs = recordingJobQueue()

const stockOf = async (sku: string) =>
  (
    await t.db
      .select({
        stock: products.stock,
        reserved: products.reserved,
        unitsIn: products.unitsIn,
        unitsOut: products.unitsOut,
        cost: products.cost,
      })
      .from(products)
      .where(eq(products.sku, sku))
  )[0]!

describe('reservations', () => {
  test('hold available units and give them back, never below zero', async () => {
    const a = await createProduct(t.db, { stock: 5 })
    const b = await createProduct(t.db, { stock: 2 })
    await t.db.transaction((tx) =>
      reserveUnits(tx, jobs, [
        { sku: b.sku, quantity: 1 },
        { sku: a.sku, quantity: 2 },
        { sku: a.sku, quantity: 1 },
      ]),
    )
    expect((await stockOf(a.sku)).reserved).toBe(3)
    expect((await stockOf(b.sku)).reserved).toBe(1)
    await t.db.transaction((tx) => releaseUnits(tx, jobs, [{ sku: a.sku, quantity: 2 }]))
    expect((await stockOf(a.sku)).reserved).toBe(1)
    await t.db.transaction((tx) => releaseUnits(tx, jobs, [{ sku: b.sku, quantity: 5 }]))
    expect((await stockOf(b.sku)).reserved).toBe(0)
    expect((await stockOf(a.sku)).stock).toBe(5)
  })

  test('every change of available units tells each channel once per SKU', async () => {
    const product = await createProduct(t.db, { stock: 5 })
    const queue = recordingJobQueue()
    await t.db.transaction((tx) =>
      reserveUnits(tx, queue, [
        { sku: product.sku, quantity: 1 },
        { sku: product.sku, quantity: 1 },
      ]),
    )
    await t.db.transaction((tx) => releaseUnits(tx, queue, [{ sku: product.sku, quantity: 1 }]))
    const sync = { name: 'channel-stock-sync' }
    expect(queue.sent).toEqual([
      { ...sync, data: { channel: 'mercadolibre', sku: product.sku } },
      { ...sync, data: { channel: 'shopify', sku: product.sku } },
      { ...sync, data: { channel: 'mercadolibre', sku: product.sku } },
      { ...sync, data: { channel: 'shopify', sku: product.sku } },
    ])
  })

  test('a line short of available units throws OutOfStock and the transaction holds nothing', async () => {
    const plenty = await createProduct(t.db, { stock: 9 })
    const scarce = await createProduct(t.db, { stock: 3, reserved: 2 })
    const attempt = t.db.transaction((tx) =>
      reserveUnits(tx, jobs, [
        { sku: plenty.sku, quantity: 4 },
        { sku: scarce.sku, quantity: 2 },
      ]),
    )
    await expect(attempt).rejects.toThrow(OutOfStock)
    await expect(attempt).rejects.toMatchObject({ sku: scarce.sku })
    expect((await stockOf(plenty.sku)).reserved).toBe(0)
    expect((await stockOf(scarce.sku)).reserved).toBe(2)
  })
})

describe('replaying past movements', () => {
  const A = 'P1-C1-A1-E1-X1-Y1-Z1'
  const B = 'P1-C2-A1-E1-X1-Y1-Z1'
  const at = new Date('2026-02-01T10:00:00Z')
  const move = (movement: Omit<PastMovement, 'receipt' | 'note' | 'at' | 'by'>): PastMovement => ({
    ...movement,
    receipt: 'R-1',
    note: 'histórico',
    at,
    by: 'importador',
  })

  test('sets stock, units, average cost and locations, and writes the ledger', async () => {
    const product = await createProduct(t.db, { stock: 0, cost: 0 })
    const empty = await createProduct(t.db, { stock: 0, cost: 0 })
    await t.db.transaction((tx) =>
      replayHistories(tx, [
        {
          sku: product.sku,
          movements: [
            move({ type: 'in', quantity: 10, unitPrice: 2_000_000, location: A }),
            move({ type: 'in', quantity: 5, unitPrice: 2_600_000, location: B }),
            move({ type: 'out', quantity: 6, unitPrice: 2_200_000, location: A }),
          ],
        },
        { sku: empty.sku, movements: [] },
      ]),
    )
    // 10 × 20.000 + 5 × 26.000 = 330.000 over 15 → 22.000; the exit at 22.000 keeps it.
    expect(await stockOf(product.sku)).toEqual({
      stock: 9,
      reserved: 0,
      unitsIn: 15,
      unitsOut: 6,
      cost: 2_200_000,
    })
    expect(
      await t.db
        .select({ code: productLocations.code, stock: productLocations.stock })
        .from(productLocations)
        .where(eq(productLocations.productSku, product.sku))
        .orderBy(asc(productLocations.code)),
    ).toEqual([
      { code: A, stock: 4 },
      { code: B, stock: 5 },
    ])
    const ledger = await t.db
      .select()
      .from(stockMovements)
      .where(eq(stockMovements.productSku, product.sku))
      .orderBy(asc(stockMovements.id))
    expect(
      ledger.map((row) => [row.type, row.quantity, row.total, row.stockAfter, row.averageCostAfter]),
    ).toEqual([
      ['in', 10, 20_000_000, 10, 2_000_000],
      ['in', 5, 13_000_000, 15, 2_200_000],
      ['out', 6, 13_200_000, 9, 2_200_000],
    ])
    expect(ledger[0]).toMatchObject({
      receipt: 'R-1',
      note: 'histórico',
      createdBy: 'importador',
      createdAt: at,
    })
    expect(await stockOf(empty.sku)).toMatchObject({ stock: 0, unitsIn: 0, cost: 0 })
  })

  test('a movement against the rules, or a product with stock already, writes nothing', async () => {
    const product = await createProduct(t.db, { stock: 0 })
    const stocked = await createProduct(t.db, { stock: 2 })
    const overdrawn = t.db.transaction((tx) =>
      replayHistories(tx, [
        { sku: product.sku, movements: [move({ type: 'in', quantity: 2, unitPrice: 100, location: A })] },
        { sku: stocked.sku, movements: [move({ type: 'out', quantity: 3, unitPrice: 100, location: A })] },
      ]),
    )
    await expect(overdrawn).rejects.toThrow('No hay suficiente stock para la salida.')
    const twice = t.db.transaction((tx) =>
      replayHistories(tx, [
        { sku: product.sku, movements: [move({ type: 'in', quantity: 2, unitPrice: 100, location: A })] },
        { sku: stocked.sku, movements: [move({ type: 'in', quantity: 1, unitPrice: 100, location: A })] },
      ]),
    )
    await expect(twice).rejects.toThrow('ya tienen movimientos')
    expect(await stockOf(product.sku)).toMatchObject({ stock: 0, unitsIn: 0 })
    expect(
      await t.db.select().from(stockMovements).where(eq(stockMovements.productSku, product.sku)),
    ).toEqual([])
  })
})
