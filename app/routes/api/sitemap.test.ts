import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { products } from '#app/modules/catalog/schema.ts'
import { saveSeoSettings } from '#app/modules/settings/seo-settings.server.ts'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import { loader } from './sitemap.ts'

const t = setupTestDatabase()
let services: Services

beforeAll(() => {
  services = testServices({
    database: t.database,
    env: parseEnv({ PUBLIC_URL: 'https://tienda.example.co' }),
  })
})

const sitemap = async () => (await loader({ context: routeContext(services) } as never)).text()
const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])

const seoForm = (products: boolean, categories: boolean) => ({
  seoSitemapProducts: products ? 'on' : '',
  seoSitemapCategories: categories ? 'on' : '',
  seoRobotsExtra: '',
  seoGoogleVerification: '',
})

test('the sitemap lists visible products and categories at their canonical URLs under PUBLIC_URL', async () => {
  const category = await createCategory(t.db, { name: 'Mapa Ñandú' })
  const product = await createProduct(t.db, { name: 'Collar Mapa', pesos: 50000, categoryIds: [category.id] })
  const renamed = await createProduct(t.db, { name: 'Aretes Sol', pesos: 30000, categoryIds: [category.id] })
  await t.db.update(products).set({ slug: 'aretes-de-sol' }).where(eq(products.sku, renamed.sku))
  const found = locations(await sitemap())
  expect(found).toContain('https://tienda.example.co/')
  // No slug saved: the one from the name; a saved one wins.
  expect(found).toContain(`https://tienda.example.co/producto/${product.sku}/collar-mapa`)
  expect(found).toContain(`https://tienda.example.co/producto/${renamed.sku}/aretes-de-sol`)
  expect(found).toContain(`https://tienda.example.co/categoria/${category.id}/mapa-nandu`)
})

test('"SEO" leaves products or categories out of the sitemap; the home page stays', async () => {
  const category = await createCategory(t.db, { name: 'Fuera' })
  const product = await createProduct(t.db, {
    name: 'Collar Fuera',
    pesos: 50000,
    categoryIds: [category.id],
  })
  await saveSeoSettings(t.db, seoForm(false, true), 'dueno@example.co')
  let found = locations(await sitemap())
  expect(found).toContain('https://tienda.example.co/')
  expect(found.some((loc) => loc?.includes('/producto/'))).toBe(false)
  expect(found).toContain(`https://tienda.example.co/categoria/${category.id}/fuera`)

  await saveSeoSettings(t.db, seoForm(true, false), 'dueno@example.co')
  found = locations(await sitemap())
  expect(found).toContain(`https://tienda.example.co/producto/${product.sku}/collar-fuera`)
  expect(found.some((loc) => loc?.includes('/categoria/'))).toBe(false)
  await saveSeoSettings(t.db, seoForm(true, true), 'dueno@example.co')
})
