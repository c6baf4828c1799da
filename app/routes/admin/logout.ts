import { redirect } from 'react-router'
import { signOut } from '#app/modules/auth/guard.server.ts'
import { adminSessionLimits } from '#app/modules/settings/settings.server.ts'
import { authOf, servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/logout'
import { ADMIN_PATH } from '#app/utils/paths.ts'

/** Signing out is a POST with the anti-forgery token; a plain visit just goes back to the admin. */
export function loader() {
  return redirect(ADMIN_PATH)
}

export async function action({ request, context }: Route.ActionArgs) {
  const limits = await adminSessionLimits(servicesOf(context).database.db)
  return signOut(authOf(context), request, { limits })
}
