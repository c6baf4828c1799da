import { completeSignIn } from '#app/modules/auth/oidc.server.ts'
import { adminSessionLimits } from '#app/modules/settings/settings.server.ts'
import { authOf, servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/callback'

/** The provider sends the browser back here with the authorization code (or an error). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const limits = await adminSessionLimits(servicesOf(context).database.db)
  return completeSignIn(authOf(context), request, { limits })
}
