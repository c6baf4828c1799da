import { paymentFiltersFrom, paymentRangeMessage } from '#app/modules/payment/reconciliation.ts'
import { paymentsCsv } from '#app/modules/payment/reconciliation.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { csvDownload } from '#app/utils/spreadsheet-csv.ts'
import type { Route } from './+types/payments-csv'

/** GET /admin/ventas/pagos/csv?desde=&hasta=&proveedor=: "Pagos" as a CSV download. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const filters = paymentFiltersFrom(url.searchParams)
  const csv = await paymentsCsv(servicesOf(context).database.db, filters)
  if (csv === null) {
    return new Response(paymentRangeMessage(filters), {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  const provider = filters.provider === 'todos' ? '' : `${filters.provider}-`
  return csvDownload(csv, `pagos-${provider}${filters.from}_a_${filters.to}.csv`)
}
