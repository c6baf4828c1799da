import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import type { AuthConfig } from '#app/modules/auth/config.server.ts'
import type { Role } from '#app/modules/auth/roles.ts'
import { TEAM_MESSAGES } from '#app/modules/auth/team.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { STOCK_FORM_MESSAGES } from '#app/modules/inventory/validators.ts'
import { getOrder, recordOrderEvent } from '#app/modules/order/order.server.ts'
import { NEW_PROMOTION_VALUES } from '#app/modules/promotions/validators.ts'
import type { Services } from '#app/services.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { addTeamMember, ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { placeTestOrder, stockOf } from '#tests/orders.ts'
import { adminCaller, asAdminRoute, routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import * as dashboard from './dashboard.tsx'
import * as detail from './orders/detail.tsx'
import * as ordersList from './orders/list.tsx'
import * as slips from './orders/slips.tsx'
import * as inventory from './products/inventory.tsx'
import * as promotionForm from './promotions/form.tsx'
import * as promotionList from './promotions/list.tsx'
import * as salesReport from './sales/report.tsx'
import * as salesCsv from './sales/report-csv.ts'
import * as entry from './stock/entry.tsx'
import * as exit from './stock/exit.tsx'
import * as kardex from './stock/kardex.tsx'
import * as kardexCsv from './stock/kardex-csv.ts'
import { ENTRY_WITHOUT_COST_MESSAGE } from './stock/stock-form-answer.server.ts'

/**
 * Issue 27 on the server: each page's loader (and each CSV) leaves out what the role may not see —
 * costs and margins without `costs` (Ventas, Bodega), every money figure without `money` (Bodega,
 * but for what the courier collects on a packing slip) — and the page still reads without them.
 * Bodega's stock movements go at the average cost whatever it posts, and the order desk refuses it
 * anything but shipping.
 */

const BASE = 'http://127.0.0.1:5597'
const LOCATION = 'P1-C1-A1-E1-X1-Y1-Z1'
/** What formatCOP writes before every amount: no page of a role without money may show it. */
const PESOS = '$\u00a0'
const t = setupTestDatabase()
let services: Services
const sessions = {} as Record<Role, Awaited<ReturnType<typeof signedInAs>>>

beforeAll(async () => {
  const config: AuthConfig = testAuthConfig(BASE)
  services = testServices({ database: t.database, auth: config })
  sessions.owner = await signedInAs(t.db, config, ADMIN_EMAIL)
  for (const role of ['sales', 'warehouse'] as const) {
    const email = `${role}@vitrina.test`
    await addTeamMember(t.db, email, role)
    sessions[role] = await signedInAs(t.db, config, email)
  }
})

/** Loaders and actions as a member of `role`, behind the admin middleware. */
const as = (role: Role) => adminCaller(BASE, () => ({ services, admin: sessions[role] }))
const owner = as('owner')
const sales = as('sales')
const warehouse = as('warehouse')

type Page = { loader: (args: never) => Promise<unknown>; default: unknown }

/** The page's HTML as `role` gets it: its loader behind the middleware, then its component. */
async function renderAs(role: Role, page: Page, path: string, params: Record<string, string> = {}) {
  const request = new Request(`${BASE}${path}`, { headers: { Cookie: sessions[role].cookie } })
  const loaderData = await asAdminRoute(page.loader, { request, params, context: routeContext(services) })
  const Stub = createRoutesStub([
    {
      id: 'page',
      path: new URL(path, BASE).pathname,
      Component: page.default as ComponentType,
      loader: () => loaderData,
    },
  ])
  return renderToString(
    createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { page: loaderData } } }),
  )
}

/** What a route threw or answered (a redirect is thrown). */
async function outcome(run: () => Promise<unknown>) {
  try {
    return await run()
  } catch (thrown) {
    return thrown
  }
}

const csvText = async (answer: unknown) => (answer as Response).text()
const headerOf = (csv: string) => csv.replace(/^\uFEFF/, '').split('\r\n')[0]!

