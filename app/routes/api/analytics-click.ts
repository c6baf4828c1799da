import { handleClickBeacon } from '#app/modules/analytics/beacon.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/analytics-click'

/** POST /api/analitica/clic `{ element_name }`: one click on a `data-track` element (spec §7). */
export async function action({ request, context }: Route.ActionArgs) {
  const { database, adminAuth, rateLimits } = servicesOf(context)
  return handleClickBeacon(
    { db: database.db, auth: adminAuth, limits: rateLimits },
    request,
    clientAddressOf(context),
  )
}
