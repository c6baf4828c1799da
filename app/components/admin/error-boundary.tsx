import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { FORBIDDEN_POST_MESSAGE } from '#app/modules/auth/messages.ts'

/**
 * Errors inside the admin area: not found, refused form post, or anything unexpected. The admin
 * layout's `meta` titles the page.
 */
export function AdminErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  // A refusal thrown as `data({ message }, { status: 4xx })` says its own words.
  const refused = isRouteErrorResponse(error) ? (error.data as { message?: unknown } | null)?.message : null
  const message =
    typeof refused === 'string' && status >= 400 && status < 500
      ? refused
      : status === 404
        ? 'Esta página no existe.'
        : status === 403
          ? FORBIDDEN_POST_MESSAGE
          : 'Algo salió mal. Intenta de nuevo en un momento.'
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold" data-testid="admin-error">
        {message}
      </h1>
      <Link to="/admin" className="rounded-full bg-brand-600 px-5 py-2 font-medium text-white">
        Ir a Inicio
      </Link>
    </div>
  )
}
