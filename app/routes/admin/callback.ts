import { completeSignIn } from '#app/modules/auth/oidc.server.ts'
import { signInDeviceOf } from '#app/modules/auth/session.server.ts'
import { authOf } from '#app/services-context.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/callback'

/** The provider sends the browser back here with the authorization code (or an error). */
export async function loader({ request, context }: Route.LoaderArgs) {
  return completeSignIn(authOf(context), request, signInDeviceOf(request, clientAddressOf(context)))
}
