import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { DEFAULT_LOCATION } from './locations.ts'
import {
  recordEntry,
  recordExit,
  returnShippedUnits,
  shipOrderUnits,
  StockRefused,
} from './movement.server.ts'
import { productLocations, stockMovements } from './schema.ts'
import { OutOfStock, releaseUnits, reserveUnits } from './stock.server.ts'

/**
 * Many hands on one product at once (on PostgreSQL truly concurrent, on PGlite one after another):
 * whatever order they land in, stock is fully explained by the ledger and the locations, and
 * reservations stay within stock.
 */

const t = setupTestDatabase()
const jobs = recordingJobQueue()
const LOCATIONS = [DEFAULT_LOCATION, 'P2-C1-A1-E1-X1-Y1-Z1', 'P3-C2-A1-E1-X1-Y1-Z1']
const by = 'prueba@vitrina.example'

/** A refusal of the stock rules is a fine outcome here; anything else fails the test. */
async function allowRefusal(work: () => Promise<unknown>) {
  try {
    await work()
  } catch (error) {
    if (!(error instanceof StockRefused) && !(error instanceof OutOfStock)) throw error
  }
}

test('entries, exits, orders, shipments and cancellations keep stock explained', async () => {
  const product = await createProduct(t.db, { stock: 0, cost: 0 })
  const sku = product.sku
  const at = (i: number) => LOCATIONS[i % LOCATIONS.length]!

  const entries = Array.from(
    { length: 12 },
    (_, i) => () =>
      recordEntry(
        t.db,
        jobs,
        { sku, quantity: 2 + (i % 3), unitCost: 1000 * (i + 1), location: at(i), receipt: `E${i}`, note: '' },
        by,
      ),
  )
  const exits = Array.from(
    { length: 8 },
    (_, i) => () =>
      recordExit(
        t.db,
        jobs,
        { sku, quantity: 1 + (i % 2), unitPrice: 1500, location: at(i + 1), receipt: `S${i}`, note: '' },
        by,
      ),
  )
  const orders = Array.from({ length: 10 }, (_, i) => async () => {
    const order = { id: `pedido-${i}`, number: 2000 + i, lines: [{ sku, quantity: 1 + (i % 3) }] }
    await t.db.transaction((tx) => reserveUnits(tx, jobs, order.lines))
    if (i % 3 === 0) {
      await t.db.transaction((tx) => releaseUnits(tx, jobs, order.lines)) // cancelled before shipping
      return
    }
    await t.db.transaction((tx) => shipOrderUnits(tx, jobs, order, by))
    if (i % 3 === 1) await t.db.transaction((tx) => returnShippedUnits(tx, jobs, order, by)) // rejected on delivery
  })

  // Entries first get a head start so that some orders and exits find units.
  await Promise.all(entries.slice(0, 6).map((work) => work()))
  await Promise.all([...entries.slice(6), ...exits, ...orders].map((work) => allowRefusal(work)))

  const [row] = await t.db
    .select({
      stock: products.stock,
      reserved: products.reserved,
      unitsIn: products.unitsIn,
      unitsOut: products.unitsOut,
    })
    .from(products)
    .where(eq(products.sku, sku))
  const [ledger] = await t.db
    .select({
      entered: sql<number>`coalesce(sum(${stockMovements.quantity}) filter (where ${stockMovements.type} = 'in'), 0)::int`,
      left: sql<number>`coalesce(sum(${stockMovements.quantity}) filter (where ${stockMovements.type} = 'out'), 0)::int`,
    })
    .from(stockMovements)
    .where(eq(stockMovements.productSku, sku))
  const [located] = await t.db
    .select({
      units: sql<number>`coalesce(sum(${productLocations.stock}), 0)::int`,
      negative: sql<number>`count(*) filter (where ${productLocations.stock} <= 0)::int`,
    })
    .from(productLocations)
    .where(eq(productLocations.productSku, sku))

  expect(ledger!.entered).toBeGreaterThan(0)
  expect(ledger!.left).toBeGreaterThan(0)
  expect(row!.stock).toBe(ledger!.entered - ledger!.left)
  expect(row!.stock).toBe(located!.units)
  expect(located!.negative).toBe(0)
  expect(row!.unitsIn).toBe(ledger!.entered)
  expect(row!.unitsOut).toBe(ledger!.left)
  expect(row!.reserved).toBe(0) // every order above was shipped or cancelled
  expect(row!.stock).toBeGreaterThanOrEqual(0)
}, 120_000)
