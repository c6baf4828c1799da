import { useState } from 'react'
import { Outlet, useNavigation } from 'react-router'
import { AdminErrorBoundary } from '#app/components/admin/error-boundary.tsx'
import { errorTitle } from '#app/components/not-found.tsx'
import { AdminHeader } from '#app/components/admin/admin-header.tsx'
import { AdminSidebar } from '#app/components/admin/sidebar.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { limitUploadsMiddleware, requireAdminMiddleware } from './middleware.server.ts'
import type { Route } from './+types/layout'

export const meta: Route.MetaFunction = ({ error }) => [
  { title: error ? errorTitle(error) : 'Administración' },
  { name: 'robots', content: 'noindex, nofollow' },
]

/** Admin pages are personal: never stored by shared caches or shown again from the back button. */
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

/**
 * Every `/admin` request passes the admin check once, here, before any loader or action of the
 * pages below (app/routes/admin/admin-routes.test.ts walks them); file uploads are counted next.
 */
export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware, limitUploadsMiddleware]

export function loader({ context }: Route.LoaderArgs) {
  const admin = signedInAdminOf(context)
  return {
    admin: {
      email: admin.email,
      displayName: admin.displayName,
      pictureUrl: admin.pictureUrl,
      csrfToken: admin.csrfToken,
      role: admin.role,
    },
  }
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const [menuOpen, setMenuOpen] = useState(false)
  // Spec §4's "Cargando..." while the next admin page (and its session check) loads.
  const loading = useNavigation().state === 'loading'
  return (
    <div className="min-h-screen bg-brand-50/40">
      <div className="print:hidden">
        <AdminHeader
          user={loaderData.admin}
          menuOpen={menuOpen}
          onToggleMenu={() => setMenuOpen((open) => !open)}
        />
      </div>
      <div className="mx-auto flex max-w-7xl flex-col md:flex-row md:gap-6 md:px-4 md:py-6">
        <aside
          id="admin-sidebar"
          className={`${menuOpen ? 'block' : 'hidden'} border-b print:hidden border-brand-100 bg-white p-3 md:block md:w-64 md:shrink-0 md:self-start md:rounded-xl md:border`}
        >
          <AdminSidebar role={loaderData.admin.role} onNavigate={() => setMenuOpen(false)} />
        </aside>
        <main className="min-w-0 flex-1 p-4 md:p-0 print:p-0" aria-busy={loading}>
          {loading ? (
            <p role="status" className="mb-3 text-sm text-gray-600">
              Cargando...
            </p>
          ) : null}
          <Outlet />
        </main>
      </div>
    </div>
  )
}

export const ErrorBoundary = AdminErrorBoundary
