import type { ReactNode } from 'react'
import type { SalesFigures } from '#app/modules/order/sales-report.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { formatCOP } from '#app/utils/money.ts'

type Column = {
  key: string
  label: string
  value: (figures: SalesFigures) => ReactNode
}

const FIGURE_COLUMNS: Column[] = [
  { key: 'orders', label: 'Pedidos', value: (f) => formatCount(f.orders) },
  { key: 'units', label: 'Unidades', value: (f) => formatCount(f.units) },
  { key: 'revenue', label: 'Ventas', value: (f) => formatCOP(f.revenue) },
  { key: 'discount', label: 'Descuentos', value: (f) => (f.discount ? formatCOP(f.discount) : '—') },
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
export function FiguresTable({
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
