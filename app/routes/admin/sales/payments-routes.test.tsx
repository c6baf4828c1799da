import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { and, eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import type { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { SALES_REPORT_MESSAGES } from '#app/modules/order/sales-report.ts'
import { orders } from '#app/modules/order/schema.ts'
import { recordLedgerPayment, type LedgerPayment } from '#app/modules/payment/ledger.server.ts'
import { PAYMENT_FLAG_MESSAGES, PAYMENTS_MESSAGES } from '#app/modules/payment/reconciliation.ts'
import { payments } from '#app/modules/payment/schema.ts'
import type { Services } from '#app/services.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { placeTestOrder } from '#tests/orders.ts'
import { testServices } from '#tests/services.ts'
import { adminCaller, asAdminRoute, routeContext } from '#tests/routes.ts'
import * as csvRoute from './payments-csv.ts'
import * as page from './payments.tsx'

/**
 * The "Pagos" routes on a real database (requireAdmin itself is walked for every admin route in
 * ../admin-routes.test.ts): the list with its flags, the refund button's post, the CSV.
 */

const BASE = 'http://127.0.0.1:5561'
const t = setupTestDatabase()
let services: Services
let admin: Awaited<ReturnType<typeof signedInAs>>
let twice: { id: string; number: number }

beforeAll(async () => {
  const config = testAuthConfig(BASE)
  services = testServices({ database: t.database, auth: config })
  admin = await signedInAs(t.db, config, ADMIN_EMAIL)

  const product = await createProduct(t.db, { pesos: 45000, stock: 5 })
  twice = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  await t.db
    .update(orders)
    .set({ status: 'pagado', paymentId: 'mp-1', paymentMethod: 'mercadopago' })
    .where(eq(orders.id, twice.id))
  const ledger = async (payment: Omit<LedgerPayment, 'orderId'>, at: string) => {
    await recordLedgerPayment(t.db, { ...payment, orderId: twice.id })
    await t.db
      .update(payments)
      .set({ createdAt: new Date(at), updatedAt: new Date(at) })
      .where(
        and(
          eq(payments.provider, payment.provider),
          eq(payments.providerPaymentId, payment.providerPaymentId),
        ),
      )
  }
  const paid = { status: 'approved', amount: 4_500_000, method: 'credit_card', fee: 150_000 }
  await ledger({ ...paid, provider: 'mercadopago', providerPaymentId: 'mp-1' }, '2033-05-10T15:00:00Z')
  await ledger({ ...paid, provider: 'mercadopago', providerPaymentId: 'mp-2' }, '2033-05-10T15:10:00Z')
})

const call = adminCaller(BASE, () => ({ services, admin }))

function args(path: string) {
  const request = new Request(`${BASE}${path}`, { headers: { Cookie: admin.cookie } })
  return { request, url: new URL(request.url), params: {}, context: routeContext(services) } as never
}

type PageData = Awaited<ReturnType<typeof page.loader>>
type Wrapped = { type?: unknown; data?: object; init?: ResponseInit | null }
async function load(path: string) {
  const answer = (await asAdminRoute(page.loader, args(path))) as unknown as Wrapped
  if (answer?.type === 'DataWithResponseInit')
    return { data: answer.data as PageData, status: answer.init?.status }
  return { data: answer as PageData, status: 200 }
}

function render(loaderData: unknown, path: string, actionData?: unknown) {
  const Page = page.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: '/admin/ventas/pagos', Component: Page, loader: () => loaderData },
  ])
  return renderToString(
    <Stub
      initialEntries={[path]}
      hydrationData={{
        loaderData: { page: loaderData },
        actionData: actionData ? { page: actionData } : undefined,
      }}
    />,
  )
}

const MAY = '/admin/ventas/pagos?desde=2033-05-01&hasta=2033-05-31'

test('the page lists the payments with their order, money and flag, and offers the refund', async () => {
  const { data, status } = await load(MAY)
  expect(status).toBe(200)
  const html = render(data, MAY)
  expect(html).toContain('<h1 id="payments-title" class="text-2xl font-semibold">Pagos</h1>')
  for (const column of ['Fecha', 'Pedido', 'Proveedor', 'Medio', 'Estado', 'Monto', 'Comisión', 'Neto'])
    expect(html).toContain(`>${column}</th>`)
  expect(html).toContain(`href="/admin/pedidos/detalle/${twice.id}"`)
  expect(html).toContain(`#<!-- -->${twice.number}`)
  expect(html).toContain('Tarjeta de crédito')
  expect(html).toContain('Aprobado')
  expect(html).toContain(formatCOP(4_350_000))
  expect(html).toContain(PAYMENT_FLAG_MESSAGES['paid-twice'])
  // One flag (mp-2, the payment the order does not follow), with its button.
  expect(html.match(/data-testid="payment-flag"/g)).toHaveLength(1)
  expect(html).toContain('name="paymentId" value="mp-2"')
  expect(html).toContain('>Reembolsar</button>')
  expect(html).toContain('href="/admin/ventas/pagos/csv?desde=2033-05-01&amp;hasta=2033-05-31"')
})

