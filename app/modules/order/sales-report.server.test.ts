import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { recordEntry } from '#app/modules/inventory/movement.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { placeDiscountedOrder } from '#tests/discounted-orders.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { cancelOrderAtDesk } from './cancel.server.ts'
import { completeOrder } from './complete.server.ts'
import { markOrderPaidAtDesk } from './mark-paid.server.ts'
import {
  campaignDetail,
  campaignOrigin,
  SALES_REPORT_MESSAGES,
  salesFiltersFrom,
  salesRangeMessage,
} from './sales-report.ts'
import type { OrderCampaign } from './place.server.ts'
import { readSalesReport, SALES_CSV_COLUMNS, salesReportCsv } from './sales-report.server.ts'
import { orderItems, orders } from './schema.ts'
import { shipOrder } from './ship.server.ts'

/**
 * The "Ventas" report on a real database, orders placed, shipped, completed and cancelled through
 * the order module. Each test reports its own year, so the file's tests do not mix.
 */

const t = setupTestDatabase()
const jobs = recordingJobQueue()
const ADMIN = 'duena@vitrina.test'
const LOCATION = 'P1-C1-A1-E1-X1-Y1-Z1'

type Placed = Awaited<ReturnType<typeof placeTestOrder>>

/** Moves an order to the instant it was "placed" (and optionally to a department). */
async function placedAt(order: Placed, at: string, department?: string) {
  const [row] = await t.db
    .update(orders)
    .set({ createdAt: new Date(at), ...(department ? { customerDepartment: department } : {}) })
    .where(eq(orders.id, order.id))
    .returning({ subtotal: orders.subtotal, shippingCost: orders.shippingCost })
  return row!
}

const costOf = async (sku: string) =>
  (await t.db.select({ cost: products.cost }).from(products).where(eq(products.sku, sku)))[0]!.cost

