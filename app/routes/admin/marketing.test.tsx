import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, expect, test } from 'vitest'
import { LEFT_OUT_REASONS } from '#app/modules/feeds/feeds.ts'
import type { Services } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { adminProductEditPath } from '#app/utils/paths.ts'
import { addTeamMember, ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import Marketing, { loader } from './marketing.tsx'

/**
 * /admin/marketing, "Catálogos": each feed's address, count and left-out products with why, for the
 * owner (the sku opens the product's form) and for Ventas (who may not edit products: no link).
 */

const BASE = 'http://127.0.0.1:5581'
const t = setupTestDatabase()
let services: Services
const cookies = { owner: '', sales: '' }
const skus = { listed: '', noImage: '', wholesale: '' }

beforeAll(async () => {
  const config = testAuthConfig(BASE)
  services = testServices({ database: t.database, auth: config, env: parseEnv({ PUBLIC_URL: BASE }) })
  cookies.owner = (await signedInAs(t.db, config, ADMIN_EMAIL)).cookie
  await addTeamMember(t.db, 'ventas@vitrina.test', 'sales')
  cookies.sales = (await signedInAs(t.db, config, 'ventas@vitrina.test')).cookie
  skus.listed = (await createProduct(t.db, { name: 'Collar Luna' })).sku
  skus.noImage = (await createProduct(t.db, { name: 'Aretes sin foto', withImage: false })).sku
  skus.wholesale = (
    await createProduct(t.db, { name: 'Caja mayorista', showRetail: false, showWholesale: true })
  ).sku
})

async function load(role: keyof typeof cookies) {
  const request = new Request(`${BASE}/admin/marketing`, { headers: { Cookie: cookies[role] } })
  return asAdminRoute(loader, { request, context: routeContext(services) })
}

function render(data: Awaited<ReturnType<typeof load>>): string {
  const Stub = createRoutesStub([
    { id: 'page', path: '/admin/marketing', Component: Marketing as never, loader: () => data },
  ])
  return renderToString(
    <Stub initialEntries={['/admin/marketing']} hydrationData={{ loaderData: { page: data } }} />,
  )
}

test('as the owner: both feeds with their address, count and left-out products linked to their form', async () => {
  const data = await load('owner')
  expect(data.canEditProducts).toBe(true)
  expect(data.feeds.map((feed) => [feed.platform, feed.url, feed.count, feed.leftOutCount])).toEqual([
    ['meta', `${BASE}/catalogo/meta.xml`, 1, 2],
    ['google', `${BASE}/catalogo/google.xml`, 1, 2],
  ])
  // What the owner can fix first, then what is hidden on purpose.
  expect(data.feeds[0]!.leftOut).toEqual([
    { sku: skus.noImage, name: 'Aretes sin foto', reasons: [LEFT_OUT_REASONS.noImage] },
    { sku: skus.wholesale, name: 'Caja mayorista', reasons: [LEFT_OUT_REASONS.wholesale] },
  ])
  expect(data.feeds[0]!.reasons).toEqual([
    { reason: LEFT_OUT_REASONS.noImage, count: 1 },
    { reason: LEFT_OUT_REASONS.wholesale, count: 1 },
  ])

  const html = render(data)
  expect(html).toContain('>Marketing</h1>')
  expect(html).toContain('>Catálogos</h2>')
  expect(html).toContain('Facebook, Instagram y WhatsApp')
  expect(html).toContain('Google Merchant Center')
  // The address in a read-only field: selectable and copyable before (and without) scripts.
  expect(html).toMatch(new RegExp(`<input[^>]*readonly=""[^>]*value="${BASE}/catalogo/meta.xml"`))
  expect(html).toContain(`value="${BASE}/catalogo/google.xml"`)
  expect(html).toContain(`href="${adminProductEditPath(skus.noImage)}"`)
  expect(html).toContain(LEFT_OUT_REASONS.noImage)
  expect(html).toContain('2 productos quedaron por fuera')
  expect(html).toContain('1 producto</span>')
})

test('as Ventas: the same feeds and reasons, the sku without a link to the product form', async () => {
  const data = await load('sales')
  expect(data.canEditProducts).toBe(false)
  expect(data.feeds.map((feed) => feed.leftOutCount)).toEqual([2, 2])
  const html = render(data)
  expect(html).toContain(skus.noImage)
  expect(html).not.toContain('/admin/productos/editar/')
  expect(html).toContain(LEFT_OUT_REASONS.wholesale)
})
