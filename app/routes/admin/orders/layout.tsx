import { Outlet } from 'react-router'
import { SectionLinks } from '#app/components/admin/section-links.tsx'
import {
  ADMIN_ORDERS_PAID_PATH,
  ADMIN_ORDERS_PATH,
  ADMIN_ORDERS_PENDING_PATH,
} from '#app/utils/admin-paths.ts'

/** /admin/pedidos/*: the header links of spec §2 above every order page. */
const LINKS = [
  { label: 'Lista de pedidos', to: ADMIN_ORDERS_PATH, end: true },
  { label: 'Pagados', to: ADMIN_ORDERS_PAID_PATH },
  { label: 'Pendientes por pagar', to: ADMIN_ORDERS_PENDING_PATH },
]

export default function OrdersLayout() {
  return (
    <div className="flex flex-col gap-4">
      <SectionLinks label="Pedidos" links={LINKS} testId="orders-nav" className="print:hidden" />
      <Outlet />
    </div>
  )
}