test('sales per day and month in Bogotá days, margins, splits, best sellers and cash-on-delivery outcomes', async () => {
  const a = await stockedProduct(t.db, 50, 20_000_00)
  const b = await stockedProduct(t.db, 50, 10_000_00)
  const place = (sku: string, quantity: number, paymentMethod: 'acordar' | 'mercadopago' = 'acordar') =>
    placeTestOrder(t.db, { sku, quantity, paymentMethod, phone: '3005559001' })

  const o1 = await place(a.sku, 2) // 23:59 on 28 Feb in Bogotá, not shipped
  const o2 = await place(a.sku, 1) // 00:00 on 1 March, delivered
  const o3 = await place(a.sku, 3, 'mercadopago') // paid and shipped
  const o4 = await place(a.sku, 1) // cancelled before shipping
  const o5 = await place(a.sku, 4) // shipped, refused at the door
  const o6 = await place(a.sku, 1) // 23:59 on 31 March, not shipped
  const o7 = await place(a.sku, 5) // 00:00 on 1 April: after the range
  const o8 = await place(a.sku, 1) // 23:59 on 27 Feb: before the range
  const o9 = await place(b.sku, 6) // Antioquia, not shipped
  const o10 = await place(b.sku, 2, 'mercadopago') // online, payment not confirmed: not a sale yet

  await completeOrder(t.db, jobs, o2.id, ADMIN)
  await markOrderPaidAtDesk(t.db, o3.id, ADMIN)
  await shipOrder(t.db, jobs, o3.id, {}, ADMIN)
  await cancelOrderAtDesk(t.db, jobs, o4.id, 'el cliente desistió', ADMIN)
  await shipOrder(t.db, jobs, o5.id, {}, ADMIN)
  await cancelOrderAtDesk(t.db, jobs, o5.id, 'rechazado en la entrega', ADMIN)
  // A dearer purchase after the shipments: shipped orders keep the cost of their exits, orders not
  // shipped yet are estimated at the new average cost.
  await recordEntry(
    t.db,
    jobs,
    { sku: a.sku, quantity: 10, unitCost: 50_000_00, location: LOCATION, receipt: 'F-2', note: '' },
    ADMIN,
  )
  const costA = await costOf(a.sku)
  expect(costA).toBeGreaterThan(20_000_00)

  const s1 = await placedAt(o1, '2031-03-01T04:59:00Z', 'Antioquia')
  const s2 = await placedAt(o2, '2031-03-01T05:00:00Z')
  const s3 = await placedAt(o3, '2031-03-15T17:00:00Z')
  const s4 = await placedAt(o4, '2031-03-10T15:00:00Z')
  const s5 = await placedAt(o5, '2031-03-20T15:00:00Z')
  const s6 = await placedAt(o6, '2031-04-01T04:59:00Z')
  await placedAt(o7, '2031-04-01T05:00:00Z')
  await placedAt(o8, '2031-02-28T04:59:00Z')
  const s9 = await placedAt(o9, '2031-03-05T15:00:00Z', 'Antioquia')
  const s10 = await placedAt(o10, '2031-03-06T15:00:00Z')

  const report = (await readSalesReport(t.db, { from: '2031-02-28', to: '2031-03-31' }))!
  const revenue = s1.subtotal + s2.subtotal + s3.subtotal + s6.subtotal + s9.subtotal
  const shippedRevenue = s2.subtotal + s3.subtotal
  const pendingRevenue = s1.subtotal + s6.subtotal + s9.subtotal
  const estimatedCost = 3 * costA + 6 * 10_000_00
  expect(report.totals).toEqual({
    orders: 5,
    units: 13,
    revenue,
    shipping: s1.shippingCost + s2.shippingCost + s3.shippingCost + s6.shippingCost + s9.shippingCost,
    discount: 0,
    shippingDiscount: 0,
    averageTicket: Math.round(revenue / 5),
    shippedOrders: 2,
    shippedRevenue,
    exitCost: 4 * 20_000_00,
    margin: shippedRevenue - 4 * 20_000_00,
    pendingOrders: 3,
    pendingRevenue,
    estimatedCost,
    estimatedRevenue: pendingRevenue,
    estimatedMargin: pendingRevenue - estimatedCost,
    unknownCostUnits: 0,
  })
  // The unpaid Mercado Pago order is shown apart, in no sales figure.
  expect(report.unconfirmedOnline).toEqual({ orders: 1, revenue: s10.subtotal })

  // Every day of the range, zeros included; the Bogotá midnights put o1 on 28 Feb and o6 on 31 March.
  expect(report.days).toHaveLength(32)
  const day = (key: string) => report.days.find((row) => row.day === key)!
  expect(day('2031-02-28')).toMatchObject({ orders: 1, units: 2, revenue: s1.subtotal })
  expect(day('2031-03-01')).toMatchObject({ orders: 1, units: 1, revenue: s2.subtotal, exitCost: 20_000_00 })
  expect(day('2031-03-10')).toMatchObject({ orders: 0, revenue: 0 })
  expect(day('2031-03-15')).toMatchObject({ orders: 1, units: 3, exitCost: 3 * 20_000_00 })
  expect(day('2031-03-31')).toMatchObject({ orders: 1, units: 1, estimatedCost: costA })
  expect(report.months.map((row) => [row.month, row.orders, row.units, row.revenue])).toEqual([
    ['2031-02', 1, 2, s1.subtotal],
    ['2031-03', 4, 11, revenue - s1.subtotal],
  ])
  expect(report.chartBy).toBe('day')

  expect(report.paymentMethods.map((row) => [row.label, row.orders, row.revenue])).toEqual([
    ['Contra entrega', 4, revenue - s3.subtotal],
    ['Mercado Pago', 1, s3.subtotal],
    ['Wompi', 0, 0],
    ['Transferencia / Bre-B', 0, 0],
  ])
  expect(report.departments.map((row) => [row.department, row.orders, row.units]).sort()).toEqual([
    ['Antioquia', 2, 8],
    ['Bogotá D.C.', 3, 5],
  ])

  const [unitPriceA, unitPriceB] = [s2.subtotal, s9.subtotal / 6]
  expect(report.bestSellers).toEqual([
    { sku: a.sku, title: a.name, units: 7, revenue: 7 * unitPriceA },
    { sku: b.sku, title: b.name, units: 6, revenue: 6 * unitPriceB },
  ])
  // Cancelled orders are not sales: counted apart, with what they were worth.
  expect(report.cancelled).toEqual({ orders: 2, revenue: s4.subtotal + s5.subtotal })
  expect(report.cashOnDelivery).toEqual({ delivered: 1, cancelled: 1, refused: 1, open: 3 })

  // One day: only the order placed before Bogotá's midnight of 1 March.
  const lastOfFebruary = (await readSalesReport(t.db, { from: '2031-02-28', to: '2031-02-28' }))!
  expect(lastOfFebruary.totals).toMatchObject({ orders: 1, units: 2 })
  expect(lastOfFebruary.bestSellers).toEqual([{ sku: a.sku, title: a.name, units: 2, revenue: s1.subtotal }])
})

