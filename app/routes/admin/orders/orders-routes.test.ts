import { randomUUID } from 'node:crypto'
import { beforeAll, expect, test } from 'vitest'
import { MUNICIPALITY_MESSAGES } from '#app/modules/order/delivery-place.ts'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { markOrderPaid } from '#app/modules/order/mark-paid.server.ts'
import { recordLedgerPayment } from '#app/modules/payment/ledger.server.ts'
import { PAYMENTS_MESSAGES } from '#app/modules/payment/reconciliation.ts'
import type { Services } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createOrder } from '#tests/factories.ts'
import { placeDiscountedOrder } from '#tests/discounted-orders.ts'
import { placeTestOrder, stockedProduct, stockOf } from '#tests/orders.ts'
import { testServices } from '#tests/services.ts'
import { adminCaller } from '#tests/routes.ts'
import * as dashboard from '../dashboard.tsx'
import * as detail from './detail.tsx'
import * as list from './list.tsx'
import * as slips from './slips.tsx'

/** The desk's thin routes on a real database: bad ids are 404s (never 500s), refusals are words. */

const BASE = 'http://127.0.0.1:5557'
const t = setupTestDatabase()
let services: Services
let admin: Awaited<ReturnType<typeof signedInAs>>

beforeAll(async () => {
  const config = testAuthConfig(BASE)
  services = testServices({ database: t.database, auth: config })
  admin = await signedInAs(t.db, config, ADMIN_EMAIL)
})

const call = adminCaller(BASE, () => ({ services, admin }))

/** What a loader threw, as `{ status, message }`. */
async function thrownBy(run: () => Promise<unknown>) {
  try {
    await run()
  } catch (thrown) {
    const wrapped = thrown as { data?: { message?: string }; init?: ResponseInit | null }
    return { status: wrapped.init?.status, message: wrapped.data?.message }
  }
  throw new Error('no lanzó nada')
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000'
const notFound = { status: 404, message: 'Pedido no encontrado.' }

test('unknown or malformed ids are "Pedido no encontrado." with 404, never a 500', async () => {
  for (const id of ['prueba', "1' or 1=1", UNKNOWN, 'a\u0000b']) {
    expect(await thrownBy(() => call(detail.loader, `/admin/pedidos/detalle/x`, { id }))).toEqual(notFound)
    expect(await thrownBy(() => call(slips.loader, `/admin/pedidos/guia/x`, { id }))).toEqual(notFound)
    expect(await call(detail.action, `/admin/pedidos/detalle/x`, { id }, { intent: 'pagado' })).toMatchObject(
      {
        ok: false,
        ...notFound,
      },
    )
  }
  expect(await thrownBy(() => call(slips.loader, `/admin/pedidos/guias?id=nada&id=${UNKNOWN}`))).toEqual(
    notFound,
  )
  expect(await thrownBy(() => call(slips.loader, `/admin/pedidos/guias`))).toMatchObject({ status: 400 })
})

test('the detail page acts on the order: each change by the admin, refusals worded, nothing half-done', async () => {
  const product = await stockedProduct(t.db, 5)
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, phone: '3007770000' })
  const path = `/admin/pedidos/detalle/${order.id}`
  const act = (fields: Record<string, string>) => call(detail.action, path, { id: order.id }, fields)

  const page = await call(detail.loader, path, { id: order.id })
  expect(page.order.number).toBe(order.number)
  expect(page.whatsAppUrl).toMatch(/^https:\/\/wa\.me\/573007770000\?text=/)
  expect(page.release).toMatch(/^Se libera en 4[78] h$/)

  expect(await act({ intent: 'borrar' })).toMatchObject({
    ok: false,
    status: 400,
    message: ORDER_DESK_MESSAGES.unknownAction,
  })
  expect(await act({ intent: 'cancelar', reason: ' ' })).toMatchObject({
    ok: false,
    status: 400,
    message: ORDER_DESK_MESSAGES.reasonRequired,
  })
  expect(await act({ intent: 'confirmar' })).toMatchObject({
    ok: true,
    message: ORDER_DESK_MESSAGES.confirmed,
  })
  expect((await call(detail.loader, path, { id: order.id })).whatsAppUrl).toBeNull()
  expect(await act({ intent: 'pagado' })).toMatchObject({ ok: true, message: ORDER_DESK_MESSAGES.paid })
  expect(await act({ intent: 'pagado' })).toMatchObject({
    ok: false,
    status: 409,
    message: 'No se puede cambiar el estado del pedido de "pagado" a "pagado".',
  })
  expect(await act({ intent: 'enviar', carrier: 'Coordinadora', trackingNumber: 'G-77' })).toMatchObject({
    ok: true,
    message: ORDER_DESK_MESSAGES.shipped,
  })
  expect(await act({ intent: 'completar' })).toMatchObject({
    ok: true,
    message: ORDER_DESK_MESSAGES.completed,
  })
  expect(await act({ intent: 'cancelar', reason: 'tarde' })).toMatchObject({ ok: false, status: 409 })

  expect(await getOrder(t.db, order.id)).toMatchObject({
    status: 'Completado',
    carrier: 'Coordinadora',
    trackingNumber: 'G-77',
    reservationHeld: false,
  })
  expect(await stockOf(t.db, product.sku)).toMatchObject({ stock: 3, reserved: 0 })
  const events = await listOrderEvents(t.db, order.id)
  expect(events.filter((e) => e.createdBy === ADMIN_EMAIL).map((e) => e.type)).toEqual([
    'confirmed',
    'paid',
    'shipped',
    'completed',
  ])

  const slip = await call(slips.loader, `/admin/pedidos/guia/${order.id}`, { id: order.id })
  expect(slip.slips).toHaveLength(1)
  expect(slip.slips[0]).toMatchObject({ number: order.number, toCollect: 0 })
})