test('an empty range says so; a reversed one is a Spanish message (400), never a 500', async () => {
  const empty = '/admin/ventas/pagos?desde=2034-01-01&hasta=2034-01-31&proveedor=wompi'
  const { data } = await load(empty)
  const html = render(data, empty)
  expect(html).toContain(PAYMENTS_MESSAGES.empty)
  expect(html).toContain(
    'href="/admin/ventas/pagos/csv?desde=2034-01-01&amp;hasta=2034-01-31&amp;proveedor=wompi"',
  )

  const reversed = '/admin/ventas/pagos?desde=2033-06-01&hasta=2033-05-01'
  const answer = await load(reversed)
  expect(answer.status).toBe(400)
  expect(answer.data).toMatchObject({ list: null, message: SALES_REPORT_MESSAGES.rangeReversed })
  expect(render(answer.data, reversed)).toContain('no puede ser posterior')
  const csv = await asAdminRoute(
    csvRoute.loader,
    args('/admin/ventas/pagos/csv?desde=2033-06-01&hasta=2033-05-01'),
  )
  expect(csv.status).toBe(400)
  expect(await csv.text()).toBe(SALES_REPORT_MESSAGES.rangeReversed)

  // Dates nobody can read are the month so far, not an error.
  expect((await load('/admin/ventas/pagos?desde=ayer&hasta=2033-13-45')).status).toBe(200)
})

test('"Reembolsar" starts the refund once, answered in Spanish; a repeat or a bad post is refused', async () => {
  const jobs = services.jobs as ReturnType<typeof recordingJobQueue>
  const form = { intent: 'reembolsar', provider: 'mercadopago', paymentId: 'mp-2' }
  const done = await call(page.action, MAY, {}, form)
  expect(done).toMatchObject({
    ok: true,
    message: `Reembolso pedido a Mercado Pago: ${formatCOP(4_500_000)} del pedido #${twice.number}. El resultado quedará en el pedido.`,
  })
  expect(jobs.sent.filter((job) => job.name === 'payment-refund')).toEqual([
    {
      name: 'payment-refund',
      data: { provider: 'mercadopago', paymentId: 'mp-2', orderId: twice.id, by: ADMIN_EMAIL },
    },
  ])

  const again = await call(page.action, MAY, {}, form)
  expect(again).toMatchObject({
    ok: false,
    status: 409,
    message: PAYMENTS_MESSAGES.alreadyStarted('requested'),
  })
  const kept = await call(page.action, MAY, {}, { ...form, paymentId: 'mp-1' })
  expect(kept).toMatchObject({ ok: false, status: 409, message: PAYMENTS_MESSAGES.notFlagged })
  const bad = await call(page.action, MAY, {}, { ...form, provider: 'transferencia' })
  expect(bad).toMatchObject({ ok: false, status: 400, message: PAYMENTS_MESSAGES.badRefund })
  expect(jobs.sent.filter((job) => job.name === 'payment-refund')).toHaveLength(1)

  // The page now says the refund is asked for, without the button.
  const { data } = await load(MAY)
  const html = render(data, MAY, done)
  expect(html).toContain('Reembolso pedido</span>')
  expect(html).not.toContain('>Reembolsar</button>')
  expect(html).toContain('data-testid="form-message"')
})

test('the CSV downloads with its range and provider in the file name', async () => {
  const answer = await asAdminRoute(
    csvRoute.loader,
    args('/admin/ventas/pagos/csv?desde=2033-05-01&hasta=2033-05-31&proveedor=mercadopago'),
  )
  expect(answer.status).toBe(200)
  expect(answer.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
  expect(answer.headers.get('Content-Disposition')).toBe(
    'attachment; filename="pagos-mercadopago-2033-05-01_a_2033-05-31.csv"',
  )
  const text = await answer.text()
  expect(text).toContain(
    `;${twice.number};pagado;Mercado Pago;mp-2;Tarjeta de crédito;Aprobado;45000,00;1500,00;43500,00;`,
  )
})

test('the "Ventas" report links to the payments of its range', async () => {
  const report = await import('./report.tsx')
  const path = '/admin/ventas?desde=2033-05-01&hasta=2033-05-31'
  const answer = (await asAdminRoute(report.loader, args(path))) as unknown
  const Page = report.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: '/admin/ventas', Component: Page, loader: () => answer },
  ])
  const html = renderToString(
    <Stub initialEntries={[path]} hydrationData={{ loaderData: { page: answer } }} />,
  )
  expect(html).toContain('href="/admin/ventas/pagos?desde=2033-05-01&amp;hasta=2033-05-31"')
})
