import { salesFiltersFrom, salesRangeMessage } from '#app/modules/order/sales-report.ts'
import { salesReportCsv } from '#app/modules/order/sales-report.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { csvDownload } from '#app/utils/spreadsheet-csv.ts'
import type { Route } from './+types/report-csv'

/** GET /admin/ventas/csv?desde=&hasta=: the "Ventas" report as a CSV download. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const filters = salesFiltersFrom(url.searchParams)
  const csv = await salesReportCsv(servicesOf(context).database.db, filters)
  if (csv === null) {
    return new Response(salesRangeMessage(filters), {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  return csvDownload(csv, `ventas-${filters.from}_a_${filters.to}.csv`)
}
