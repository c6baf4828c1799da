import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { stockMovements } from '#app/modules/inventory/schema.ts'
import { knownAverageCostSql } from '#app/modules/inventory/stock.server.ts'
import { bogotaDayRange, daysBetween, monthsBetween } from '#app/utils/bogota-days.ts'
import { csvPesos, spreadsheetCsv, type CsvCell } from '#app/utils/spreadsheet-csv.ts'
import { PAYMENT_METHOD_LABELS } from './messages.ts'
import {
  BEST_SELLERS_LIMIT,
  rangeDays,
  SALES_DAILY_CHART_MAX_DAYS,
  salesRangeMessage,
  type SalesCampaign,
  type SalesFilters,
} from './sales-report.ts'
import { PAYMENT_METHODS, orderItems, orders, type PaymentMethod } from './schema.ts'

/**
 * The "Ventas" report: reads orders, their lines and the stock ledger, writes nothing. Every figure
 * is summed by the database (one pass over the range's orders), never by loading the orders.
 *
 * What counts as a sale (`SALE_RULE` in sales-report.ts): an order not cancelled that is either cash
 * on delivery or paid (`pagado`, `Completado`), on the Bogotá day it was placed. A Mercado Pago order
 * still `pendiente de pago` is not a sale yet: it is shown apart (count and amount) until it is paid
 * or expires. Amounts are the products', net of what promotions and discount codes took off them
 * (the order's subtotal less its lines' discounts): the shipping charged (net of its own discount)
 * is shown apart, since it pays the courier, and the discounts given are summed apart too. Gross margin is only known for orders already shipped: their revenue
 * minus the average cost the ledger recorded on their exits. Orders not shipped yet get an
 * estimated margin at the products' current average cost, shown as an estimate and never added to
 * the real one; units of a product since deleted have no known cost and are left out of the
 * estimate (counted in `unknownCostUnits`) rather than estimated at 0.
 */

export type SalesFigures = {
  orders: number
  units: number
  /** Products sold, net of what promotions took off them (order subtotals less line discounts), centavos. */
  revenue: number
  /** Shipping charged on those orders, net of its discounts, centavos. */
  shipping: number
  /** What promotions and discount codes took off those orders, products and shipping, centavos. */
  discount: number
  /** The part of `discount` taken off the shipping, centavos. */
  shippingDiscount: number
  /** Revenue per order, centavos (0 without orders). */
  averageTicket: number
  shippedOrders: number
  shippedRevenue: number
  /** The average cost on the shipped orders' exits (net of any return), centavos. */
  exitCost: number
  /** shippedRevenue − exitCost. */
  margin: number
  pendingOrders: number
  pendingRevenue: number
  /** Units not shipped yet at their product's current average cost, centavos. */
  estimatedCost: number
  /** What those units (the ones with a known cost) sell for, centavos. */
  estimatedRevenue: number
  /** estimatedRevenue − estimatedCost. */
  estimatedMargin: number
  /** Units not shipped yet whose product was deleted: no cost to estimate them at. */
  unknownCostUnits: number
}

export type SalesReport = {
  filters: SalesFilters
  totals: SalesFigures
  /** One row per day of the range (days without orders as zeros), oldest first. */
  days: (SalesFigures & { day: string; label: string; shortLabel: string })[]
  /** One row per month the range touches, oldest first. */
  months: (SalesFigures & { month: string; label: string; shortLabel: string })[]
  /** Draw the chart by day (short ranges) or by month. */
  chartBy: 'day' | 'month'
  paymentMethods: (SalesFigures & { method: PaymentMethod; label: string })[]
  /** Departments with sales, most revenue first. */
  departments: (SalesFigures & { department: string })[]
  /** Where the orders came from (the shopper's first touch), most revenue first. */
  campaigns: (SalesFigures & SalesCampaign)[]
  bestSellers: { sku: string; title: string; units: number; revenue: number }[]
  /** Orders paid before shipping (online, transfer) placed in the range and still unpaid (not sales yet). */
  unconfirmedOnline: { orders: number; revenue: number }
  /** Orders placed in the range and cancelled since (not in the sales figures). */
  cancelled: { orders: number; revenue: number }
  /** Cash-on-delivery orders placed in the range, by how they ended. */
  cashOnDelivery: { delivered: number; cancelled: number; refused: number; open: number }
}

