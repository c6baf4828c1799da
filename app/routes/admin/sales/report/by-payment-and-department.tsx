import { BarList } from '#app/components/admin/charts.tsx'
import type { ShownSalesReport as SalesReport } from '#app/modules/order/sales-report.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { formatCOP } from '#app/utils/money.ts'
import { FiguresTable } from './figures-table.tsx'

/** Where the sales came from: by payment method and by department. */
export function SalesByPaymentAndDepartment({ report, costs }: { report: SalesReport; costs: boolean }) {
  return (
    <>
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
        costs={costs}
        rows={report.paymentMethods.map((row) => ({ key: row.method, label: row.label, figures: row }))}
      />
      {report.departments.length ? (
        <FiguresTable
          id="departments"
          caption="Por departamento"
          firstColumn="Departamento"
          costs={costs}
          rows={report.departments.map((row) => ({
            key: row.department,
            label: row.department,
            figures: row,
          }))}
        />
      ) : null}
    </>
  )
}