test('an empty range answers zeros; long ranges are drawn by month; refused ranges answer null', async () => {
  const empty = (await readSalesReport(t.db, { from: '2040-01-01', to: '2040-12-31' }))!
  expect(empty.totals).toMatchObject({ orders: 0, revenue: 0, averageTicket: 0, margin: 0 })
  expect(empty.months).toHaveLength(12)
  expect(empty.chartBy).toBe('month')
  expect(empty.paymentMethods.map((row) => row.orders)).toEqual([0, 0, 0, 0])
  expect(empty.departments).toEqual([])
  expect(empty.campaigns).toEqual([])
  expect(empty.bestSellers).toEqual([])
  expect(empty.cashOnDelivery).toEqual({ delivered: 0, cancelled: 0, refused: 0, open: 0 })

  expect(await readSalesReport(t.db, { from: '2040-02-01', to: '2040-01-31' })).toBeNull()
  expect(await readSalesReport(t.db, { from: '2038-01-01', to: '2040-12-31' })).toBeNull()
  expect(await salesReportCsv(t.db, { from: '2040-02-01', to: '2040-01-31' })).toBeNull()
})

test('the filters: the current Bogotá month by default, unreadable days ignored, Spanish refusals', () => {
  // 00:30 on 1 December in UTC is still 30 November in Bogotá.
  const now = new Date('2026-12-01T00:30:00Z')
  expect(salesFiltersFrom(new URLSearchParams(), now)).toEqual({ from: '2026-11-01', to: '2026-11-30' })
  expect(salesFiltersFrom(new URLSearchParams('desde=2026-02-30&hasta=mañana'), now)).toEqual({
    from: '2026-11-01',
    to: '2026-11-30',
  })
  expect(salesFiltersFrom(new URLSearchParams('desde=2026-01-15&hasta=2026-02-15'), now)).toEqual({
    from: '2026-01-15',
    to: '2026-02-15',
  })
  expect(salesRangeMessage({ from: '2026-03-01', to: '2026-02-01' })).toBe(
    SALES_REPORT_MESSAGES.rangeReversed,
  )
  expect(salesRangeMessage({ from: '2024-01-01', to: '2026-12-31' })).toMatch(/no puede pasar de 731 días/)
  expect(salesRangeMessage({ from: '2026-01-01', to: '2026-12-31' })).toBeNull()
})

