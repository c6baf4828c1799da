import { LogOut } from 'lucide-react'
import { NavLink } from 'react-router'
import { AdminForm } from './admin-form.tsx'
import { ADMIN_MENU, SIGN_OUT_LABEL, type AdminMenuEntry } from './menu.ts'
import { LOGOUT_PATH } from '#app/utils/paths.ts'
import { roleMayOpen, type Role } from '#app/modules/auth/roles.ts'

const itemClass = 'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm'

/** Issue 4: sections that are not built yet are not shown at all, so the menu has no dead links. */
const LIVE_SECTIONS = ADMIN_MENU.filter((entry): entry is AdminMenuEntry & { to: string } =>
  Boolean(entry.to),
)

/**
 * The admin side menu: the live sections in spec §2 order that the admin's role may open (the
 * server refuses the others whatever the menu shows), then sign-out.
 */
export function AdminSidebar({ role, onNavigate }: { role: Role; onNavigate?: () => void }) {
  return (
    <nav aria-label="Menú de administración" data-testid="admin-menu">
      <ul className="flex flex-col gap-0.5">
        {LIVE_SECTIONS.filter((entry) => roleMayOpen(role, entry.to)).map(
          ({ label, icon: Icon, to, end }) => (
            <li key={label}>
              <NavLink
                to={to}
                end={end}
                onClick={onNavigate}
                className={({ isActive }) =>
                  `${itemClass} font-medium ${isActive ? 'bg-brand-600 text-white' : 'text-ink hover:bg-brand-100'}`
                }
              >
                <Icon className="size-5 shrink-0" aria-hidden="true" />
                {label}
              </NavLink>
            </li>
          ),
        )}
        <li className="mt-2 border-t border-brand-100 pt-2">
          <AdminForm method="post" action={LOGOUT_PATH}>
            <button type="submit" className={`${itemClass} font-medium text-red-700 hover:bg-red-50`}>
              <LogOut className="size-5 shrink-0" aria-hidden="true" />
              {SIGN_OUT_LABEL}
            </button>
          </AdminForm>
        </li>
      </ul>
    </nav>
  )
}