/** A product stocked by the owner's entry: 10 units at $ 12.345,67 each, sold at $ 98.765. */
async function costedProduct(name: string) {
  const product = await createProduct(t.db, { name, stock: 0, cost: 0, pesos: 98_765, locations: {} })
  const entered = await owner(
    entry.action,
    '/admin/productos/entrada',
    {},
    {
      sku: product.sku,
      quantity: '10',
      unitPrice: '12345.67',
      location: LOCATION,
      receipt: 'F-777',
      note: 'Compra',
    },
  )
  expect(entered).toMatchObject({ ok: true })
  return product
}
const COST = 12_345_67

describe('the inventory, the home page and the kardex', () => {
  let sku = ''
  beforeAll(async () => {
    sku = (await costedProduct('Collar Ámbar')).sku
  })

  test('home: the value at cost for the owner, at the price levels also for Ventas, units for all', async () => {
    const totals = async (call: typeof owner) => (await call(dashboard.loader, '/admin')).totals
    expect(Object.keys(await totals(owner)).sort()).toEqual([
      'costValue',
      'level1Value',
      'level5Value',
      'units',
    ])
    expect(Object.keys(await totals(sales)).sort()).toEqual(['level1Value', 'level5Value', 'units'])
    expect(Object.keys(await totals(warehouse))).toEqual(['units'])

    const forWarehouse = await renderAs('warehouse', dashboard, '/admin')
    expect(forWarehouse).toContain('Unidades en stock')
    expect(forWarehouse).not.toContain('Inventario a')
    expect(forWarehouse).not.toContain(PESOS)
    const forSales = await renderAs('sales', dashboard, '/admin')
    expect(forSales).toContain('Inventario a precio nivel 1')
    expect(forSales).not.toContain('Inventario a costo')

    // The failed background tasks (notices, channel syncs) are the owner's to review and dismiss.
    expect((await owner(dashboard.loader, '/admin')).failedJobs).not.toBeNull()
    expect((await sales(dashboard.loader, '/admin')).failedJobs).toBeNull()
    expect(forWarehouse).not.toContain('Tareas fallidas')
    const dismissed = await warehouse(dashboard.action, '/admin', {}, { intent: 'revisada', jobId: 'x' })
    expect(dismissed).toMatchObject({ status: 403, ok: false })
  })

  test('inventory cards: cost for the owner, price with money, neither for Bodega; only the owner deletes', async () => {
    const card = async (call: typeof owner) =>
      (await call(inventory.loader, '/admin/productos')).items.find((item) => item.sku === sku)!
    expect(await card(owner)).toMatchObject({ cost: COST, priceLevel1: 98_765_00, stock: 10 })
    const forSales = await card(sales)
    expect(forSales).toMatchObject({ priceLevel1: 98_765_00, stock: 10 })
    expect(forSales).not.toHaveProperty('cost')
    const forWarehouse = await card(warehouse)
    expect(forWarehouse).toMatchObject({ stock: 10, available: 10 })
    expect(forWarehouse).not.toHaveProperty('cost')
    expect(forWarehouse).not.toHaveProperty('priceLevel1')

    const warehousePage = await renderAs('warehouse', inventory, '/admin/productos')
    expect(warehousePage).toContain(sku)
    expect(warehousePage).not.toContain(PESOS)
    expect(warehousePage).not.toContain('data-testid="inventory-cost"')
    expect(warehousePage).not.toContain('data-testid="inventory-price"')
    expect(warehousePage).toContain('data-testid="inventory-entry"')
    expect(warehousePage).not.toContain('Eliminar')
    const salesPage = await renderAs('sales', inventory, '/admin/productos')
    expect(salesPage).toContain('data-testid="inventory-price"')
    expect(salesPage).not.toContain('data-testid="inventory-cost"')
    expect(salesPage).not.toContain('data-testid="inventory-entry"')

    for (const call of [sales, warehouse]) {
      expect(
        await call(inventory.action, '/admin/productos?index', {}, { intent: 'eliminar', sku }),
      ).toMatchObject({ ok: false, status: 403, message: TEAM_MESSAGES.forbiddenAction })
    }
    expect(await t.db.$count(products, eq(products.sku, sku))).toBe(1)
  })

  test('kardex and its CSV: unit prices, totals and average costs for the owner only', async () => {
    const path = `/admin/productos/movimientos/${sku}`
    const ownerPage = await owner(kardex.loader, path, { sku })
    expect(ownerPage.kardex?.product.cost).toBe(COST)
    expect(ownerPage.kardex?.rows).toMatchObject([
      { quantity: 10, unitPrice: COST, total: 10 * COST, averageCostAfter: COST, receipt: 'F-777' },
    ])
    for (const call of [sales, warehouse]) {
      const page = await call(kardex.loader, path, { sku })
      expect(page.kardex?.product).not.toHaveProperty('cost')
      const [row] = page.kardex!.rows
      expect(row).toMatchObject({
        quantity: 10,
        stockAfter: 10,
        location: LOCATION,
        receipt: 'F-777',
        note: 'Compra',
      })
      expect(row).not.toHaveProperty('unitPrice')
      expect(row).not.toHaveProperty('total')
      expect(row).not.toHaveProperty('averageCostAfter')
      expect(JSON.stringify(page)).not.toContain(String(COST))
    }
    const html = await renderAs('warehouse', kardex, path, { sku })
    expect(html).toContain('F-777')
    expect(html).not.toContain(PESOS)
    expect(html).not.toContain('Costo promedio')
    expect(html).not.toContain('Precio unitario')
    // Bodega may enter and take out stock, not edit the product.
    expect(html).toContain(`href="/admin/productos/entrada?sku=${sku}"`)
    expect(html).not.toContain('Editar producto')

    const csvPath = `${path}/csv`
    const ownerCsv = await csvText(await owner(kardexCsv.loader, csvPath, { sku }))
    expect(headerOf(ownerCsv)).toContain('Precio unitario')
    expect(ownerCsv).toContain('12345,67')
    for (const call of [sales, warehouse]) {
      const csv = await csvText(await call(kardexCsv.loader, csvPath, { sku }))
      expect(headerOf(csv)).toBe(
        headerOf(ownerCsv).replace(/;Precio unitario;Total|;Costo promedio después/g, ''),
      )
      expect(csv).toContain('F-777')
      expect(csv).not.toContain('12345,67')
      expect(csv).not.toContain('123456,70')
    }
  })
})