/**
 * The figures that tell costs and margins (issue 27): only a role that may see costs gets them.
 * What the unshipped units with a known cost sell for (`estimatedRevenue`) goes too: it is only
 * the margin's other half.
 */
export const SALES_COST_FIGURES = [
  'exitCost',
  'margin',
  'estimatedCost',
  'estimatedRevenue',
  'estimatedMargin',
  'unknownCostUnits',
] as const satisfies readonly (keyof SalesFigures)[]
type SalesCostFigure = (typeof SALES_COST_FIGURES)[number]

/** Figures as they leave the server: without the costs and margins for a role that may not see them. */
export type ShownSalesFigures = Omit<SalesFigures, SalesCostFigure> &
  Partial<Pick<SalesFigures, SalesCostFigure>>

/** The report as they leave the server (`salesReportWithoutCosts`). */
export type ShownSalesReport = Omit<
  SalesReport,
  'totals' | 'days' | 'months' | 'paymentMethods' | 'departments' | 'campaigns'
> & {
  totals: ShownSalesFigures
  days: (ShownSalesFigures & { day: string; label: string; shortLabel: string })[]
  months: (ShownSalesFigures & { month: string; label: string; shortLabel: string })[]
  paymentMethods: (ShownSalesFigures & { method: PaymentMethod; label: string })[]
  departments: (ShownSalesFigures & { department: string })[]
  campaigns: (ShownSalesFigures & SalesCampaign)[]
}

function withoutCosts<Row extends SalesFigures>(row: Row): Omit<Row, SalesCostFigure> {
  const copy: Partial<Row> = { ...row }
  for (const figure of SALES_COST_FIGURES) delete copy[figure]
  return copy as Omit<Row, SalesCostFigure>
}

/** The report for a role that may not see costs: revenue, units, discounts and orders stay. */
export function salesReportWithoutCosts(report: SalesReport): ShownSalesReport {
  return {
    ...report,
    totals: withoutCosts(report.totals),
    days: report.days.map(withoutCosts),
    months: report.months.map(withoutCosts),
    paymentMethods: report.paymentMethods.map(withoutCosts),
    departments: report.departments.map(withoutCosts),
    campaigns: report.campaigns.map(withoutCosts),
  }
}

type Grouped = Record<string, unknown>
// Labels are written on the server, so the page hydrates with the very same text.
const dayLabel = new Intl.DateTimeFormat('es-CO', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
})
const monthLabel = new Intl.DateTimeFormat('es-CO', { month: 'short', year: 'numeric', timeZone: 'UTC' })
const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic']
/** Chart labels as short as they can be read at 390 px: "23/11" for a day, "nov 26" for a month. */
const shortDayLabel = (day: string) => `${Number(day.slice(8))}/${Number(day.slice(5, 7))}`
const shortMonthLabel = (month: string) => `${MONTHS[Number(month.slice(5)) - 1]} ${month.slice(2, 4)}`
const atNoon = (day: string) => new Date(`${day}T12:00:00Z`)

const rowsOf = (result: unknown) => (result as { rows: Grouped[] }).rows
const num = (value: unknown) => Number(value ?? 0)

export const EMPTY_FIGURES: SalesFigures = {
  orders: 0,
  units: 0,
  revenue: 0,
  shipping: 0,
  discount: 0,
  shippingDiscount: 0,
  averageTicket: 0,
  shippedOrders: 0,
  shippedRevenue: 0,
  exitCost: 0,
  margin: 0,
  pendingOrders: 0,
  pendingRevenue: 0,
  estimatedCost: 0,
  estimatedRevenue: 0,
  estimatedMargin: 0,
  unknownCostUnits: 0,
}

function figuresOf(row: Grouped | undefined): SalesFigures {
  if (!row) return { ...EMPTY_FIGURES }
  const orderCount = num(row.orders)
  const revenue = num(row.revenue)
  const shippedRevenue = num(row.shipped_revenue)
  const exitCost = num(row.exit_cost)
  const pendingRevenue = num(row.pending_revenue)
  const estimatedCost = num(row.estimated_cost)
  const estimatedRevenue = num(row.estimated_revenue)
  return {
    orders: orderCount,
    units: num(row.units),
    revenue,
    shipping: num(row.shipping),
    discount: num(row.discount),
    shippingDiscount: num(row.shipping_discount),
    averageTicket: orderCount ? Math.round(revenue / orderCount) : 0,
    shippedOrders: num(row.shipped_orders),
    shippedRevenue,
    exitCost,
    margin: shippedRevenue - exitCost,
    pendingOrders: num(row.pending_orders),
    pendingRevenue,
    estimatedCost,
    estimatedRevenue,
    estimatedMargin: estimatedRevenue - estimatedCost,
    unknownCostUnits: num(row.unknown_cost_units),
  }
}

