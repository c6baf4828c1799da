import { expect, test } from 'vitest'
import { productLocations } from '#app/modules/inventory/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { listInventory } from './inventory-grid.server.ts'
import { DEFAULT_INVENTORY_FILTERS } from './validators.ts'

const t = setupTestDatabase()

test('filters by sku text (any case) and the four checkboxes, on the server, in pages', async () => {
  const tag = 'ZQX'
  const make = (suffix: string, values: { stock: number; showWholesale: boolean; showRetail: boolean }) =>
    createProduct(t.db, { sku: `${tag}-GEN-${suffix}`, ...values })
  await createProduct(t.db, {
    sku: `${tag}-GEN-MAYOR`,
    stock: 5,
    reserved: 2,
    showWholesale: true,
    showRetail: false,
  })
  await make('DETAL', { stock: 5, showWholesale: false, showRetail: true })
  await make('AMBOS', { stock: 0, showWholesale: true, showRetail: true })
  await make('NINGUNO', { stock: 2, showWholesale: false, showRetail: false })
  // The factory keeps MAYOR's 5 units at P1-C1-A1-E1-X1-Y1-Z1; an empty location is not shown.
  await t.db
    .insert(productLocations)
    .values({ productSku: `${tag}-GEN-MAYOR`, code: 'P2-C1-A1-E1-X1-Y1-Z1', stock: 0 })
  const skus = async (filters: Partial<typeof DEFAULT_INVENTORY_FILTERS>) =>
    (await listInventory(t.reads, { ...DEFAULT_INVENTORY_FILTERS, q: 'zqx-gen', ...filters })).items
      .map((item) => item.sku.replace(`${tag}-GEN-`, ''))
      .sort()
  expect(await skus({})).toEqual(['AMBOS', 'DETAL', 'MAYOR', 'NINGUNO'])
  expect(await skus({ retail: false, inactive: false })).toEqual(['AMBOS', 'MAYOR'])
  expect(await skus({ wholesale: false, inactive: false })).toEqual(['AMBOS', 'DETAL'])
  expect(await skus({ noStock: false })).toEqual(['DETAL', 'MAYOR', 'NINGUNO'])
  expect(await skus({ wholesale: false, retail: false })).toEqual(['NINGUNO'])
  expect(await skus({ wholesale: false, retail: false, inactive: false })).toEqual([])
  expect(await skus({ q: 'zqx-gen-may' })).toEqual(['MAYOR'])
  expect(await skus({ q: '%' })).toEqual([])
  // Found by the fuzz suite: a NUL made PostgreSQL refuse the query (a 500 on the grid).
  expect(await skus({ q: 'zqx-gen-may\u0000' })).toEqual(['MAYOR'])

  const mayor = (await listInventory(t.reads, { ...DEFAULT_INVENTORY_FILTERS, q: 'ZQX-GEN-MAYOR' })).items[0]!
  expect(mayor).toMatchObject({ stock: 5, reserved: 2, available: 3 })
  expect(mayor.locations).toEqual([{ code: 'P1-C1-A1-E1-X1-Y1-Z1', stock: 5 }])
  expect(mayor.image?.src).toMatch(/^\/media\//)

  const first = await listInventory(t.reads, { ...DEFAULT_INVENTORY_FILTERS, q: 'zqx' }, 0, 3)
  expect(first.items).toHaveLength(3)
  expect(first.hasMore).toBe(true)
  const rest = await listInventory(t.reads, { ...DEFAULT_INVENTORY_FILTERS, q: 'zqx' }, 3, 3)
  expect(rest.items).toHaveLength(1)
  expect(rest.hasMore).toBe(false)
})

test('the search finds a product by its name too, whatever the case and accents, as the stock forms do', async () => {
  await createProduct(t.db, { sku: 'COL-GEN-NOMBRE01', name: 'Collar Corazón Dorado' })
  await createProduct(t.db, { sku: 'ANI-GEN-NOMBRE02', name: 'Anillo Luna' })
  const found = async (q: string) =>
    (await listInventory(t.reads, { ...DEFAULT_INVENTORY_FILTERS, q })).items.map((item) => item.sku).sort()
  expect(await found('corazon')).toEqual(['COL-GEN-NOMBRE01'])
  expect(await found('CORAZÓN dor')).toEqual(['COL-GEN-NOMBRE01'])
  expect(await found('luna')).toEqual(['ANI-GEN-NOMBRE02'])
  // The SKU, any case, as before.
  expect(await found('ani-gen-nombre')).toEqual(['ANI-GEN-NOMBRE02'])
  expect(await found('NOMBRE0')).toEqual(['ANI-GEN-NOMBRE02', 'COL-GEN-NOMBRE01'])
  expect(await found('pulsera')).toEqual([])
})