test('the CSV: BOM, ";" and decimal commas, negative margins stay numbers, names stay text', async () => {
  // Sold below cost: a negative margin.
  const product = await createProduct(t.db, { stock: 0, cost: 0, pesos: 1000, name: '=Aretes "rojos"' })
  await recordEntry(
    t.db,
    jobs,
    { sku: product.sku, quantity: 5, unitCost: 2_000_00, location: LOCATION, receipt: 'F-1', note: '' },
    ADMIN,
  )
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, phone: '3005559002' })
  await shipOrder(t.db, jobs, order.id, {}, ADMIN)
  const { subtotal } = await placedAt(order, '2032-06-10T15:00:00Z', '=Cundinamarca')

  const csv = (await salesReportCsv(t.db, { from: '2032-06-09', to: '2032-06-10' }))!
  expect(csv.charCodeAt(0)).toBe(0xfeff)
  const lines = csv.slice(1).split('\r\n')
  expect(lines[0]).toBe(SALES_CSV_COLUMNS.join(';'))
  const zeros = '0;0;0,00;0,00;0,00;0,00;0,00;0;0,00;0,00;0,00;0;0,00;0,00;0,00;0'
  const pesos = (centavos: number) => (centavos / 100).toFixed(2).replace('.', ',')
  const margin = pesos(subtotal - 4_000_00)
  expect(margin.startsWith('-')).toBe(true)
  const figures = `1;2;${pesos(subtotal)};0,00;0,00;0,00;${pesos(subtotal)};1;${pesos(subtotal)};4000,00;${margin};0;0,00;0,00;0,00;0`
  expect(lines.slice(1, -1)).toEqual([
    `Día;2032-06-09;${zeros}`,
    `Día;2032-06-10;${figures}`,
    `Mes;2032-06;${figures}`,
    `Total;2032-06-09 a 2032-06-10;${figures}`,
    `Medio de pago;Contra entrega;${figures}`,
    `Medio de pago;Mercado Pago;${zeros}`,
    `Medio de pago;Wompi;${zeros}`,
    `Medio de pago;Transferencia / Bre-B;${zeros}`,
    // A department typed like a formula stays text.
    `Departamento;'=Cundinamarca;${figures}`,
  ])
  expect(lines.at(-1)).toBe('')
})

test('an online order counts once paid; a deleted product’s units are left out of the estimate, not costed at 0', async () => {
  const kept = await stockedProduct(t.db, 20, 10_000_00)
  const gone = await stockedProduct(t.db, 20, 10_000_00)
  const online = await placeTestOrder(t.db, {
    sku: kept.sku,
    quantity: 1,
    paymentMethod: 'mercadopago',
    phone: '3005559003',
  })
  const mixed = await placeTestOrder(t.db, { sku: gone.sku, quantity: 3, phone: '3005559004' })
  const s1 = await placedAt(online, '2033-05-10T15:00:00Z')
  const s2 = await placedAt(mixed, '2033-05-11T15:00:00Z')
  const range = { from: '2033-05-01', to: '2033-05-31' }

  let report = (await readSalesReport(t.db, range))!
  expect(report.totals).toMatchObject({ orders: 1, revenue: s2.subtotal })
  expect(report.unconfirmedOnline).toEqual({ orders: 1, revenue: s1.subtotal })
  expect(report.bestSellers.map((row) => row.sku)).toEqual([gone.sku])

  await markOrderPaidAtDesk(t.db, online.id, ADMIN)
  report = (await readSalesReport(t.db, range))!
  expect(report.totals).toMatchObject({ orders: 2, revenue: s1.subtotal + s2.subtotal })
  expect(report.unconfirmedOnline).toEqual({ orders: 0, revenue: 0 })

  // The cash-on-delivery order's product is no longer in the catalogue (the store refuses to delete a
  // product with orders, but an imported order can name one that was deleted in the original).
  await t.db.update(orderItems).set({ productSku: 'BORRADO-001' }).where(eq(orderItems.orderId, mixed.id))
  report = (await readSalesReport(t.db, range))!
  const costKept = await costOf(kept.sku)
  expect(report.totals).toMatchObject({
    pendingOrders: 2,
    pendingRevenue: s1.subtotal + s2.subtotal,
    estimatedCost: costKept,
    estimatedRevenue: s1.subtotal,
    estimatedMargin: s1.subtotal - costKept,
    unknownCostUnits: 3,
  })
})