/** `created_at` as a Bogotá day, text YYYY-MM-DD (a fixed −5 h: Colombia has no daylight saving). */
const bogotaDaySql = sql`to_char((${orders.createdAt} at time zone 'UTC') - interval '5 hours', 'YYYY-MM-DD')`

/** SALE_RULE: not cancelled, and cash on delivery or paid (an online payment not confirmed is no sale). */
/** A sale: an order not cancelled, cash on delivery or paid ("Ventas"; the promotions list too). */
export const isSaleSql = sql`(${orders.status} <> 'cancelado' and (${orders.paymentMethod} = 'acordar' or ${orders.status} in ('pagado', 'Completado')))`
/** Paid before shipping (online or by transfer) and not paid yet: no sale until it is. */
const unconfirmedOnlineSql = sql`(${orders.paymentMethod} <> 'acordar' and ${orders.status} = 'pendiente de pago')`

/** The order's products net of what promotions took off its lines. */
const productsNetSql = sql`(${orders.subtotal} - (select coalesce(sum(i.discount), 0) from ${orderItems} i where i.order_id = ${orders.id}))`

function inRange(filters: SalesFilters) {
  const { start, end } = bogotaDayRange(filters)
  return sql`${orders.createdAt} >= ${start!.toISOString()} and ${orders.createdAt} < ${end!.toISOString()}`
}

/** The sales figures grouped by day, month, payment method, department, campaign and overall, in one query. */
async function groupedFigures(db: DbOrTx, filters: SalesFilters) {
  const result = await db.execute(sql`
    with sale as (
      select
        ${bogotaDaySql} as day,
        ${orders.paymentMethod} as payment_method,
        ${orders.customerDepartment} as department,
        ${orders.campaignKnown} as campaign_known,
        ${orders.utmSource} as utm_source,
        ${orders.utmMedium} as utm_medium,
        ${orders.utmCampaign} as utm_campaign,
        ${orders.referrerHost} as referrer_host,
        ${orders.subtotal} - lines.discount as subtotal,
        ${orders.shippingCost} - (${orders.discount} - lines.discount) as shipping,
        ${orders.discount} as discount,
        ${orders.discount} - lines.discount as shipping_discount,
        ${orders.shippedAt} is not null as shipped,
        lines.units,
        case when ${orders.shippedAt} is not null then (
          select coalesce(sum(case m.type when 'out' then m.total when 'in' then -m.total else 0 end), 0)
          from ${stockMovements} m where m.order_id = ${orders.id}
        ) else 0 end as exit_cost,
        coalesce(estimate.cost, 0) as estimated_cost,
        coalesce(estimate.revenue, 0) as estimated_revenue,
        coalesce(estimate.unknown_units, 0) as unknown_cost_units
      from ${orders}
      cross join lateral (
        select coalesce(sum(i.quantity), 0) as units, coalesce(sum(i.discount), 0) as discount
        from ${orderItems} i where i.order_id = ${orders.id}
      ) lines
      left join lateral (
        select
          sum(i.quantity::bigint * known.cost) as cost,
          sum(i.quantity::bigint * i.unit_price - i.discount) filter (where known.cost is not null) as revenue,
          sum(i.quantity) filter (where known.cost is null) as unknown_units
        from ${orderItems} i
        cross join lateral (select ${knownAverageCostSql(sql`i.product_sku`)} as cost) known
        where i.order_id = ${orders.id}
      ) estimate on ${orders.shippedAt} is null
      where ${inRange(filters)} and ${isSaleSql}
    ), keyed as (
      select *, substr(day, 1, 7) as month from sale
    )
    select
      case
        when grouping(day) = 0 then 'day'
        when grouping(month) = 0 then 'month'
        when grouping(payment_method) = 0 then 'payment'
        when grouping(department) = 0 then 'department'
        when grouping(campaign_known) = 0 then 'campaign'
        else 'total'
      end as kind,
      day, month, payment_method, department,
      campaign_known, utm_source, utm_medium, utm_campaign, referrer_host,
      count(*) as orders,
      sum(units) as units,
      sum(subtotal) as revenue,
      sum(shipping) as shipping,
      sum(discount) as discount,
      sum(shipping_discount) as shipping_discount,
      count(*) filter (where shipped) as shipped_orders,
      coalesce(sum(subtotal) filter (where shipped), 0) as shipped_revenue,
      sum(exit_cost) as exit_cost,
      count(*) filter (where not shipped) as pending_orders,
      coalesce(sum(subtotal) filter (where not shipped), 0) as pending_revenue,
      sum(estimated_cost) as estimated_cost,
      sum(estimated_revenue) as estimated_revenue,
      sum(unknown_cost_units) as unknown_cost_units
    from keyed
    group by grouping sets (
      (day), (month), (payment_method), (department),
      (campaign_known, utm_source, utm_medium, utm_campaign, referrer_host), ()
    )
  `)
  return rowsOf(result)
}

