import { kardexCsv } from '#app/modules/inventory/kardex.server.ts'
import { kardexFiltersFrom, STOCK_FORM_MESSAGES } from '#app/modules/inventory/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { csvDownload } from '#app/utils/spreadsheet-csv.ts'
import type { Route } from './+types/kardex-csv'

/** GET /admin/productos/movimientos/{sku}/csv?desde=&hasta=: the kardex rows as a CSV download. */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const filters = kardexFiltersFrom(url.searchParams)
  const answer = await kardexCsv(servicesOf(context).database.db, params.sku, filters)
  if (!answer) {
    return new Response(STOCK_FORM_MESSAGES.productNotFound, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  const range = [filters.from, filters.to].filter(Boolean).join('_a_')
  return csvDownload(answer.csv, `kardex-${answer.sku}${range ? `-${range}` : ''}.csv`)
}
