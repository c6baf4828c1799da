import { Outlet } from 'react-router'
import { SectionLinks } from '#app/components/admin/section-links.tsx'
import { ADMIN_PRODUCTS_PATH, ADMIN_PRODUCT_CREATE_PATH } from '#app/utils/paths.ts'
import { ADMIN_STOCK_ENTRY_PATH, ADMIN_STOCK_EXIT_PATH } from '#app/utils/admin-paths.ts'

/** /admin/productos/*: the header links of spec §2 above every products page. */
const LINKS = [
  { label: 'Inventario', to: ADMIN_PRODUCTS_PATH, end: true },
  { label: 'Crear producto', to: ADMIN_PRODUCT_CREATE_PATH },
  { label: 'Entrada', to: ADMIN_STOCK_ENTRY_PATH },
  { label: 'Salida', to: ADMIN_STOCK_EXIT_PATH },
]

export default function ProductsLayout() {
  return (
    <div className="flex flex-col gap-4">
      <SectionLinks label="Productos" links={LINKS} testId="products-nav" />
      <Outlet />
    </div>
  )
}
