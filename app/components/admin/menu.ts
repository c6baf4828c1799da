import {
  BadgeDollarSign,
  Bell,
  ChartColumn,
  CircleQuestionMark,
  CircleUser,
  ClipboardList,
  House,
  Megaphone,
  Package,
  Percent,
  Search,
  Settings,
  Shield,
  Store,
  Tags,
  Users,
  type LucideIcon,
} from 'lucide-react'
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
  ADMIN_TEAM_PATH,
} from '#app/utils/admin-paths.ts'

export type AdminMenuEntry = {
  label: string
  icon: LucideIcon
  /** The section's page. Without it the entry is not shown (no dead links) until it is built. */
  to?: string
  /** Active only on exactly `to` (the admin home), not on its sub-pages. */
  end?: boolean
}

/**
 * The side menu of the admin area, in the order of spec §2. To open a section, give its entry a
 * `to` (e.g. Productos → '/admin/productos') and add the route under `admin` in app/routes.ts.
 * "Cerrar sesión" always follows the list.
 */
export const ADMIN_MENU: readonly AdminMenuEntry[] = [
  { label: 'Inicio', icon: House, to: ADMIN_PATH, end: true },
  { label: 'Productos', icon: Package, to: ADMIN_PRODUCTS_PATH },
  { label: 'Gestión de pedidos', icon: ClipboardList, to: ADMIN_ORDERS_PATH },
  { label: 'Usuarios', icon: Users, to: ADMIN_TEAM_PATH },
  { label: 'Ventas', icon: BadgeDollarSign, to: ADMIN_SALES_PATH },
  { label: 'Reportes', icon: ChartColumn, to: ADMIN_REPORTS_PATH },
  { label: 'Configuraciones', icon: Settings, to: ADMIN_SETTINGS_PATH },
  // Not in spec §2: the stock mirror to MercadoLibre and Shopify (spec §7), next to the settings.
  { label: 'Canales', icon: Store, to: ADMIN_CHANNELS_PATH },
  { label: 'Categorías', icon: Tags, to: ADMIN_CATEGORIES_PATH },
  { label: 'Descuentos y Promociones', icon: Percent, to: ADMIN_PROMOTIONS_PATH },
  { label: 'Marketing', icon: Megaphone, to: ADMIN_MARKETING_PATH },
  { label: 'SEO', icon: Search, to: ADMIN_SEO_PATH },
  { label: 'Mensajes y Notificaciones', icon: Bell, to: ADMIN_MESSAGES_PATH },
  { label: 'Perfil', icon: CircleUser, to: ADMIN_PROFILE_PATH },
  { label: 'Seguridad', icon: Shield, to: ADMIN_SECURITY_PATH },
  { label: 'Ayuda', icon: CircleQuestionMark, to: ADMIN_HELP_PATH },
]

export const SIGN_OUT_LABEL = 'Cerrar sesión'
