import type { ReactNode } from 'react'
import type { ShownSalesFigures as SalesFigures } from '#app/modules/order/sales-report.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { formatCOP } from '#app/utils/money.ts'

type Column = {
  key: string
  label: string
  value: (figures: SalesFigures) => ReactNode
  /** A column of costs or margins: only where the loader sent them. */
  costs?: boolean
}

/** A figure the loader left out reads as a dash (its column is not shown then anyway). */
const pesos = (centavos: number | undefined) => (centavos === undefined ? '—' : formatCOP(centavos))

const FIGURE_COLUMNS: Column[] = [
  { key: 'orders', label: 'Pedidos', value: (f) => formatCount(f.orders) },
  { key: 'units', label: 'Unidades', value: (f) => formatCount(f.units) },
  { key: 'revenue', label: 'Ventas', value: (f) => formatCOP(f.revenue) },
  { key: 'discount', label: 'Descuentos', value: (f) => (f.discount ? formatCOP(f.discount) : '—') },
  { key: 'ticket', label: 'Ticket promedio', value: (f) => formatCOP(f.averageTicket) },
  {
    key: 'margin',
    label: 'Margen bruto (enviados)',
    value: (f) => (f.shippedOrders ? pesos(f.margin) : '—'),
    costs: true,
  },
  {
    key: 'estimated',
    label: 'Margen estimado (sin enviar)',
    // Units of deleted products have no cost: left out, marked "*" (the note under the cards says so).
    value: (f) =>
      f.estimatedRevenue || f.estimatedCost
        ? `${pesos(f.estimatedMargin)}${f.unknownCostUnits ? ' *' : ''}`
        : f.unknownCostUnits
          ? 'sin costo *'
          : '—',
    costs: true,
  },
]

/**
 * Figures per period, payment method, department or campaign: a table on wide screens; on a phone each row
 * becomes a card with its own labels (the same markup, so there is one thing to test and read).
 * The margins' columns only with `costs`.
 */
export function FiguresTable({
  id,
  caption,
  firstColumn,
  rows,
  costs,
}: {
  id: string
  caption: string
  firstColumn: string
  /** `detail`: a second, smaller line under the row's label. */
  rows: { key: string; label: string; detail?: string; figures: SalesFigures }[]
  costs: boolean
}) {
  const columns = FIGURE_COLUMNS.filter((column) => costs || !column.costs)
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
            {columns.map((column) => (
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
                {row.detail ? (
                  <span className="block max-w-xs text-xs font-normal whitespace-normal text-gray-600">
                    {row.detail}
                  </span>
                ) : null}
              </th>
              {columns.map((column) => (
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
