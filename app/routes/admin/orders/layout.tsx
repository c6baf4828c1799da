import { NavLink, Outlet } from 'react-router'
import { ADMIN_ORDERS_PAID_PATH, ADMIN_ORDERS_PATH, ADMIN_ORDERS_PENDING_PATH } from '#app/utils/paths.ts'

/** /admin/pedidos/*: the header links of spec §2 above every order page. */
const LINKS = [
  { label: 'Lista de pedidos', to: ADMIN_ORDERS_PATH, end: true },
  { label: 'Pagados', to: ADMIN_ORDERS_PAID_PATH },
  { label: 'Pendientes por pagar', to: ADMIN_ORDERS_PENDING_PATH },
]

export default function OrdersLayout() {
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label="Pedidos" data-testid="orders-nav" className="print:hidden">
        <ul className="flex flex-wrap gap-2">
          {LINKS.map(({ label, to, end }) => (
            <li key={label}>
              <NavLink
                to={to}
                end={end}
                className={({ isActive }) =>
                  `inline-block rounded-full px-4 py-1.5 text-sm font-medium ${
                    isActive
                      ? 'bg-brand-600 text-white'
                      : 'border border-brand-200 bg-white text-brand-700 hover:bg-brand-50'
                  }`
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  )
}