test('orders with promotions: sales net of their discounts, the discounts apart, the margin after them', async () => {
  // Each: 110.000 of products less 11.000 off them, 12.000 of shipping less 5.000; costs 2 × 20.000 + 8.000.
  const shipped = await placeDiscountedOrder(t.db, { phone: '3005559101' })
  await shipOrder(t.db, jobs, shipped.id, {}, ADMIN)
  await placedAt(shipped, '2033-03-10T15:00:00Z')
  const waiting = await placeDiscountedOrder(t.db, { phone: '3005559102' })
  await placedAt(waiting, '2033-03-11T15:00:00Z')

  const report = (await readSalesReport(t.db, { from: '2033-03-01', to: '2033-03-31' }))!
  expect(report.totals).toMatchObject({
    orders: 2,
    units: 6,
    revenue: 198_000_00,
    shipping: 14_000_00,
    discount: 32_000_00,
    shippingDiscount: 10_000_00,
    averageTicket: 99_000_00,
    shippedRevenue: 99_000_00,
    exitCost: 48_000_00,
    margin: 51_000_00,
    pendingRevenue: 99_000_00,
    estimatedRevenue: 99_000_00,
    estimatedCost: 48_000_00,
    estimatedMargin: 51_000_00,
  })
  expect(report.bestSellers).toEqual(
    expect.arrayContaining([
      { sku: shipped.collar.sku, title: 'Collar Luna', units: 2, revenue: 81_000_00 },
      { sku: waiting.aretes.sku, title: 'Aretes Sol', units: 1, revenue: 18_000_00 },
    ]),
  )

  const csv = (await salesReportCsv(t.db, { from: '2033-03-10', to: '2033-03-10' }))!
  const [header, day] = csv.slice(1).split('\r\n')
  const columns = header!.split(';')
  const cells = day!.split(';')
  const cell = (name: string) => cells[columns.indexOf(name)]
  expect(cell('Ventas')).toBe('99000,00')
  expect(cell('Envío cobrado')).toBe('7000,00')
  expect(cell('Descuentos')).toBe('16000,00')
  expect(cell('Descuentos en envío')).toBe('5000,00')
  expect(cell('Margen bruto')).toBe('51000,00')
})

test('sales by campaign: each link’s source, medium and campaign, the referring site, direct visits and the unknown apart', async () => {
  const product = await stockedProduct(t.db, 50, 10_000_00)
  const instagram = {
    source: 'instagram',
    medium: 'social',
    campaign: 'navidad',
    referrerHost: 'l.instagram.com',
  }
  const place = (quantity: number, campaign?: OrderCampaign | null) =>
    placeTestOrder(t.db, { sku: product.sku, quantity, phone: '3005559044', campaign })
  const placed = [
    await place(1, instagram),
    await place(2, instagram),
    await place(1, { source: null, medium: null, campaign: null, referrerHost: 'google.com' }),
    await place(3, { source: null, medium: null, campaign: null, referrerHost: null }),
    await place(1), // no analytics consent: unknown
    await place(5, instagram), // cancelled: no sale
  ]
  for (const order of placed) await placedAt(order, '2041-05-10T15:00:00Z')
  await cancelOrderAtDesk(t.db, jobs, placed[5]!.id, 'el cliente desistió', ADMIN)

  const report = (await readSalesReport(t.db, { from: '2041-05-01', to: '2041-05-31' }))!
  const [line] = await t.db
    .select({ price: orderItems.unitPrice })
    .from(orderItems)
    .where(eq(orderItems.orderId, placed[0]!.id))
  const price = line!.price
  const rows = report.campaigns.map((row) => [
    campaignOrigin(row),
    campaignDetail(row),
    row.orders,
    row.revenue,
  ])
  expect(rows).toEqual([
    ['instagram', 'social · «navidad» · desde l.instagram.com', 2, 3 * price],
    ['Directo (sin enlace de otro sitio)', '', 1, 3 * price],
    ['Enlace desde google.com', '', 1, price],
    ['Sin datos (no aceptó la analítica)', '', 1, price],
  ])
  // Every sale is in exactly one row.
  expect(report.campaigns.reduce((sum, row) => sum + row.revenue, 0)).toBe(report.totals.revenue)
})
