import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { products } from '#app/modules/catalog/schema.ts'
import { pageViews } from '#app/modules/analytics/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { storefrontVersion } from './schema.ts'
import { readStorefrontVersion } from './storefront-version.server.ts'

const t = setupTestDatabase()

test('a transaction that changes storefront rows bumps the counter once, at its commit', async () => {
  const category = await createCategory(t.db)
  const a = await createProduct(t.db, { categoryIds: [category.id] })
  const b = await createProduct(t.db)
  const before = await readStorefrontVersion(t.database.executeSql)
  await t.db.transaction(async (tx) => {
    await tx.update(products).set({ priceLevel1: 1_000_00 }).where(eq(products.sku, a.sku))
    await tx.update(products).set({ priceLevel1: 2_000_00 }).where(eq(products.sku, b.sku))
    // Deferred: nothing is bumped (or locked) before the commit.
    const [inside] = await tx.select({ version: storefrontVersion.version }).from(storefrontVersion)
    expect(inside?.version).toBe(before)
  })
  expect(await readStorefrontVersion(t.database.executeSql)).toBe(before + 1)
})

test('a rolled-back change leaves the counter alone', async () => {
  const product = await createProduct(t.db)
  const before = await readStorefrontVersion(t.database.executeSql)
  await expect(
    t.db.transaction(async (tx) => {
      await tx.update(products).set({ name: 'Otro nombre' }).where(eq(products.sku, product.sku))
      throw new Error('deshacer')
    }),
  ).rejects.toThrow('deshacer')
  expect(await readStorefrontVersion(t.database.executeSql)).toBe(before)
})

test('a checkout reservation bumps it; writes the storefront does not read do not', async () => {
  const product = await stockedProduct(t.db, 3)
  const before = await readStorefrontVersion(t.database.executeSql)
  await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  const afterOrder = await readStorefrontVersion(t.database.executeSql)
  expect(afterOrder).toBe(before + 1)
  await t.db
    .insert(pageViews)
    .values({ month: '2026-11', pageName: 'inicio', visits: 1 })
    .onConflictDoNothing()
  expect(await readStorefrontVersion(t.database.executeSql)).toBe(afterOrder)
})

test('every storefront table carries the deferred trigger', async () => {
  const { rows } = await t.database.executeSql(
    `select c.relname from pg_trigger g join pg_class c on c.oid = g.tgrelid
      where g.tgname like '%_bump_storefront_version' and g.tgdeferrable and g.tginitdeferred
      order by c.relname`,
  )
  expect(rows.map((row) => (row as { relname: string }).relname)).toEqual([
    'banners',
    'categories',
    'media',
    'product_categories',
    'products',
    'promotions',
    'settings',
  ])
})
