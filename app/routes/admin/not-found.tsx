import { data } from 'react-router'
import { AdminErrorBoundary } from '#app/components/admin/error-boundary.tsx'
import { requireAdmin } from '#app/modules/auth/guard.server.ts'
import type { Route } from './+types/not-found'

/** An unknown /admin/… address: 404 inside the admin shell, for signed-in admins only. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  throw data(null, { status: 404 })
}

export const ErrorBoundary = AdminErrorBoundary

export default function AdminNotFound() {
  return null
}
