import { handlePageViewBeacon } from '#app/modules/analytics/beacon.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/analytics-view'

/** POST /api/analitica/vista `{ page_title, time_spent, new_visit }`: time on a page (spec §7). */
export async function action({ request, context }: Route.ActionArgs) {
  const { database, adminAuth, rateLimits } = servicesOf(context)
  return handlePageViewBeacon(
    { db: database.db, auth: adminAuth, limits: rateLimits },
    request,
    clientAddressOf(context),
  )
}