describe("Bodega's entries and exits go at the average cost, whatever it posts", () => {
  test('the form asks Bodega for no price, and shows it no cost', async () => {
    const { sku } = await costedProduct('Aretes Coral')
    const ownerPage = await owner(entry.loader, `/admin/productos/entrada?sku=${sku}`)
    expect(ownerPage).toMatchObject({ costs: true, product: { cost: COST } })
    const page = await warehouse(exit.loader, `/admin/productos/salida?sku=${sku}`)
    expect(page).toMatchObject({ costs: false, product: { sku, stock: 10 } })
    expect(page.product).not.toHaveProperty('cost')
    for (const [form, path] of [
      [entry, '/admin/productos/entrada'],
      [exit, '/admin/productos/salida'],
    ] as const) {
      const html = await renderAs('warehouse', form, `${path}?sku=${sku}`)
      expect(html).toContain('al costo promedio del producto')
      expect(html).not.toContain('name="unitPrice"')
      expect(html).not.toContain('Editar Precio')
      expect(html).not.toContain(PESOS)
    }
    const ownerHtml = await renderAs('owner', entry, `/admin/productos/entrada?sku=${sku}`)
    expect(ownerHtml).toContain('name="unitPrice"')
  })

  test('a posted price is ignored: the entry and the exit leave the average cost where it was', async () => {
    const { sku } = await costedProduct('Pulsera Jade')
    const entered = await warehouse(
      entry.action,
      '/admin/productos/entrada',
      {},
      { sku, quantity: '5', unitPrice: '1', location: LOCATION, receipt: 'B-1', note: '' },
    )
    expect(entered).toMatchObject({ ok: true, message: STOCK_FORM_MESSAGES.entrySaved })
    const taken = await warehouse(
      exit.action,
      '/admin/productos/salida',
      {},
      {
        sku,
        quantity: '3',
        editPrice: 'on',
        unitPrice: '99999',
        location: LOCATION,
        receipt: 'B-2',
        note: '',
      },
    )
    expect(taken).toMatchObject({ ok: true, message: STOCK_FORM_MESSAGES.exitSaved })
    const { ledger } = await stockOf(t.db, sku)
    expect(
      ledger.map((row) => [row.type, row.quantity, row.unitPrice, row.averageCostAfter, row.createdBy]),
    ).toEqual([
      ['in', 10, COST, COST, ADMIN_EMAIL],
      ['in', 5, COST, COST, 'warehouse@vitrina.test'],
      ['out', 3, COST, COST, 'warehouse@vitrina.test'],
    ])
    const [row] = await t.db
      .select({ cost: products.cost, stock: products.stock })
      .from(products)
      .where(eq(products.sku, sku))
    expect(row).toEqual({ cost: COST, stock: 12 })

    // A refused form shows again what was typed, but no price (there is no such field for Bodega).
    expect(
      await warehouse(
        entry.action,
        '/admin/productos/entrada',
        {},
        { sku, quantity: '', unitPrice: '5000', location: LOCATION, receipt: 'B-3', note: '' },
      ),
    ).toMatchObject({ ok: false, status: 400, values: { unitPrice: '', receipt: 'B-3' } })
  })

  test('a product without a cost yet still takes Bodega’s entry, at $ 0, and says the owner must cost it', async () => {
    const product = await createProduct(t.db, { stock: 0, cost: 0, locations: {} })
    const entered = await warehouse(
      entry.action,
      '/admin/productos/entrada',
      {},
      { sku: product.sku, quantity: '4', unitPrice: '7000', location: LOCATION, receipt: '', note: '' },
    )
    expect(entered).toMatchObject({ ok: true, message: ENTRY_WITHOUT_COST_MESSAGE })
    const { stock, ledger } = await stockOf(t.db, product.sku)
    expect(stock).toBe(4)
    expect(ledger).toMatchObject([{ type: 'in', quantity: 4, unitPrice: 0, averageCostAfter: 0 }])
  })
})

