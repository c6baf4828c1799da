import { NavLink, Outlet } from 'react-router'
import {
  ADMIN_PRODUCTS_PATH,
  ADMIN_PRODUCT_CREATE_PATH,
  ADMIN_STOCK_ENTRY_PATH,
  ADMIN_STOCK_EXIT_PATH,
} from '#app/utils/paths.ts'

/** /admin/productos/*: the header links of spec §2 above every products page. */
const LINKS: { label: string; to: string; end?: boolean }[] = [
  { label: 'Inventario', to: ADMIN_PRODUCTS_PATH, end: true },
  { label: 'Crear producto', to: ADMIN_PRODUCT_CREATE_PATH },
  { label: 'Entrada', to: ADMIN_STOCK_ENTRY_PATH },
  { label: 'Salida', to: ADMIN_STOCK_EXIT_PATH },
]

export default function ProductsLayout() {
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label="Productos" data-testid="products-nav">
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
