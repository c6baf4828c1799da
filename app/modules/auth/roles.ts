/**
 * The team's roles and what each may do (issue 27). The server enforces this table for every
 * `/admin` request (`requiredPermissionOf`, in the admin middleware) and shapes what loaders return
 * (`costs`, `money`); the menu only mirrors it. Browser-safe: no database, no secrets.
 */
import { ADMIN_PATH } from '#app/utils/paths.ts'

export const ROLES = ['owner', 'sales', 'warehouse'] as const
export type Role = (typeof ROLES)[number]

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Dueño',
  sales: 'Ventas',
  warehouse: 'Bodega',
}

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Todo: también Usuarios, Configuraciones, Canales, costos y márgenes.',
  sales: 'Pedidos, clientes, promociones, ventas y reportes. No ve costos ni márgenes.',
  warehouse: 'Entradas y salidas de inventario, guías de despacho y envíos. No ve cifras de dinero.',
}

export type Permission =
  /** Usuarios, and the sessions and audit of the whole team in Seguridad. */
  | 'team'
  | 'settings'
  | 'channels'
  /** Costs, average cost, margins and the inventory's value at cost. */
  | 'costs'
  /** Prices, totals, payments and every other money figure. */
  | 'money'
  /** Creating and editing products and categories. */
  | 'catalog'
  /** Stock entries and exits. */
  | 'stock'
  /** The order desk: confirm, cancel, payments, invoices, claims. */
  | 'orders'
  /** Packing slips, carrier guías, marking an order shipped. */
  | 'shipping'
  | 'promotions'
  /** "Marketing": catalog feeds, abandoned checkouts, campaigns. */
  | 'marketing'
  /** "Ventas": the sales report and the payments ledger. */
  | 'sales'
  | 'reports'

const EVERYTHING: readonly Permission[] = [
  'team',
  'settings',
  'channels',
  'costs',
  'money',
  'catalog',
  'stock',
  'orders',
  'shipping',
  'promotions',
  'marketing',
  'sales',
  'reports',
]

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: EVERYTHING,
  sales: ['money', 'orders', 'shipping', 'promotions', 'marketing', 'sales', 'reports'],
  warehouse: ['stock', 'shipping'],
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}

export function roleCan(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission)
}

/**
 * Who may open each part of the back office, by address. The first rule whose path is the
 * request's path or one of its parents wins; `null` is any member of the team (the page shapes what
 * it shows by role); `anyOf` lets either permission in. Order matters: sub-paths before parents.
 */
type PathRule = { path: string; anyOf: readonly Permission[] | null }

const rule = (path: string, ...anyOf: Permission[]): PathRule => ({
  path: `${ADMIN_PATH}${path}`,
  anyOf: anyOf.length ? anyOf : null,
})

export const ADMIN_PATH_RULES: readonly PathRule[] = [
  rule('/usuarios', 'team'),
  // Everyone sees their own sessions and sign-ins; the audit log and the exports are the owner's.
  rule('/seguridad/csv', 'team'),
  rule('/configuraciones', 'settings'),
  rule('/mensajes', 'settings'),
  rule('/seo', 'settings'),
  rule('/canales', 'channels'),
  rule('/productos/crear', 'catalog'),
  rule('/productos/editar', 'catalog'),
  rule('/productos/guardar', 'catalog'),
  rule('/productos/entrada', 'stock'),
  rule('/productos/salida', 'stock'),
  // The inventory and the kardex: everyone, without costs or money for whom may not see them.
  rule('/productos'),
  rule('/categorias', 'catalog'),
  rule('/pedidos/guia', 'shipping'),
  rule('/pedidos/guias', 'shipping'),
  rule('/pedidos/guia-transportadora', 'shipping'),
  rule('/pedidos/factura', 'orders'),
  rule('/pedidos/comprobante', 'orders'),
  // The list and the desk: Bodega sees what to pack and ship, without money (the desk's actions
  // other than shipping ask for `orders` themselves).
  rule('/pedidos', 'orders', 'shipping'),
  rule('/descuentos', 'promotions'),
  rule('/marketing', 'marketing'),
  rule('/ventas', 'sales'),
  rule('/reportes', 'reports'),
]

/**
 * The page an address opens as React Router matches it: each segment percent-decoded, letters in
 * any case, and a page's scripts load and post to `{page}.data` (single fetch). Repeated slashes
 * count as one, which only ever asks for more. Any other spelling would slip past the table.
 */
export function adminPageOf(pathname: string): string {
  const decoded = pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment)
      } catch {
        return segment
      }
    })
    .join('/')
  const page = decoded
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\.data$/, '')
  return page.length > 1 ? page.replace(/\/+$/, '') : page
}

/**
 * The permissions that open `pathname` (any one of them), `null` when any team member may, or
 * `undefined` outside `/admin`.
 */
export function requiredPermissionsOf(pathname: string): readonly Permission[] | null | undefined {
  const path = adminPageOf(pathname)
  if (path !== ADMIN_PATH && !path.startsWith(`${ADMIN_PATH}/`)) return undefined
  const found = ADMIN_PATH_RULES.find((entry) => path === entry.path || path.startsWith(`${entry.path}/`))
  return found ? found.anyOf : null
}

export function roleMayOpen(role: Role, pathname: string): boolean {
  const required = requiredPermissionsOf(pathname)
  return !required || required.some((permission) => roleCan(role, permission))
}