async function bestSellers(db: DbOrTx, filters: SalesFilters) {
  const result = await db.execute(sql`
    select i.product_sku as sku, max(i.title) as title, sum(i.quantity) as units,
      sum(i.quantity::bigint * i.unit_price - i.discount) as revenue
    from ${orderItems} i join ${orders} on ${orders.id} = i.order_id
    where ${inRange(filters)} and ${isSaleSql}
    group by i.product_sku
    order by units desc, revenue desc, sku
    limit ${BEST_SELLERS_LIMIT}
  `)
  return rowsOf(result).map((row) => ({
    sku: String(row.sku),
    title: String(row.title),
    units: num(row.units),
    revenue: num(row.revenue),
  }))
}

/** Cancelled orders, and how cash-on-delivery orders ended (refused = cancelled after shipping). */
async function outcomes(db: DbOrTx, filters: SalesFilters) {
  const result = await db.execute(sql`
    select
      count(*) filter (where ${orders.status} = 'cancelado') as cancelled_orders,
      coalesce(sum(${productsNetSql}) filter (where ${orders.status} = 'cancelado'), 0) as cancelled_revenue,
      count(*) filter (where ${unconfirmedOnlineSql}) as unconfirmed_orders,
      coalesce(sum(${productsNetSql}) filter (where ${unconfirmedOnlineSql}), 0) as unconfirmed_revenue,
      count(*) filter (where ${orders.paymentMethod} = 'acordar' and ${orders.status} = 'Completado') as cod_delivered,
      count(*) filter (
        where ${orders.paymentMethod} = 'acordar' and ${orders.status} = 'cancelado' and ${orders.shippedAt} is null
      ) as cod_cancelled,
      count(*) filter (
        where ${orders.paymentMethod} = 'acordar' and ${orders.status} = 'cancelado' and ${orders.shippedAt} is not null
      ) as cod_refused,
      count(*) filter (
        where ${orders.paymentMethod} = 'acordar' and ${orders.status} not in ('cancelado', 'Completado')
      ) as cod_open
    from ${orders}
    where ${inRange(filters)}
  `)
  const [row = {}] = rowsOf(result)
  return {
    cancelled: { orders: num(row.cancelled_orders), revenue: num(row.cancelled_revenue) },
    unconfirmedOnline: { orders: num(row.unconfirmed_orders), revenue: num(row.unconfirmed_revenue) },
    cashOnDelivery: {
      delivered: num(row.cod_delivered),
      cancelled: num(row.cod_cancelled),
      refused: num(row.cod_refused),
      open: num(row.cod_open),
    },
  }
}