test('"municipio": the owner picks the DANE municipality of an order without one, refusals worded', async () => {
  // As an order placed before the checkout asked for it, or imported, keeps it: the typed city only.
  const order = await createOrder(t.db, {
    id: randomUUID(),
    customerCity: 'Bucaramanga',
    customerDepartment: 'Santander',
    customerDepartmentCode: '68',
  })
  const path = `/admin/pedidos/detalle/${order.id}`
  const act = (fields: Record<string, string>) => call(detail.action, path, { id: order.id }, fields)

  const before = await call(detail.loader, path, { id: order.id })
  expect(before.order.place).toMatchObject({ municipalityCode: null, suggestedMunicipalityCode: '68001' })
  expect(before.order.municipalityChoices.map((group) => group.departmentCode)).toEqual(['68'])

  for (const code of ['', '99999', 'Bucaramanga']) {
    expect(await act({ intent: 'municipio', municipality_code: code })).toMatchObject({
      ok: false,
      status: 400,
      message: MUNICIPALITY_MESSAGES.choose,
    })
  }
  expect(await act({ intent: 'municipio' })).toMatchObject({
    ok: false,
    message: MUNICIPALITY_MESSAGES.choose,
  })
  expect(await act({ intent: 'municipio', municipality_code: '68001' })).toMatchObject({
    ok: true,
    message: MUNICIPALITY_MESSAGES.saved,
  })
  expect(await getOrder(t.db, order.id)).toMatchObject({
    customerMunicipalityCode: '68001',
    customerDepartmentCode: '68',
    customerDepartment: 'Santander',
    customerCity: 'Bucaramanga',
  })
  const events = await listOrderEvents(t.db, order.id)
  expect(events.at(-1)).toMatchObject({
    type: 'municipality-set',
    message: 'Municipio asignado: Bucaramanga, Santander (68001).',
    createdBy: ADMIN_EMAIL,
  })

  const after = await call(detail.loader, path, { id: order.id })
  expect(after.order.place).toMatchObject({ municipalityName: 'Bucaramanga', typedCity: null })
  expect(after.order.municipalityChoices).toEqual([])
  const slip = await call(slips.loader, `/admin/pedidos/guia/${order.id}`, { id: order.id })
  expect(slip.slips[0]?.place).toMatchObject({ municipalityName: 'Bucaramanga', departmentName: 'Santander' })

  const unknown = '00000000-0000-4000-8000-000000000000'
  expect(
    await call(
      detail.action,
      `/admin/pedidos/detalle/${unknown}`,
      { id: unknown },
      {
        intent: 'municipio',
        municipality_code: '68001',
      },
    ),
  ).toMatchObject({ ok: false, status: 404, message: ORDER_DESK_MESSAGES.notFound })
})

test('the list reads its view from the path or the filter; junk filters and pages fall back', async () => {
  const product = await stockedProduct(t.db, 5)
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone: '3008880000' })
  const pending = await call(list.loader, '/admin/pedidos/pendientes?ver=cancelados')
  expect(pending.view).toBe('pendientes')
  expect((await call(list.loader, '/admin/pedidos/pagados')).view).toBe('pagados')
  const junk = await call(list.loader, '/admin/pedidos?ver=hackeo&pagina=-3&q=3008880000')
  expect(junk).toMatchObject({ view: 'abiertos', page: 1, total: 1 })
  expect(junk.items[0]).toMatchObject({
    number: order.number,
    release: expect.stringMatching(/^Se libera en 4[78] h$/),
  })
  const toConfirm = await call(list.loader, '/admin/pedidos?ver=por-confirmar&q=3008880000')
  expect(toConfirm.items.map((item) => item.number)).toEqual([order.number])

  const home = await call(dashboard.loader, '/admin')
  expect(home.orders.toConfirm).toBeGreaterThanOrEqual(1)
})

