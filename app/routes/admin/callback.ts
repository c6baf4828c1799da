import { authContext } from '#app/modules/auth/guard.server.ts'
import { completeSignIn } from '#app/modules/auth/oidc.server.ts'
import type { Route } from './+types/callback'

/** The provider sends the browser back here with the authorization code (or an error). */
export async function loader({ request }: Route.LoaderArgs) {
  return completeSignIn(authContext(), request)
}
