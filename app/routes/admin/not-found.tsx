import { data } from 'react-router'
import { AdminErrorBoundary } from '#app/components/admin/error-boundary.tsx'

/** An unknown /admin/… address: 404 inside the admin shell, for signed-in admins only (the layout's middleware). */
export function loader() {
  throw data(null, { status: 404 })
}

export const ErrorBoundary = AdminErrorBoundary

export default function AdminNotFound() {
  return null
}