describe('the order desk', () => {
  let order: Awaited<ReturnType<typeof placeTestOrder>>
  let path = ''
  let sku = ''
  beforeAll(async () => {
    sku = (await costedProduct('Anillo Ópalo')).sku
    order = await placeTestOrder(t.db, { sku, quantity: 2, phone: '3005550101' })
    path = `/admin/pedidos/detalle/${order.id}`
  })

  test('the list: totals only with money', async () => {
    const row = async (call: typeof owner) =>
      (await call(ordersList.loader, '/admin/pedidos')).items.find((item) => item.id === order.id)!
    expect(await row(owner)).toMatchObject({ total: order.total })
    expect(await row(sales)).toMatchObject({ total: order.total })
    const forWarehouse = await row(warehouse)
    expect(forWarehouse).toMatchObject({ number: order.number, paymentMethod: 'acordar' })
    expect(forWarehouse).not.toHaveProperty('total')
    const html = await renderAs('warehouse', ordersList, '/admin/pedidos')
    expect(html).toContain(`#${order.number}`)
    expect(html).not.toContain(PESOS)
    expect(html).not.toMatch(/>Total</)
    expect(await renderAs('sales', ordersList, '/admin/pedidos')).toContain(formatCOP(order.total))
  })

  test('the detail for Bodega: what to pack and where it goes, without a single money figure', async () => {
    const page = await warehouse(detail.loader, path, { id: order.id })
    expect(page.can).toEqual({ money: false, costs: false, orders: false })
    for (const field of [
      'subtotal',
      'shippingCost',
      'discount',
      'total',
      'discounts',
      'appliedDiscounts',
      'paymentId',
      'paymentStatus',
      'paymentPreferenceId',
    ]) {
      expect(page.order, field).not.toHaveProperty(field)
    }
    expect(page.order.items).toEqual([
      expect.objectContaining({ productSku: sku, title: 'Anillo Ópalo', quantity: 2 }),
    ])
    for (const field of ['unitPrice', 'discount', 'net', 'discounts']) {
      expect(page.order.items[0], field).not.toHaveProperty(field)
    }
    expect(page.order).toMatchObject({ customerName: 'Luis', customerAddress: 'Carrera 7 # 8-9' })
    expect(page).toMatchObject({
      payments: [],
      receipt: null,
      invoicing: { invoice: null, creditNote: null, canIssue: false },
      whatsAppUrl: null,
      shippedWhatsAppUrl: null,
    })
    const json = JSON.stringify(page)
    expect(json).not.toContain(String(order.total))
    expect(json).not.toContain(PESOS)

    const html = await renderAs('warehouse', detail, path, { id: order.id })
    expect(html).toContain('Anillo Ópalo')
    expect(html).toContain(sku)
    expect(html).toContain('2 unidades')
    expect(html).toContain('Marcar como Enviado')
    expect(html).not.toContain(PESOS)
    expect(html).not.toContain('Marcar como pagado')
    expect(html).not.toContain('Motivo de la cancelación')
    expect(html).not.toContain('Factura electrónica')
    expect(html).not.toContain('Pago y envío')

    // Ventas sees the money (it sells), the owner too.
    const forSales = await sales(detail.loader, path, { id: order.id })
    expect(forSales.order).toMatchObject({ total: order.total })
    expect(forSales.whatsAppUrl).toMatch(/^https:\/\/wa\.me\//)
    expect(await renderAs('sales', detail, path, { id: order.id })).toContain(formatCOP(order.total))
  })

  test('Bodega may only ship: every other intent is a 403 that changes nothing', async () => {
    const before = await getOrder(t.db, order.id)
    for (const intent of [
      'pagado',
      'confirmar',
      'completar',
      'cancelar',
      'reclamo-aceptar',
      'reclamo-rechazar',
      'reembolsar',
      'factura-emitir',
      'municipio',
      'lo-que-sea',
    ]) {
      expect(
        await warehouse(detail.action, path, { id: order.id }, { intent, reason: 'no', claimId: '1' }),
        intent,
      ).toMatchObject({ ok: false, status: 403, message: TEAM_MESSAGES.forbiddenAction })
    }
    expect(await getOrder(t.db, order.id)).toEqual(before)
    // Ventas works the desk as before.
    expect(await sales(detail.action, path, { id: order.id }, { intent: 'confirmar' })).toMatchObject({
      ok: true,
    })

    expect(
      await warehouse(
        detail.action,
        path,
        { id: order.id },
        { intent: 'enviar', carrier: 'Interrapidísimo', trackingNumber: '700' },
      ),
    ).toMatchObject({ ok: true })
    expect((await getOrder(t.db, order.id))?.shippedAt).not.toBeNull()
  })

  test('once shipped: the exits’ average cost for the owner only; Bodega’s slip keeps what to collect', async () => {
    // Timeline messages that name amounts (a guía's price, a refund) lose them for Bodega.
    await recordOrderEvent(
      t.db,
      order.id,
      'shipment-bought',
      `Guía 700 generada con Envia (${formatCOP(12_000_00)}).`,
    )
    await recordOrderEvent(
      t.db,
      order.id,
      'refund-requested',
      `Reembolso pedido a Wompi: ${formatCOP(-1_234_00)} (pago w-1).`,
    )
    const forOwner = await owner(detail.loader, path, { id: order.id })
    expect(forOwner.order.movements).toEqual([
      expect.objectContaining({ type: 'out', quantity: 2, unitPrice: COST }),
    ])
    expect(forOwner.order.events.find((event) => event.type === 'shipped')).toHaveProperty('data')
    for (const call of [sales, warehouse]) {
      const page = await call(detail.loader, path, { id: order.id })
      expect(page.order.movements).toEqual([expect.objectContaining({ type: 'out', quantity: 2, sku })])
      expect(page.order.movements[0]).not.toHaveProperty('unitPrice')
      for (const event of page.order.events) expect(event).not.toHaveProperty('data')
      expect(JSON.stringify(page)).not.toContain(String(COST))
    }
    const messages = async (call: typeof owner) =>
      (await call(detail.loader, path, { id: order.id })).order.events.map((event) => event.message).slice(-2)
    expect(await messages(warehouse)).toEqual([
      'Guía 700 generada con Envia.',
      'Reembolso pedido a Wompi: (monto oculto) (pago w-1).',
    ])
    expect(await messages(sales)).toEqual([
      `Guía 700 generada con Envia (${formatCOP(12_000_00)}).`,
      `Reembolso pedido a Wompi: ${formatCOP(-1_234_00)} (pago w-1).`,
    ])
    const html = await renderAs('warehouse', detail, path, { id: order.id })
    expect(html).toContain('Movimientos de inventario')
    expect(html).not.toContain(PESOS)
    // Nothing left for Bodega to do: no actions section.
    expect(html).not.toContain('data-testid="order-actions"')

    const slipPath = `/admin/pedidos/guia/${order.id}`
    const [slip] = (await warehouse(slips.loader, slipPath, { id: order.id })).slips
    expect(slip).toMatchObject({ toCollect: order.total, items: [{ sku, quantity: 2 }] })
    expect(slip).not.toHaveProperty('total')
    expect((await owner(slips.loader, slipPath, { id: order.id })).slips[0]).toMatchObject({
      total: order.total,
    })
    const slipHtml = await renderAs('warehouse', slips, slipPath, { id: order.id })
    expect(slipHtml).toContain(formatCOP(order.total))
  })
})

describe('Ventas and Descuentos: revenue for Ventas, costs and margins for the owner', () => {
  const COST_FIGURES = [
    'exitCost',
    'margin',
    'estimatedCost',
    'estimatedRevenue',
    'estimatedMargin',
    'unknownCostUnits',
  ]

  beforeAll(async () => {
    const { sku } = await costedProduct('Broche Perla')
    await placeTestOrder(t.db, { sku, quantity: 1, phone: '3005550202' })
  })

  test('the report and its CSV', async () => {
    const ownerReport = (await owner(salesReport.loader, '/admin/ventas')).report!
    expect(ownerReport.totals).toMatchObject({
      margin: expect.any(Number),
      estimatedMargin: expect.any(Number),
    })
    const report = (await sales(salesReport.loader, '/admin/ventas')).report!
    expect(report.totals.revenue).toBe(ownerReport.totals.revenue)
    expect(report.totals.revenue).toBeGreaterThan(0)
    expect(report.totals).toMatchObject({
      units: ownerReport.totals.units,
      discount: ownerReport.totals.discount,
    })
    for (const figures of [
      report.totals,
      ...report.days,
      ...report.months,
      ...report.paymentMethods,
      ...report.departments,
    ]) {
      for (const figure of COST_FIGURES) expect(figures).not.toHaveProperty(figure)
    }
    const html = await renderAs('sales', salesReport, '/admin/ventas')
    expect(html).toContain(formatCOP(report.totals.revenue))
    expect(html).not.toContain('Margen')
    expect(await renderAs('owner', salesReport, '/admin/ventas')).toContain('Margen bruto')

    const ownerCsv = await csvText(await owner(salesCsv.loader, '/admin/ventas/csv'))
    expect(headerOf(ownerCsv)).toContain('Margen bruto')
    const csv = await csvText(await sales(salesCsv.loader, '/admin/ventas/csv'))
    expect(headerOf(csv)).toBe(
      'Periodo;Fecha;Pedidos;Unidades;Ventas;Envío cobrado;Descuentos;Descuentos en envío;Ticket promedio;Pedidos enviados;Ventas enviadas;Pedidos sin enviar;Ventas sin enviar',
    )
    expect(csv.split('\r\n').length).toBe(ownerCsv.split('\r\n').length)
  })

  test('the promotions list: its margin for the owner only', async () => {
    const form = new FormData()
    for (const [name, value] of Object.entries({
      ...NEW_PROMOTION_VALUES,
      name: 'Bienvenida',
      code: 'hola10',
    })) {
      if (typeof value === 'string') form.set(name, value)
      else if (value === true) form.set(name, 'on')
    }
    await outcome(() => owner(promotionForm.action, '/admin/descuentos/nueva', {}, form))
    const [forOwner] = (await owner(promotionList.loader, '/admin/descuentos')).promotions
    expect(forOwner).toMatchObject({ name: 'Bienvenida', margin: 0, revenue: 0 })
    const [forSales] = (await sales(promotionList.loader, '/admin/descuentos')).promotions
    expect(forSales).toMatchObject({ name: 'Bienvenida', revenue: 0 })
    expect(forSales).not.toHaveProperty('margin')
    const html = await renderAs('sales', promotionList, '/admin/descuentos')
    expect(html).toContain('Bienvenida')
    expect(html).not.toContain('Margen')
    expect(await renderAs('owner', promotionList, '/admin/descuentos')).toContain('Margen')
  })
})