/** The report for a Bogotá day range; null when the range cannot be reported (`salesRangeMessage`). */
export async function readSalesReport(db: DbOrTx, filters: SalesFilters): Promise<SalesReport | null> {
  if (salesRangeMessage(filters)) return null
  const grouped = await groupedFigures(db, filters)
  const of = (kind: string, key: string) =>
    new Map(grouped.filter((row) => row.kind === kind).map((row) => [String(row[key]), row]))
  const byDay = of('day', 'day')
  const byMonth = of('month', 'month')
  const byMethod = of('payment', 'payment_method')
  const departments = grouped
    .filter((row) => row.kind === 'department')
    .map((row) => ({ department: String(row.department), ...figuresOf(row) }))
    .sort((a, b) => b.revenue - a.revenue || a.department.localeCompare(b.department, 'es'))
  const text = (value: unknown) => (value == null ? null : String(value))
  const campaigns = grouped
    .filter((row) => row.kind === 'campaign')
    .map((row) => ({
      known: row.campaign_known === true || row.campaign_known === 't',
      source: text(row.utm_source),
      medium: text(row.utm_medium),
      campaign: text(row.utm_campaign),
      referrerHost: text(row.referrer_host),
      ...figuresOf(row),
    }))
    .sort((a, b) => b.revenue - a.revenue || b.orders - a.orders)
  return {
    filters,
    totals: figuresOf(grouped.find((row) => row.kind === 'total')),
    days: daysBetween(filters.from, filters.to).map((day) => ({
      day,
      label: dayLabel.format(atNoon(day)),
      shortLabel: shortDayLabel(day),
      ...figuresOf(byDay.get(day)),
    })),
    months: monthsBetween(filters.from, filters.to).map((month) => ({
      month,
      label: monthLabel.format(atNoon(`${month}-01`)),
      shortLabel: shortMonthLabel(month),
      ...figuresOf(byMonth.get(month)),
    })),
    chartBy: rangeDays(filters) <= SALES_DAILY_CHART_MAX_DAYS ? 'day' : 'month',
    paymentMethods: PAYMENT_METHODS.map((method) => ({
      method,
      label: PAYMENT_METHOD_LABELS[method],
      ...figuresOf(byMethod.get(method)),
    })),
    departments,
    campaigns,
    bestSellers: await bestSellers(db, filters),
    ...(await outcomes(db, filters)),
  }
}

/** The CSV's columns: one row per day, then one per month, then the range's total. */
export const SALES_CSV_COLUMNS = [
  'Periodo',
  'Fecha',
  'Pedidos',
  'Unidades',
  'Ventas',
  'Envío cobrado',
  'Descuentos',
  'Descuentos en envío',
  'Ticket promedio',
  'Pedidos enviados',
  'Ventas enviadas',
  'Costo de salidas',
  'Margen bruto',
  'Pedidos sin enviar',
  'Ventas sin enviar',
  'Costo estimado',
  'Margen estimado',
  'Unidades sin costo conocido',
] as const

function figureCells(figures: SalesFigures): CsvCell[] {
  return [
    figures.orders,
    figures.units,
    csvPesos(figures.revenue),
    csvPesos(figures.shipping),
    csvPesos(figures.discount),
    csvPesos(figures.shippingDiscount),
    csvPesos(figures.averageTicket),
    figures.shippedOrders,
    csvPesos(figures.shippedRevenue),
    csvPesos(figures.exitCost),
    csvPesos(figures.margin),
    figures.pendingOrders,
    csvPesos(figures.pendingRevenue),
    csvPesos(figures.estimatedCost),
    csvPesos(figures.estimatedMargin),
    figures.unknownCostUnits,
  ]
}

/** The CSV's columns of costs and margins, left out for a role that may not see costs. */
const SALES_CSV_COST_COLUMNS: ReadonlySet<string> = new Set([
  'Costo de salidas',
  'Margen bruto',
  'Costo estimado',
  'Margen estimado',
  'Unidades sin costo conocido',
])

/**
 * The report as CSV (`spreadsheetCsv`: what Excel in es-CO opens): every day of the range, every
 * month, the total, then the splits by payment method and department; without the columns of costs
 * and margins unless `costs`. Null for a range the report refuses.
 */
export async function salesReportCsv(
  db: DbOrTx,
  filters: SalesFilters,
  { costs = true }: { costs?: boolean } = {},
): Promise<string | null> {
  const report = await readSalesReport(db, filters)
  if (!report) return null
  const records: CsvCell[][] = [
    ...report.days.map((row) => ['Día', row.day, ...figureCells(row)]),
    ...report.months.map((row) => ['Mes', row.month, ...figureCells(row)]),
    ['Total', `${filters.from} a ${filters.to}`, ...figureCells(report.totals)],
    ...report.paymentMethods.map((row) => ['Medio de pago', row.label, ...figureCells(row)]),
    ...report.departments.map((row) => ['Departamento', row.department, ...figureCells(row)]),
  ]
  if (costs) return spreadsheetCsv(SALES_CSV_COLUMNS, records)
  const kept = (_: unknown, index: number) => !SALES_CSV_COST_COLUMNS.has(SALES_CSV_COLUMNS[index]!)
  return spreadsheetCsv(
    SALES_CSV_COLUMNS.filter(kept),
    records.map((record) => record.filter(kept)),
  )
}
