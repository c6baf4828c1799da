import { Menu, X } from 'lucide-react'
import { Link, useLocation } from 'react-router'
import type { HelpAnchor } from '#app/components/admin/help-guide.ts'
import {
  ADMIN_CATEGORIES_PATH,
  ADMIN_PATH,
  ADMIN_PRODUCTS_PATH,
  ADMIN_PROFILE_PATH,
} from '#app/utils/paths.ts'
import {
  ADMIN_CHANNELS_PATH,
  ADMIN_HELP_PATH,
  ADMIN_MARKETING_PATH,
  ADMIN_MESSAGES_PATH,
  ADMIN_ORDERS_PATH,
  ADMIN_PROMOTIONS_PATH,
  ADMIN_REPORTS_PATH,
  ADMIN_SALES_PATH,
  ADMIN_SECURITY_PATH,
  ADMIN_SEO_PATH,
  ADMIN_SETTINGS_PATH,
  ADMIN_STOCK_ENTRY_PATH,
  ADMIN_STOCK_EXIT_PATH,
  ADMIN_TEAM_PATH,
} from '#app/utils/admin-paths.ts'

export type AdminHeaderUser = { email: string; displayName: string | null; pictureUrl: string | null }

/**
 * Which part of the owner's guide ("Ayuda") explains each back-office page: the first rule whose
 * path is the page's path or one of its parents wins, so sub-paths come before their parents. Only
 * the type comes from the guide: its text stays out of the bundle every admin page loads.
 */
export const HELP_PATH_RULES: readonly { path: string; anchor: HelpAnchor }[] = [
  { path: ADMIN_STOCK_ENTRY_PATH, anchor: 'entradas-y-salidas' },
  { path: ADMIN_STOCK_EXIT_PATH, anchor: 'entradas-y-salidas' },
  // The kardex (and its CSV): where the average cost is explained.
  { path: `${ADMIN_PRODUCTS_PATH}/movimientos`, anchor: 'costo-promedio' },
  { path: ADMIN_PRODUCTS_PATH, anchor: 'productos' },
  { path: ADMIN_ORDERS_PATH, anchor: 'pedidos' },
  { path: ADMIN_TEAM_PATH, anchor: 'usuarios' },
  // "Pagos" lives under "Ventas".
  { path: ADMIN_SALES_PATH, anchor: 'ventas' },
  { path: ADMIN_REPORTS_PATH, anchor: 'reportes' },
  { path: ADMIN_SETTINGS_PATH, anchor: 'configuraciones' },
  { path: ADMIN_CHANNELS_PATH, anchor: 'canales' },
  { path: ADMIN_CATEGORIES_PATH, anchor: 'categorias' },
  { path: ADMIN_PROMOTIONS_PATH, anchor: 'descuentos' },
  { path: ADMIN_MARKETING_PATH, anchor: 'marketing' },
  { path: ADMIN_MESSAGES_PATH, anchor: 'mensajes' },
  { path: ADMIN_SEO_PATH, anchor: 'seo' },
  { path: ADMIN_PROFILE_PATH, anchor: 'perfil' },
  { path: ADMIN_SECURITY_PATH, anchor: 'seguridad' },
]

/**
 * The "?" of the header: the guide at the part about the page at `pathname`. The dashboard goes to
 * "Inicio"; the guide itself, an unknown page or anything outside `/admin`, to the guide's top.
 */
export function helpHrefFor(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  if (path === ADMIN_PATH) return `${ADMIN_HELP_PATH}#inicio`
  const rule = HELP_PATH_RULES.find((entry) => path === entry.path || path.startsWith(`${entry.path}/`))
  return rule ? `${ADMIN_HELP_PATH}#${rule.anchor}` : ADMIN_HELP_PATH
}

/**
 * Top bar of the admin area: greeting with the admin's name and picture, the "?" to this page's part
 * of the guide (a plain link, so it works before scripts run), menu button on phones.
 */
export function AdminHeader({
  user,
  menuOpen,
  onToggleMenu,
}: {
  user: AdminHeaderUser
  menuOpen: boolean
  onToggleMenu: () => void
}) {
  const name = user.displayName ?? user.email
  const { pathname } = useLocation()
  return (
    <header className="sticky top-0 z-30 border-b border-brand-100 bg-white/95 backdrop-blur">
      <div className="flex items-center gap-3 px-4 py-3">
        <button
          type="button"
          className="rounded-lg p-2 text-brand-700 hover:bg-brand-50 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="admin-sidebar"
          aria-label={menuOpen ? 'Cerrar menú' : 'Abrir menú'}
          onClick={onToggleMenu}
          data-testid="admin-menu-toggle"
        >
          {menuOpen ? (
            <X className="size-6" aria-hidden="true" />
          ) : (
            <Menu className="size-6" aria-hidden="true" />
          )}
        </button>
        <Link
          to="/admin"
          aria-label="Administración: inicio"
          className="flex shrink-0 items-center gap-2 font-semibold text-brand-700"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" />
          <span className="hidden sm:inline">Administración</span>
        </Link>
        <div className="ml-auto flex min-w-0 items-center gap-3">
          <Link
            to={helpHrefFor(pathname)}
            aria-label="Ayuda de esta sección"
            title="Ayuda de esta sección"
            className="flex size-9 shrink-0 items-center justify-center rounded-full border border-brand-200 text-lg font-semibold text-brand-700 hover:bg-brand-50"
            data-testid="admin-help-link"
          >
            <span aria-hidden="true">?</span>
          </Link>
          <p className="truncate text-sm sm:text-base" data-testid="admin-greeting">
            Hola, <strong>{name}</strong>
          </p>
          <Avatar name={name} pictureUrl={user.pictureUrl} />
        </div>
      </div>
    </header>
  )
}

export function Avatar({
  name,
  pictureUrl,
  size = 36,
}: {
  name: string
  pictureUrl: string | null
  size?: number
}) {
  if (pictureUrl) {
    return (
      <img
        src={pictureUrl}
        alt={`Foto de ${name}`}
        width={size}
        height={size}
        referrerPolicy="no-referrer"
        className="shrink-0 rounded-full object-cover"
        style={{ width: size, height: size }}
        data-testid="admin-avatar"
      />
    )
  }
  return (
    <span
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-full bg-brand-600 font-semibold text-white"
      style={{ width: size, height: size }}
    >
      {name.charAt(0).toUpperCase()}
    </span>
  )
}
