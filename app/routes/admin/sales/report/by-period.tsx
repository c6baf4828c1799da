import { ColumnChart } from '#app/components/admin/charts.tsx'
import type { ShownSalesReport as SalesReport } from '#app/modules/order/sales-report.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { FiguresTable } from './figures-table.tsx'

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

/** Sales and orders per day or month: the charts, the months and the days with orders. */
export function SalesByPeriod({ report, costs }: { report: SalesReport; costs: boolean }) {
  const { totals } = report
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
  return (
    <>
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
        costs={costs}
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
          costs={costs}
          rows={report.days
            .filter((row) => row.orders > 0)
            .map((row) => ({ key: row.day, label: row.label, figures: row }))}
        />
      ) : (
        <p data-testid="sales-empty" className="rounded-xl border border-brand-100 bg-white p-6 text-center">
          No hay ventas en esas fechas.
        </p>
      )}
    </>
  )
}