test('an order paid twice: the desk lists both payments, flags the second and starts its refund once', async () => {
  const product = await stockedProduct(t.db, 5)
  const order = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 1,
    phone: '3007770011',
    paymentMethod: 'wompi',
  })
  const path = `/admin/pedidos/detalle/${order.id}`
  await t.db.transaction(async (tx) => {
    await markOrderPaid(tx, order.id, { id: 'w-1', status: 'approved' }, services.jobs, 'Wompi')
    for (const id of ['w-1', 'w-2']) {
      await recordLedgerPayment(tx, {
        provider: 'wompi',
        providerPaymentId: id,
        orderId: order.id,
        method: 'CARD',
        status: 'approved',
        amount: order.total,
      })
    }
  })
  const page = await call(detail.loader, path, { id: order.id })
  expect(
    page.payments
      .map((row: { providerPaymentId: string; flag: string | null }) => [row.providerPaymentId, row.flag])
      .sort(),
  ).toEqual([
    ['w-1', null],
    ['w-2', 'paid-twice'],
  ])
  const refund = (paymentId: string) =>
    call(detail.action, path, { id: order.id }, { intent: 'reembolsar', provider: 'wompi', paymentId })
  expect(await refund('w-1')).toMatchObject({ ok: false, status: 409, message: PAYMENTS_MESSAGES.notFlagged })
  // From another order's page, this order's payment is not found.
  const other = await placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone: '3007770012' })
  expect(
    await call(
      detail.action,
      `/admin/pedidos/detalle/${other.id}`,
      { id: other.id },
      { intent: 'reembolsar', provider: 'wompi', paymentId: 'w-2' },
    ),
  ).toMatchObject({ ok: false, status: 404 })
  expect(await refund('w-2')).toMatchObject({ ok: true })
  expect(await refund('w-2')).toMatchObject({ ok: false, status: 409 })
  expect(
    await call(
      detail.action,
      path,
      { id: order.id },
      { intent: 'reembolsar', provider: 'otro', paymentId: 'w-2' },
    ),
  ).toMatchObject({ ok: false, status: 400, message: PAYMENTS_MESSAGES.badRefund })
  const events = await listOrderEvents(t.db, order.id)
  expect(events.filter((event) => event.type === 'refund-requested')).toHaveLength(1)
})

test('an order with promotions: the desk shows each line’s discount and net, the discount rows, the discounted total', async () => {
  const order = await placeDiscountedOrder(t.db, { phone: '3007770101' })
  const path = `/admin/pedidos/detalle/${order.id}`
  const page = await call(detail.loader, path, { id: order.id })
  const lines = Object.fromEntries(page.order.items.map((item) => [item.title, item]))
  expect(lines['Collar Luna']).toMatchObject({
    net: 81_000_00,
    discounts: [{ name: 'Black Friday', amount: 9_000_00 }],
  })
  expect(lines['Aretes Sol']).toMatchObject({
    net: 18_000_00,
    discounts: [{ name: 'Cupón de Laura (LAURA10)', amount: 2_000_00 }],
  })
  // Lines and shipping together, one row per promotion.
  expect(page.order.discounts).toEqual([
    { name: 'Black Friday', amount: 9_000_00 },
    { name: 'Cupón de Laura (LAURA10)', amount: 7_000_00 },
  ])
  expect(page.order).toMatchObject({ subtotal: 110_000_00, shippingCost: 12_000_00, total: 106_000_00 })
  // The WhatsApp confirmation names the discounts and asks for the discounted total.
  const text = new URL(page.whatsAppUrl!).searchParams.get('text')!
  expect(text).toContain('Descuento Black Friday: -$\u00a09.000,00')
  expect(text).toContain('Descuento Cupón de Laura (LAURA10): -$\u00a07.000,00')
  expect(text).toContain('Total a pagar contra entrega: $\u00a0106.000,00')
  // The packing slip collects the discounted total.
  const slip = await call(slips.loader, `/admin/pedidos/guia/${order.id}`, { id: order.id })
  expect(slip.slips[0]).toMatchObject({ total: 106_000_00, toCollect: 106_000_00 })
})
