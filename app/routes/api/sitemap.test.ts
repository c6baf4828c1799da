import { beforeAll, expect, test } from 'vitest'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { productPath } from '#app/utils/paths.ts'
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

test('the sitemap lists visible products under the registry’s PUBLIC_URL', async () => {
  const category = await createCategory(t.db, { name: 'Mapa' })
  const product = await createProduct(t.db, { name: 'Collar Mapa', pesos: 50000, categoryIds: [category.id] })
  const body = await (await loader({ context: routeContext(services) } as never)).text()
  expect(body).toContain('<loc>https://tienda.example.co/</loc>')
  expect(body).toContain(`<loc>https://tienda.example.co${productPath(product.sku)}</loc>`)
})
