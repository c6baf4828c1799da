import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { kardexCsv } from '#app/modules/inventory/kardex.server.ts'
import { kardexFiltersFrom, STOCK_FORM_MESSAGES } from '#app/modules/inventory/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { csvDownload } from '#app/utils/spreadsheet-csv.ts'
import type { Route } from './+types/kardex-csv'

/**
 * GET /admin/productos/movimientos/{sku}/csv?desde=&hasta=: the kardex rows as a CSV download,
 * without the unit prices, totals and average costs for a role that may not see costs (issue 27).
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const filters = kardexFiltersFrom(url.searchParams)
  const costs = adminCan(signedInAdminOf(context), 'costs')
  const answer = await kardexCsv(servicesOf(context).database.db, params.sku, filters, { costs })
  if (!answer) {
    return new Response(STOCK_FORM_MESSAGES.productNotFound, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  const range = [filters.from, filters.to].filter(Boolean).join('_a_')
  return csvDownload(answer.csv, `kardex-${answer.sku}${range ? `-${range}` : ''}.csv`)
}
