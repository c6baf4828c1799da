import { redirect } from 'react-router'
import { signOut } from '#app/modules/auth/guard.server.ts'
import { authOf } from '#app/services-context.server.ts'
import type { Route } from './+types/logout'
import { ADMIN_PATH } from '#app/utils/paths.ts'

/** Signing out is a POST with the anti-forgery token; a plain visit just goes back to the admin. */
export function loader() {
  return redirect(ADMIN_PATH)
}

export async function action({ request, context }: Route.ActionArgs) {
  return signOut(authOf(context), request)
}
