import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, beforeEach, expect, test, vi } from 'vitest'
import { monthOf, recordClick, recordPageView } from '#app/modules/analytics/analytics.server.ts'
import { clickCounts, pageViews } from '#app/modules/analytics/schema.ts'
import type { Services } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { testServices } from '#tests/services.ts'
import { routeContext } from '#tests/routes.ts'
import { REPORT_ROWS } from '#app/modules/analytics/validators.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { monthLabel } from '#app/utils/spanish-dates.ts'
import Reports, { duration, loader, pageLabels } from './reports.tsx'

/** /admin/reportes: one month's clicks and page views, the current month unless another is chosen. */

const BASE = 'http://127.0.0.1:5572'
const t = setupTestDatabase()
let services: Services
const config = testAuthConfig(BASE)
let cookie = ''

beforeAll(async () => {
  services = testServices({ database: t.database, auth: config })
  ;({ cookie } = await signedInAs(t.db, config, ADMIN_EMAIL))
})
beforeEach(async () => {
  await t.db.delete(clickCounts)
  await t.db.delete(pageViews)
})

const load = (query = '') =>
  loader({
    request: new Request(`${BASE}/admin/reportes${query}`, { headers: { Cookie: cookie } }),
    url: new URL(`${BASE}/admin/reportes${query}`),
    params: {},
    context: routeContext(services),
  } as never)

test('shows the current month by default and lists every month with data', async () => {
  await recordClick(t.db, 'whatsapp')
  await recordClick(t.db, 'whatsapp', new Date('2025-03-10T15:00:00Z'))
  await recordPageView(t.db, { pageName: '/', seconds: 10, newVisit: true })
  await recordPageView(t.db, { pageName: '/', seconds: 5, newVisit: true })

  const current = await load()
  expect(current.month).toBe(monthOf())
  expect(current.months).toEqual([monthOf(), '2025-03'])
  expect(current.clicks).toEqual([{ elementName: 'whatsapp', clickCount: 1 }])
  expect(current.pages).toEqual([{ pageName: '/', visits: 2, totalTimeSeconds: 15, averageSeconds: 8 }])

  const march = await load('?mes=2025-03')
  expect(march.clicks).toEqual([{ elementName: 'whatsapp', clickCount: 1 }])
  expect(march.pages).toEqual([])
})

test('a month that is not YYYY-MM falls back to the current one', async () => {
  expect((await load('?mes=2025-13')).month).toBe(monthOf())
  expect((await load('?mes=marzo')).month).toBe(monthOf())
})

test('month names and durations in Spanish', () => {
  expect(monthLabel('2026-11')).toBe('noviembre de 2026')
  expect(duration(42)).toBe('42 s')
  expect(duration(65)).toBe('1 min 05 s')
})

function render(loaderData: unknown) {
  const Page = Reports as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: '/admin/reportes', Component: Page, loader: () => loaderData },
  ])
  return renderToString(
    <Stub initialEntries={['/admin/reportes']} hydrationData={{ loaderData: { page: loaderData } }} />,
  )
}

test('lists the biggest rows with a note on the rest; numbers written by hand, not by ICU', async () => {
  const now = new Date()
  for (let i = 0; i < REPORT_ROWS + 3; i++)
    await recordPageView(
      t.db,
      { pageName: `/producto/P-${String(i).padStart(3, '0')}`, seconds: 1, newVisit: true },
      now,
    )
  await recordClick(t.db, 'whatsapp', now)
  await t.db.update(clickCounts).set({ clickCount: 1234 })
  const data = await load()
  expect(data.pages).toHaveLength(REPORT_ROWS)
  expect(data.morePages).toBe(3)
  expect(data.moreClicks).toBe(0)

  // Node's and the browser's ICU may group "1234" differently: the page must not ask them.
  const toLocaleString = vi.spyOn(Number.prototype, 'toLocaleString')
  const html = render(data)
  expect(toLocaleString).not.toHaveBeenCalled()
  toLocaleString.mockRestore()
  expect(html).toContain('1.234')
  expect(html).toContain(`Se muestran las ${REPORT_ROWS} páginas con más actividad; hay 3 más con menos.`)
})

test('product and category pages show the name, with the path (SKU or id) smaller; a deleted one its path', async () => {
  const now = new Date()
  const category = await createCategory(t.db, { name: 'Aretes de plata' })
  const product = await createProduct(t.db, { name: 'Arete Gota Azul', categoryIds: [category.id] })
  for (const pageName of [`/producto/${product.sku}`, `/categoria/${category.id}`, '/producto/BORRADO-1'])
    await recordPageView(t.db, { pageName, seconds: 4, newVisit: true }, now)
  const data = await load()
  const html = render(data)
  // The table: the name, then the key under it in small type.
  expect(html).toContain(
    `<span class="block [overflow-wrap:anywhere]" data-testid="page-title">Arete Gota Azul</span><span class="block text-xs text-gray-600" data-testid="page-key">/producto/<wbr/><span class="whitespace-nowrap">${product.sku}</span></span>`,
  )
  expect(html).toContain(
    `<span class="block [overflow-wrap:anywhere]" data-testid="page-title">Aretes de plata</span><span class="block text-xs text-gray-600" data-testid="page-key">/categoria/<wbr/><span class="whitespace-nowrap">${category.id}</span></span>`,
  )
  // The bar list reads by name too.
  expect(html).toContain('title="Arete Gota Azul"')
  expect(html).toContain('title="Aretes de plata"')
  // A product no longer in the catalogue keeps its path, with no name.
  expect(html).toContain('<span class="break-all">/producto/BORRADO-1</span>')
  expect(html).toContain('title="/producto/BORRADO-1"')
})

test('two pages of the same name add their path to the bar label', () => {
  expect(
    pageLabels([
      { pageName: '/producto/A-1', title: 'Collar' },
      { pageName: '/producto/A-2', title: 'Collar' },
      { pageName: '/categoria/C-1', title: 'Aretes' },
      { pageName: '/' },
    ]),
  ).toEqual(['Collar (/producto/A-1)', 'Collar (/producto/A-2)', 'Aretes', '/'])
})
