import { redirect } from 'react-router'
import { authContext, signOut } from '#app/modules/auth/guard.server.ts'
import type { Route } from './+types/logout'

/** Signing out is a POST with the anti-forgery token; a plain visit just goes back to the admin. */
export function loader() {
  return redirect('/admin')
}

export async function action({ request }: Route.ActionArgs) {
  return signOut(authContext(), request)
}
