import { NavLink, Outlet } from 'react-router'
import { COMING_SOON_LABEL } from '#app/components/admin/menu.ts'
import { ADMIN_PRODUCTS_PATH, ADMIN_PRODUCT_CREATE_PATH } from '#app/utils/paths.ts'

/** /admin/productos/*: the header links of spec §2 above every products page. */
const LINKS: { label: string; to?: string; end?: boolean }[] = [
  { label: 'Inventario', to: ADMIN_PRODUCTS_PATH, end: true },
  { label: 'Crear producto', to: ADMIN_PRODUCT_CREATE_PATH },
  // Stock entries and exits come with the inventory-movements work: shown, not linked, until then.
  { label: 'Entrada' },
  { label: 'Salida' },
]

export default function ProductsLayout() {
  return (
    <div className="flex flex-col gap-4">
      <nav aria-label="Productos" data-testid="products-nav">
        <ul className="flex flex-wrap gap-2">
          {LINKS.map(({ label, to, end }) => (
            <li key={label}>
              {to ? (
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
              ) : (
                <span
                  aria-disabled="true"
                  data-testid="products-nav-soon"
                  className="inline-flex cursor-not-allowed items-center gap-2 rounded-full border border-gray-200 bg-gray-50 px-4 py-1.5 text-sm text-gray-500"
                >
                  {label}
                  <span className="rounded-full bg-gray-100 px-2 py-0.5 text-[0.65rem] text-gray-600">
                    {COMING_SOON_LABEL}
                  </span>
                </span>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  )
}
