import { asc } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { products } from '#app/modules/catalog/schema.ts'
import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { memoryStorage } from '#tests/media.ts'
import { seedDemoData } from './demo-data.server.ts'

const t = setupTestDatabase()

test('the demo stock agrees with its ledger and locations', async () => {
  await seedDemoData(t.db, memoryStorage(), { products: 12 })
  const [rows, ledger, locations] = await Promise.all([
    t.db.select().from(products),
    t.db.select().from(stockMovements).orderBy(asc(stockMovements.id)),
    t.db.select().from(productLocations),
  ])
  expect(rows).toHaveLength(12)
  expect(rows.some((row) => row.stock === 0)).toBe(true)
  for (const row of rows) {
    const moves = ledger.filter((move) => move.productSku === row.sku)
    const sum = (type: 'in' | 'out') =>
      moves.filter((move) => move.type === type).reduce((total, move) => total + move.quantity, 0)
    expect(row.unitsIn).toBe(sum('in'))
    expect(row.unitsOut).toBe(sum('out'))
    expect(row.stock).toBe(row.unitsIn - row.unitsOut)
    expect(row.reserved).toBe(0)
    expect(row.cost).toBe(moves.at(-1)?.averageCostAfter ?? 0)
    const located = locations.filter((location) => location.productSku === row.sku)
    expect(located.reduce((total, location) => total + location.stock, 0)).toBe(row.stock)
    expect(located.every((location) => location.stock > 0)).toBe(true)
  }
})
