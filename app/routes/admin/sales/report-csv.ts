import { salesFiltersFrom, salesRangeMessage } from '#app/modules/order/sales-report.ts'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { salesReportCsv } from '#app/modules/order/sales-report.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { csvDownload } from '#app/utils/spreadsheet-csv.ts'
import type { Route } from './+types/report-csv'

/**
 * GET /admin/ventas/csv?desde=&hasta=: the "Ventas" report as a CSV download, without the columns
 * of costs and margins for a role that may not see costs (issue 27).
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const filters = salesFiltersFrom(url.searchParams)
  const costs = adminCan(signedInAdminOf(context), 'costs')
  const csv = await salesReportCsv(servicesOf(context).database.db, filters, { costs })
  if (csv === null) {
    return new Response(salesRangeMessage(filters), {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  return csvDownload(csv, `ventas-${filters.from}_a_${filters.to}.csv`)
}
