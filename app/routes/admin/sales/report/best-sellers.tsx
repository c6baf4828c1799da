import { BarList } from '#app/components/admin/charts.tsx'
import type { ShownSalesReport as SalesReport } from '#app/modules/order/sales-report.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { formatCOP } from '#app/utils/money.ts'
import { CashOnDelivery } from './cash-on-delivery.tsx'

/** The products sold most (chart and table), with cash on delivery beside the chart. */
export function BestSellers({ report }: { report: SalesReport }) {
  return (
    <>
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
        <CashOnDelivery cod={report.cashOnDelivery} />
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
