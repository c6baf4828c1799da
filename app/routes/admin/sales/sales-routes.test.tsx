import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { SALES_REPORT_MESSAGES, type SalesFilters } from '#app/modules/order/sales-report.ts'
import type { SalesReport } from '#app/modules/order/sales-report.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { shipOrder } from '#app/modules/order/ship.server.ts'
import type { Services } from '#app/services.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { testServices } from '#tests/services.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import * as csvRoute from './report-csv.ts'
import * as page from './report.tsx'

/**
 * The "Ventas" routes on a real database (requireAdmin itself is walked for every admin route in
 * ../admin-routes.test.ts): the page's figures, a reversed range answered in Spanish, the CSV.
 */

const BASE = 'http://127.0.0.1:5559'
const t = setupTestDatabase()
let services: Services
let cookie = ''

beforeAll(async () => {
  const config = testAuthConfig(BASE)
  services = testServices({ database: t.database, auth: config })
  ;({ cookie } = await signedInAs(t.db, config, ADMIN_EMAIL))
})

function args(path: string) {
  const request = new Request(`${BASE}${path}`, { headers: { Cookie: cookie } })
  return { request, url: new URL(request.url), params: {}, context: routeContext(services) } as never
}

type PageData = { filters: SalesFilters; message: string | null; report: SalesReport | null }
type Wrapped = { type?: unknown; data?: object; init?: ResponseInit | null }
async function load(path: string): Promise<{ data: PageData; status?: number }> {
  const answer = (await asAdminRoute(page.loader, args(path))) as unknown as Wrapped
  if (answer?.type === 'DataWithResponseInit') {
    return { data: answer.data as PageData, status: answer.init?.status }
  }
  return { data: answer as PageData, status: 200 }
}

function render(loaderData: unknown, path: string) {
  const Page = page.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: '/admin/ventas', Component: Page, loader: () => loaderData },
  ])
  return renderToString(<Stub initialEntries={[path]} hydrationData={{ loaderData: { page: loaderData } }} />)
}

test('the page reports the range, says what counts as a sale and links the CSV of the same range', async () => {
  const product = await stockedProduct(t.db, 10, 20_000_00)
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, phone: '3005559101' })
  await shipOrder(t.db, recordingJobQueue(), order.id, {}, 'duena@vitrina.test')
  const [{ subtotal }] = (await t.db
    .update(orders)
    .set({ createdAt: new Date('2033-05-20T15:00:00Z'), customerDepartment: 'Santander' })
    .where(eq(orders.id, order.id))
    .returning({ subtotal: orders.subtotal })) as [{ subtotal: number }]

  const path = '/admin/ventas?desde=2033-05-01&hasta=2033-05-31'
  const { data, status } = await load(path)
  expect(status).toBe(200)
  expect(data.message).toBeNull()
  expect(data.report?.totals).toMatchObject({ orders: 1, units: 2, revenue: subtotal, exitCost: 40_000_00 })
  const html = render(data, path)
  expect(html).toContain(
    'Cuentan como ventas los pedidos no cancelados que son contra entrega o ya están pagados',
  )
  expect(html).toContain('Pagos sin confirmar')
  expect(html).toContain(formatCOP(subtotal - 40_000_00))
  expect(html).toContain('Santander')
  expect(html).toContain(product.name)
  expect(html).toContain('href="/admin/ventas/csv?desde=2033-05-01&amp;hasta=2033-05-31"')

  // The figures come first; how they are counted is folded below them, closed until asked for.
  const figures = html.indexOf('data-testid="sales-summary"')
  const explanation = html.indexOf('<details')
  expect(figures).toBeGreaterThan(0)
  expect(explanation).toBeGreaterThan(figures)
  expect(html.indexOf('Cuentan como ventas')).toBeGreaterThan(explanation)
  expect(html.indexOf('Margen bruto</strong>')).toBeGreaterThan(explanation)
  const details = html.slice(explanation, html.indexOf('</details>') + '</details>'.length)
  expect(details).toMatch(/^<details(?![^>]*\sopen)[^>]*data-testid="sales-explanation"[^>]*>/)
  expect(details).toContain(
    '<summary class="cursor-pointer font-medium text-brand-700">Cómo se cuentan estas cifras</summary>',
  )
  expect(details).toContain('data-testid="sales-rule"')
  expect(details).toContain('data-testid="sales-margin-rule"')
  // Nothing explanatory stands between the title and the figures.
  expect(html.slice(html.indexOf('id="sales-title"'), figures)).not.toMatch(
    /Cuentan como ventas|Margen bruto</,
  )
})

test('a reversed range is a Spanish message (400), for the page and the CSV, never a 500', async () => {
  const path = '/admin/ventas?desde=2033-06-01&hasta=2033-05-01'
  const { data, status } = await load(path)
  expect(status).toBe(400)
  expect(data).toMatchObject({ report: null, message: SALES_REPORT_MESSAGES.rangeReversed })
  expect(render(data, path)).toContain('no puede ser posterior')

  const csv = await asAdminRoute(csvRoute.loader, args('/admin/ventas/csv?desde=2033-06-01&hasta=2033-05-01'))
  expect(csv.status).toBe(400)
  expect(await csv.text()).toBe(SALES_REPORT_MESSAGES.rangeReversed)
})

test('the CSV downloads with its range in the file name', async () => {
  const answer = await asAdminRoute(
    csvRoute.loader,
    args('/admin/ventas/csv?desde=2033-05-01&hasta=2033-05-31'),
  )
  expect(answer.status).toBe(200)
  expect(answer.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
  expect(answer.headers.get('Content-Disposition')).toBe(
    'attachment; filename="ventas-2033-05-01_a_2033-05-31.csv"',
  )
  const text = await answer.text()
  expect(text).toContain('Total;2033-05-01 a 2033-05-31;1;2;')
  expect(text).toContain('Departamento;Santander;1;2;')
})
