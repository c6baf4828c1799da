import { beforeEach, expect, test } from 'vitest'
import { products } from '#app/modules/catalog/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { inventoryTotals } from './totals.server.ts'

const t = setupTestDatabase()

beforeEach(async () => {
  await t.db.delete(products)
})

test('an empty shop has zero totals', async () => {
  expect(await inventoryTotals(t.db)).toEqual({ costValue: 0, level1Value: 0, level5Value: 0, units: 0 })
})

test('values stock at cost, level 1 and level 5, and counts the units', async () => {
  // 3 × (cost 20.000, level1 50.000, level5 20.000) and 2 × (cost 4.000,50, level1 10.000, level5 4.000)
  await createProduct(t.db, { pesos: 50000, cost: 2_000_000, stock: 3 })
  await createProduct(t.db, { pesos: 10000, cost: 400_050, stock: 2 })
  await createProduct(t.db, { pesos: 99000, cost: 10_000, stock: 0 })
  expect(await inventoryTotals(t.db)).toEqual({
    costValue: 3 * 2_000_000 + 2 * 400_050,
    level1Value: 3 * 5_000_000 + 2 * 1_000_000,
    level5Value: 3 * 2_000_000 + 2 * 400_000,
    units: 5,
  })
})

test('large stock values do not overflow 32-bit integers', async () => {
  // 1.000 units of a 5.000.000-peso item: 5.000 million pesos = 500.000 million centavos.
  await createProduct(t.db, { pesos: 5_000_000, cost: 300_000_000, stock: 1000 })
  const totals = await inventoryTotals(t.db)
  expect(totals.level1Value).toBe(500_000_000_000)
  expect(totals.costValue).toBe(300_000_000_000)
  expect(totals.units).toBe(1000)
})
