import type { ReactNode } from 'react'
import { data, Form, Link } from 'react-router'
import { BarList, ColumnChart } from '#app/components/admin/charts.tsx'
import { Field } from '#app/components/admin/field.tsx'
import {
  FormMessage,
  inputClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { SALE_RULE, salesFiltersFrom, salesRangeMessage } from '#app/modules/order/sales-report.ts'
import { readSalesReport, type SalesFigures } from '#app/modules/order/sales-report.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { ADMIN_SALES_PATH, adminSalesCsvPath } from '#app/utils/admin-paths.ts'
import { formatCount } from '#app/utils/count.ts'
import { formatCOP } from '#app/utils/money.ts'
import type { Route } from './+types/report'

export const meta: Route.MetaFunction = () => [{ title: 'Ventas | Administración' }]

export async function loader({ url, context }: Route.LoaderArgs) {
  const filters = salesFiltersFrom(url.searchParams)
  const message = salesRangeMessage(filters)
  if (message) return data({ filters, message, report: null }, { status: 400 })
  const report = await readSalesReport(servicesOf(context).database.db, filters)
  return { filters, message: null, report }
}

/** A count on a chart axis, whose ticks may fall between whole numbers ("0,5"). */
function formatTick(value: number): string {
  return Number.isInteger(value) ? formatCount(value) : value.toFixed(1).replace('.', ',')
}

/** Short amounts for chart axes ("$ 1,2 M", "$ 850 mil"); the tables give the exact figures. */
function compactCOP(centavos: number): string {
  const pesos = centavos / 100
  const sign = pesos < 0 ? '-' : ''
  const size = Math.abs(pesos)
  if (size >= 1_000_000)
    return `${sign}$ ${(size / 1_000_000).toFixed(1).replace('.', ',').replace(/,0$/, '')} M`
  if (size >= 1_000) return `${sign}$ ${formatCount(size / 1_000)} mil`
  return `${sign}$ ${formatCount(size)}`
}

/** Margin as a share of what it was made on ("32,5 %"), or nothing without sales. */
function marginShare(margin: number, revenue: number): string | null {
  if (revenue === 0) return null
  return `${((margin / revenue) * 100).toFixed(1).replace('.', ',')} %`
}

function rangeParams(filters: { from: string; to: string }) {
  return new URLSearchParams({ desde: filters.from, hasta: filters.to })
}

type Column = {
  key: string
  label: string
  value: (figures: SalesFigures) => ReactNode
}

const FIGURE_COLUMNS: Column[] = [
  { key: 'orders', label: 'Pedidos', value: (f) => formatCount(f.orders) },
  { key: 'units', label: 'Unidades', value: (f) => formatCount(f.units) },
  { key: 'revenue', label: 'Ventas', value: (f) => formatCOP(f.revenue) },
  { key: 'ticket', label: 'Ticket promedio', value: (f) => formatCOP(f.averageTicket) },
  {
    key: 'margin',
    label: 'Margen bruto (enviados)',
    value: (f) => (f.shippedOrders ? formatCOP(f.margin) : '—'),
  },
  {
    key: 'estimated',
    label: 'Margen estimado (sin enviar)',
    // Units of deleted products have no cost: left out, marked "*" (the note under the cards says so).
    value: (f) =>
      f.estimatedRevenue || f.estimatedCost
        ? `${formatCOP(f.estimatedMargin)}${f.unknownCostUnits ? ' *' : ''}`
        : f.unknownCostUnits
          ? 'sin costo *'
          : '—',
  },
]

/**
 * Figures per period, payment method or department: a table on wide screens; on a phone each row
 * becomes a card with its own labels (the same markup, so there is one thing to test and read).
 */
function FiguresTable({
  id,
  caption,
  firstColumn,
  rows,
}: {
  id: string
  caption: string
  firstColumn: string
  rows: { key: string; label: string; figures: SalesFigures }[]
}) {
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="rounded-xl border border-brand-100 bg-white shadow-sm focus:ring-2 focus:ring-brand-200 focus:outline-none sm:overflow-x-auto"
    >
      <table data-testid={`sales-table-${id}`} className="min-w-full text-sm max-sm:block">
        <caption className="px-3 pt-3 text-left font-semibold max-sm:block">{caption}</caption>
        <thead className="bg-brand-50 text-left text-xs text-gray-700 max-sm:sr-only">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {firstColumn}
            </th>
            {FIGURE_COLUMNS.map((column) => (
              <th key={column.key} scope="col" className="px-3 py-2 text-right font-medium">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-brand-50 max-sm:block">
          {rows.map((row) => (
            <tr
              key={row.key}
              data-testid={`sales-row-${id}`}
              data-key={row.key}
              className="max-sm:block max-sm:p-3"
            >
              <th
                scope="row"
                className="px-3 py-2 text-left font-medium whitespace-nowrap max-sm:block max-sm:px-0"
              >
                {row.label}
              </th>
              {FIGURE_COLUMNS.map((column) => (
                <td
                  key={column.key}
                  data-label={column.label}
                  data-column={column.key}
                  className="px-3 py-2 text-right whitespace-nowrap tabular-nums max-sm:flex max-sm:justify-between max-sm:gap-3 max-sm:px-0 max-sm:py-0.5 max-sm:before:text-gray-600 max-sm:before:content-[attr(data-label)]"
                >
                  {column.value(row.figures)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function Card({
  id,
  label,
  value,
  hint,
  className = '',
}: {
  id: string
  label: string
  value: ReactNode
  hint?: ReactNode
  className?: string
}) {
  return (
    <div className={`min-w-0 rounded-xl border border-brand-100 bg-white p-3 shadow-sm sm:p-4 ${className}`}>
      <dt className="text-sm text-gray-600">
        {label}
        {hint ? <span className="block text-xs text-gray-500">{hint}</span> : null}
      </dt>
      <dd
        className="mt-1 text-base font-semibold text-brand-700 tabular-nums [overflow-wrap:anywhere] sm:text-xl"
        data-testid={`sales-${id}`}
      >
        {value}
      </dd>
    </div>
  )
}

export default function SalesReport({ loaderData }: Route.ComponentProps) {
  const { filters, message, report } = loaderData
  const range = rangeParams(filters)
  return (
    <section aria-labelledby="sales-title" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h1 id="sales-title" className="text-2xl font-semibold">
          Ventas
        </h1>
        <p className="max-w-3xl text-sm text-gray-700" data-testid="sales-rule">
          {SALE_RULE}
        </p>
      </div>

      <Form
        method="get"
        key={`${filters.from}|${filters.to}`}
        className="flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm sm:flex-row sm:items-end"
        aria-label="Filtrar por fecha"
      >
        <Field id="sales-from" label="Desde" className="sm:w-48">
          <input
            id="sales-from"
            name="desde"
            type="date"
            defaultValue={filters.from}
            className={inputClass}
          />
        </Field>
        <Field id="sales-to" label="Hasta" className="sm:w-48">
          <input id="sales-to" name="hasta" type="date" defaultValue={filters.to} className={inputClass} />
        </Field>
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className={primaryButtonClass}>
            Filtrar
          </button>
          <Link to={ADMIN_SALES_PATH} className={secondaryButtonClass}>
            Este mes
          </Link>
          {report ? (
            <a
              href={adminSalesCsvPath(range)}
              download
              className={secondaryButtonClass}
              data-testid="sales-csv"
            >
              Descargar CSV
            </a>
          ) : null}
        </div>
      </Form>

      {message || !report ? (
        <FormMessage message={message} tone="error" />
      ) : (
        <SalesFiguresView report={report} />
      )}
    </section>
  )
}

type Report = NonNullable<Route.ComponentProps['loaderData']['report']>

function SalesFiguresView({ report }: { report: Report }) {
  const { totals, cancelled, unconfirmedOnline, cashOnDelivery: cod } = report
  const marginPercent = marginShare(totals.margin, totals.shippedRevenue)
  const estimatedPercent = marginShare(totals.estimatedMargin, totals.estimatedRevenue)
  const chartRows =
    report.chartBy === 'day'
      ? report.days.map((row) => ({ label: row.shortLabel, figures: row }))
      : report.months.map((row) => ({
          // Past a year the axis has room for "1/26" but not for "ene 26" (390 px).
          label:
            report.months.length > 12
              ? `${Number(row.month.slice(5))}/${row.month.slice(2, 4)}`
              : row.shortLabel,
          figures: row,
        }))
  const per = report.chartBy === 'day' ? 'día' : 'mes'
  const closedCod = cod.delivered + cod.cancelled + cod.refused
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3" data-testid="sales-summary">
        <Card id="orders" label="Pedidos" value={formatCount(totals.orders)} />
        <Card id="units" label="Unidades" value={formatCount(totals.units)} />
        <Card id="revenue" label="Ventas" value={formatCOP(totals.revenue)} hint="Productos, sin envío" />
        <Card
          id="ticket"
          label="Ticket promedio"
          value={formatCOP(totals.averageTicket)}
          hint="Ventas ÷ pedidos"
        />
        <Card
          id="margin"
          label="Margen bruto"
          value={formatCOP(totals.margin)}
          hint={`${formatCount(totals.shippedOrders)} pedido(s) enviado(s)${marginPercent ? ` · ${marginPercent}` : ''}`}
        />
        <Card
          id="estimated-margin"
          label="Margen estimado"
          value={
            totals.estimatedRevenue || totals.estimatedCost || !totals.unknownCostUnits
              ? `${formatCOP(totals.estimatedMargin)}${totals.unknownCostUnits ? ' *' : ''}`
              : 'Sin costo conocido *'
          }
          hint={`${formatCount(totals.pendingOrders)} pedido(s) sin enviar${estimatedPercent ? ` · ${estimatedPercent}` : ''}`}
        />
        <Card id="shipping" label="Envío cobrado" value={formatCOP(totals.shipping)} />
        <Card
          id="cancelled"
          label="Cancelados (no suman)"
          value={formatCount(cancelled.orders)}
          hint={`${formatCOP(cancelled.revenue)} en productos`}
        />
        <Card
          id="unconfirmed"
          // The ninth card: the whole row on a phone's two columns (three columns on wide screens).
          className="max-lg:col-span-2"
          label="Pagos en línea sin confirmar"
          value={formatCount(unconfirmedOnline.orders)}
          hint={`${formatCOP(unconfirmedOnline.revenue)} en productos · no suman hasta pagarse`}
        />
      </dl>
      <p className="max-w-3xl text-sm text-gray-700" data-testid="sales-margin-rule">
        <strong>Margen bruto</strong>: ventas de los pedidos ya enviados menos el costo promedio que el
        inventario registró en sus salidas. Un pedido sin enviar aún no tiene salida: su{' '}
        <strong>margen estimado</strong> usa el costo promedio actual de cada producto, puede cambiar al
        enviarlo y no se suma al margen bruto.
        {totals.unknownCostUnits ? (
          <span data-testid="sales-unknown-cost">
            {' '}
            * {formatCount(totals.unknownCostUnits)} unidad(es) sin enviar son de productos eliminados: su
            costo ya no se conoce, así que quedan fuera del margen estimado (no se estiman a costo 0).
          </span>
        ) : null}
      </p>

      <div className="grid gap-4 lg:grid-cols-2">
        <ColumnChart
          title={`Ventas por ${per}`}
          points={chartRows.map((row) => ({ label: row.label, value: row.figures.revenue }))}
          formatValue={compactCOP}
        />
        <ColumnChart
          title={`Pedidos por ${per}`}
          points={chartRows.map((row) => ({ label: row.label, value: row.figures.orders }))}
          formatValue={formatTick}
        />
      </div>

      <FiguresTable
        id="months"
        caption="Por mes"
        firstColumn="Mes"
        rows={[
          ...report.months.map((row) => ({ key: row.month, label: row.label, figures: row })),
          ...(report.months.length > 1 ? [{ key: 'total', label: 'Total', figures: totals }] : []),
        ]}
      />
      {totals.orders > 0 ? (
        <FiguresTable
          id="days"
          caption="Por día (días con pedidos)"
          firstColumn="Día"
          rows={report.days
            .filter((row) => row.orders > 0)
            .map((row) => ({ key: row.day, label: row.label, figures: row }))}
        />
      ) : (
        <p data-testid="sales-empty" className="rounded-xl border border-brand-100 bg-white p-6 text-center">
          No hay ventas en esas fechas.
        </p>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        <BarList
          title="Ventas por medio de pago"
          items={report.paymentMethods.map((row) => ({
            label: row.label,
            value: row.revenue,
            detail: `${formatCount(row.orders)} pedido(s)`,
          }))}
          formatValue={formatCOP}
        />
        <BarList
          title="Ventas por departamento"
          items={report.departments.map((row) => ({
            label: row.department,
            value: row.revenue,
            detail: `${formatCount(row.orders)} pedido(s)`,
          }))}
          formatValue={formatCOP}
        />
      </div>
      <FiguresTable
        id="payment"
        caption="Por medio de pago"
        firstColumn="Medio de pago"
        rows={report.paymentMethods.map((row) => ({ key: row.method, label: row.label, figures: row }))}
      />
      {report.departments.length ? (
        <FiguresTable
          id="departments"
          caption="Por departamento"
          firstColumn="Departamento"
          rows={report.departments.map((row) => ({
            key: row.department,
            label: row.department,
            figures: row,
          }))}
        />
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <BarList
          title="Productos más vendidos (unidades)"
          items={report.bestSellers.map((row) => ({
            label: row.title,
            value: row.units,
            detail: formatCOP(row.revenue),
          }))}
          formatValue={formatCount}
        />
        <section
          aria-labelledby="cod-title"
          className="rounded-lg border border-gray-200 bg-white p-4"
          data-testid="sales-cod"
        >
          <h2 id="cod-title" className="mb-1 text-sm font-semibold text-ink">
            Contra entrega: entregados vs. cancelados
          </h2>
          <p className="mb-3 text-xs text-gray-600">
            Pedidos contra entrega hechos en estas fechas, según cómo terminaron.
          </p>
          <dl className="grid grid-cols-2 gap-3 text-sm">
            {[
              { id: 'delivered', label: 'Entregados (completados)', value: cod.delivered },
              { id: 'cancelled', label: 'Cancelados antes de enviar', value: cod.cancelled },
              { id: 'refused', label: 'Rechazados en la entrega', value: cod.refused },
              { id: 'open', label: 'En curso', value: cod.open },
            ].map((item) => (
              <div key={item.id}>
                <dt className="text-gray-600">{item.label}</dt>
                <dd className="text-lg font-semibold tabular-nums" data-testid={`sales-cod-${item.id}`}>
                  {formatCount(item.value)}
                </dd>
              </div>
            ))}
          </dl>
          {closedCod ? (
            <p className="mt-3 text-sm" data-testid="sales-cod-rate">
              Se entregó el {((cod.delivered / closedCod) * 100).toFixed(0)} % de los que ya terminaron.
            </p>
          ) : null}
        </section>
      </div>
      {report.bestSellers.length ? (
        <div
          role="region"
          aria-label="Productos más vendidos"
          tabIndex={0}
          className="rounded-xl border border-brand-100 bg-white shadow-sm focus:ring-2 focus:ring-brand-200 focus:outline-none sm:overflow-x-auto"
        >
          <table data-testid="sales-best-sellers" className="min-w-full text-sm max-sm:block">
            <caption className="px-3 pt-3 text-left font-semibold max-sm:block">
              Productos más vendidos
            </caption>
            <thead className="bg-brand-50 text-left text-xs text-gray-700 max-sm:sr-only">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Producto
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  SKU
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Unidades
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Ventas
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-brand-50 max-sm:block">
              {report.bestSellers.map((row) => (
                <tr
                  key={row.sku}
                  data-testid="sales-best-seller"
                  data-sku={row.sku}
                  className="max-sm:block max-sm:p-3"
                >
                  <th scope="row" className="px-3 py-2 text-left font-medium max-sm:block max-sm:px-0">
                    {row.title}
                  </th>
                  <td className="px-3 py-2 font-mono text-xs max-sm:block max-sm:px-0 max-sm:py-0.5">
                    {row.sku}
                  </td>
                  <td
                    data-label="Unidades"
                    className="px-3 py-2 text-right tabular-nums max-sm:flex max-sm:justify-between max-sm:px-0 max-sm:py-0.5 max-sm:before:text-gray-600 max-sm:before:content-[attr(data-label)]"
                  >
                    {formatCount(row.units)}
                  </td>
                  <td
                    data-label="Ventas"
                    className="px-3 py-2 text-right whitespace-nowrap tabular-nums max-sm:flex max-sm:justify-between max-sm:px-0 max-sm:py-0.5 max-sm:before:text-gray-600 max-sm:before:content-[attr(data-label)]"
                  >
                    {formatCOP(row.revenue)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  )
}
