import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, expect, test } from 'vitest'
import { categories } from '#app/modules/catalog/schema.ts'
import { CATEGORY_MESSAGES, PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import type { Services } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createOrder, createProduct as createFixtureProduct } from '#tests/factories.ts'
import { testServices } from '#tests/services.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import * as categoryList from './categories/list.tsx'
import * as createProduct from './products/create.tsx'
import * as inventory from './products/inventory.tsx'
import * as orderList from './orders/list.tsx'

/**
 * Admin pages rendered on the server as React Router does: each route's real loader on a
 * real (empty) database, then its component with that data.
 */

const BASE = 'http://127.0.0.1:5557'
const t = setupTestDatabase()
let services: Services
let cookie = ''

beforeAll(async () => {
  const config = testAuthConfig(BASE)
  services = testServices({ database: t.database, auth: config })
  cookie = (await signedInAs(t.db, config, ADMIN_EMAIL)).cookie
})

type PageModule = {
  loader: (args: never) => Promise<unknown>
  default: (props: never) => React.ReactNode
}

/** The HTML of one admin page: its loader runs against the test database, then it renders. */
async function renderPage(page: PageModule, path: string) {
  const request = new Request(`${BASE}${path}`, { headers: { Cookie: cookie } })
  const loaderData = await asAdminRoute(page.loader, {
    request,
    url: new URL(request.url),
    params: {},
    context: routeContext(services),
  })
  const Page = page.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: new URL(path, BASE).pathname, Component: Page, loader: () => loaderData },
  ])
  return renderToString(<Stub initialEntries={[path]} hydrationData={{ loaderData: { page: loaderData } }} />)
}

test('with no categories, the list and the product form say "No hay categorías disponibles."', async () => {
  expect(await t.db.select().from(categories)).toEqual([])
  const list = await renderPage(categoryList as never, '/admin/categorias')
  expect(list).toContain('data-testid="categories-empty"')
  expect(list).toContain('No hay categorías disponibles.')
  expect(CATEGORY_MESSAGES.empty).toBe('No hay categorías disponibles.')

  const form = await renderPage(createProduct as never, '/admin/productos/crear')
  expect(form).toContain('data-testid="product-form"')
  expect(form).toMatch(/data-testid="categories-empty"[^>]*>No hay categorías disponibles\.</)
  expect(form).not.toContain('name="categoryIds"')
})

test('once a category exists, neither page shows the empty text', async () => {
  await t.db.insert(categories).values({ id: 'Categoria_1700000000009', name: 'Collares' })
  const list = await renderPage(categoryList as never, '/admin/categorias')
  expect(list).not.toContain('No hay categorías disponibles.')
  expect(list).toContain('Collares')
  // The internal id is the edit link's, never text the owner reads.
  expect(list).not.toContain('>Categoria_1700000000009<')
  const form = await renderPage(createProduct as never, '/admin/productos/crear')
  expect(form).not.toContain('No hay categorías disponibles.')
  expect(form).toContain('value="Categoria_1700000000009"')
})

test('the inventory grid is rendered on the server with its cards, not "Cargando productos..."', async () => {
  const product = await createFixtureProduct(t.db, { name: 'Collar Servidor', stock: 0 })
  const html = await renderPage(inventory as never, '/admin/productos')
  expect(html).toContain('data-testid="inventory-grid"')
  expect(html).toContain(`data-sku="${product.sku}"`)
  expect(html).toContain('Collar Servidor')
  expect(html).not.toContain(PRODUCT_MESSAGES.loading)

  // Filters in the address are applied on the server too; nothing found reads the spec text.
  const none = await renderPage(inventory as never, '/admin/productos?q=no-existe-zzz')
  expect(none).toContain(PRODUCT_MESSAGES.empty)
  expect(none).not.toContain(PRODUCT_MESSAGES.loading)
})

test('the order list’s "Ciudad" is the city, or "—" when the shopper gave none (never the department)', async () => {
  const withCity = await createOrder(t.db, { customerCity: 'Medellín', customerDepartment: 'Antioquia' })
  const withoutCity = await createOrder(t.db, { customerCity: '', customerDepartment: 'Caldas' })
  const html = await renderPage(orderList as never, '/admin/pedidos')
  // The desktop table's row of each order (the phone cards are list items, not rows).
  const rowOf = (number: number) =>
    html
      .split('<tr')
      .slice(1)
      .find((row) => row.includes(`${number}</a>`)) ?? ''
  expect(rowOf(withCity.number)).toContain('<td class="px-3 py-2">Medellín</td>')
  expect(rowOf(withoutCity.number)).toContain('<td class="px-3 py-2">—</td>')
  expect(rowOf(withoutCity.number)).not.toContain('Caldas')
})
