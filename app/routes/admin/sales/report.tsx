import { data, Link } from 'react-router'
import { FormMessage } from '#app/components/admin/form-message.tsx'
import { salesFiltersFrom, salesRangeMessage } from '#app/modules/order/sales-report.ts'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import {
  readSalesReport,
  salesReportWithoutCosts,
  type ShownSalesReport,
} from '#app/modules/order/sales-report.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { adminPaymentsPath } from '#app/utils/admin-paths.ts'
import { BestSellers } from './report/best-sellers.tsx'
import { SalesByCampaign } from './report/by-campaign.tsx'
import { SalesByPaymentAndDepartment } from './report/by-payment-and-department.tsx'
import { SalesByPeriod } from './report/by-period.tsx'
import { DateFilter } from './report/date-filter.tsx'
import { SalesExplanation } from './report/explanation.tsx'
import { SalesSummary } from './report/summary.tsx'
import type { Route } from './+types/report'

export const meta: Route.MetaFunction = () => [{ title: 'Ventas | Administración' }]

export async function loader({ url, context }: Route.LoaderArgs) {
  const filters = salesFiltersFrom(url.searchParams)
  const message = salesRangeMessage(filters)
  if (message) return data({ filters, message, report: null }, { status: 400 })
  const found = await readSalesReport(servicesOf(context).database.db, filters)
  // Ventas sees revenue, units and discounts; costs and margins only whom may see costs (issue 27).
  const report: ShownSalesReport | null =
    found && !adminCan(signedInAdminOf(context), 'costs') ? salesReportWithoutCosts(found) : found
  return { filters, message: null, report }
}

export default function SalesReport({ loaderData }: Route.ComponentProps) {
  const { filters, message, report } = loaderData
  return (
    <section aria-labelledby="sales-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="sales-title" className="text-2xl font-semibold">
          Ventas
        </h1>
        <Link
          to={adminPaymentsPath(new URLSearchParams({ desde: filters.from, hasta: filters.to }))}
          className="text-sm font-medium text-brand-700 underline"
          data-testid="sales-payments-link"
        >
          Pagos de estas fechas
        </Link>
      </div>

      <DateFilter filters={filters} csv={Boolean(report)} />

      {message || !report ? (
        <FormMessage message={message} tone="error" />
      ) : (
        <SalesFiguresView report={report} />
      )}
    </section>
  )
}

type Report = NonNullable<Route.ComponentProps['loaderData']['report']>

/**
 * Every figure of a range that has a report, in reading order; how they count under the totals.
 * The costs and margins show where the loader sent them.
 */
function SalesFiguresView({ report }: { report: Report }) {
  const costs = report.totals.margin !== undefined
  return (
    <>
      <SalesSummary report={report} />
      <SalesExplanation costs={costs} />
      <SalesByPeriod report={report} costs={costs} />
      <SalesByPaymentAndDepartment report={report} costs={costs} />
      <SalesByCampaign report={report} costs={costs} />
      <BestSellers report={report} />
    </>
  )
}
