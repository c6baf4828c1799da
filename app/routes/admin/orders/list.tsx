import { Form, Link } from 'react-router'
import { inputClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import {
  Flag,
  formatOrderDate,
  PAYMENT_METHOD_LABELS,
  releaseLabel,
  StatusBadge,
} from '#app/components/admin/order-bits.tsx'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { listDeskOrders } from '#app/modules/order/desk.server.ts'
import { DESK_VIEW_LABELS, DESK_VIEWS, isDeskView, type DeskView } from '#app/modules/order/desk-views.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import {
  ADMIN_ORDERS_PAID_PATH,
  ADMIN_ORDERS_PATH,
  ADMIN_ORDERS_PENDING_PATH,
  ADMIN_PACKING_SLIPS_PATH,
  adminOrderPath,
  adminOrdersPath,
} from '#app/utils/admin-paths.ts'
import type { Route } from './+types/list'

/** /admin/pedidos (filter `ver`), /pagados and /pendientes: one list, three routes. */

export const meta: Route.MetaFunction = () => [{ title: 'Pedidos | Administración' }]

function viewOf(url: URL): DeskView {
  const path = url.pathname.replace(/\/+$/, '')
  if (path === ADMIN_ORDERS_PAID_PATH) return 'pagados'
  if (path === ADMIN_ORDERS_PENDING_PATH) return 'pendientes'
  const ver = url.searchParams.get('ver')
  return isDeskView(ver) ? ver : 'abiertos'
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const { database, env } = servicesOf(context)
  const view = viewOf(url)
  const query = (url.searchParams.get('q') ?? '').slice(0, 80)
  const page = Number(url.searchParams.get('pagina')) || 1
  const list = await listDeskOrders(database.db, { view, query, page }, env.COD_CONFIRMATION_HOURS)
  const now = new Date()
  // Bodega sees what to pack and ship; the totals only whom may see money (issue 27).
  const money = adminCan(signedInAdminOf(context), 'money')
  return {
    view,
    query,
    ...list,
    items: list.items.map(({ releaseAt, total, ...item }) => ({
      ...item,
      ...(money ? { total } : {}),
      release: releaseLabel(releaseAt, now),
    })),
  }
}

const SLIPS_FORM = 'packing-slips'

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { view, query, items, total, page, pageCount } = loaderData
  const columns = ['Pedido', 'Fecha', 'Cliente', 'Ciudad', 'Total', 'Pago', 'Estado', 'Seguimiento'].filter(
    // Without the money figures (the loader sent no totals) there is no "Total" column.
    (column) => column !== 'Total' || items.some((order) => order.total !== undefined),
  )
  const pageLink = (pagina: number) =>
    adminOrdersPath({ ver: view === 'abiertos' ? undefined : view, q: query, pagina })
  return (
    <section aria-labelledby="orders-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 id="orders-title" className="text-2xl font-semibold">
          {view === 'abiertos' ? 'Lista de pedidos' : DESK_VIEW_LABELS[view]}
        </h1>
        <p className="text-sm text-gray-600" data-testid="orders-total">
          {total === 1 ? '1 pedido' : `${total.toLocaleString('es-CO')} pedidos`}
        </p>
      </div>
      <Form
        method="get"
        action={ADMIN_ORDERS_PATH}
        className="flex flex-col gap-2 rounded-xl border border-brand-100 bg-white p-3 shadow-sm sm:flex-row sm:items-end"
        role="search"
      >
        <label className="flex flex-1 flex-col gap-1 text-sm">
          <span className="font-medium">Buscar</span>
          <input
            type="search"
            name="q"
            defaultValue={query}
            placeholder="Número, nombre o teléfono"
            className={inputClass}
            maxLength={80}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Mostrar</span>
          <select name="ver" defaultValue={view} className={inputClass} data-testid="orders-filter">
            {DESK_VIEWS.map((value) => (
              <option key={value} value={value}>
                {DESK_VIEW_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={secondaryButtonClass}>
          Filtrar
        </button>
      </Form>
      {items.length === 0 ? (
        <p data-testid="orders-empty" className="rounded-xl border border-brand-100 bg-white p-6 text-center">
          No hay pedidos para mostrar.
        </p>
      ) : (
        <>
          <form
            id={SLIPS_FORM}
            method="get"
            action={ADMIN_PACKING_SLIPS_PATH}
            target="_blank"
            className="flex justify-end"
          >
            <button type="submit" className={secondaryButtonClass} data-testid="print-selected">
              Imprimir guías de los seleccionados
            </button>
          </form>
          <ul className="flex flex-col gap-3 md:hidden" data-testid="order-cards">
            {items.map((order) => (
              <li
                key={order.id}
                data-testid="order-card"
                className="relative rounded-xl border border-brand-100 bg-white p-3 shadow-sm"
              >
                <div className="flex items-start justify-between gap-2">
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      name="id"
                      value={order.id}
                      form={SLIPS_FORM}
                      className="size-5"
                      aria-label={`Seleccionar pedido #${order.number}`}
                    />
                    <Link
                      to={adminOrderPath(order.id)}
                      className="text-lg font-semibold text-brand-700 underline"
                    >
                      #{order.number}
                    </Link>
                  </label>
                  <StatusBadge status={order.status} />
                </div>
                <p className="mt-1 font-medium">
                  {order.customerName} {order.customerLastName}
                </p>
                <p className="text-sm text-gray-600">
                  {[order.city, order.department].filter(Boolean).join(', ')} ·{' '}
                  {formatOrderDate(order.createdAt)}
                </p>
                <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
                  {order.total === undefined ? null : (
                    <span className="font-semibold">{formatCOP(order.total)}</span>
                  )}
                  <span className="text-gray-600">{PAYMENT_METHOD_LABELS[order.paymentMethod]}</span>
                </p>
                <p className="mt-2 flex flex-wrap gap-1.5">
                  <Flag on={Boolean(order.shippedAt)} label="Enviado" testId="order-shipped" />
                  {order.paymentMethod === 'acordar' ? (
                    <Flag on={Boolean(order.confirmedAt)} label="Confirmado" testId="order-confirmed" />
                  ) : null}
                  {order.release ? (
                    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">
                      {order.release}
                    </span>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-xl border border-brand-100 bg-white shadow-sm md:block">
            <table className="w-full text-left text-sm" data-testid="orders-table">
              <thead className="bg-brand-50 text-xs text-gray-700 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    <span className="sr-only">Seleccionar</span>
                  </th>
                  {columns.map((column) => (
                    <th
                      key={column}
                      scope="col"
                      className={`px-3 py-2${column === 'Total' ? ' text-right' : ''}`}
                    >
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {items.map((order) => (
                  <tr key={order.id} data-testid="order-row" className="border-t border-brand-100 align-top">
                    <td className="px-3 py-2">
                      <input
                        type="checkbox"
                        name="id"
                        value={order.id}
                        form={SLIPS_FORM}
                        className="size-4"
                        aria-label={`Seleccionar pedido #${order.number}`}
                      />
                    </td>
                    <td className="px-3 py-2">
                      <Link to={adminOrderPath(order.id)} className="font-semibold text-brand-700 underline">
                        #{order.number}
                      </Link>
                    </td>
                    <td className="px-3 py-2">{formatOrderDate(order.createdAt)}</td>
                    <td className="px-3 py-2">
                      {order.customerName} {order.customerLastName}
                      <span className="block text-xs text-gray-500">{order.customerPhone}</span>
                    </td>
                    <td className="px-3 py-2">{order.city || '—'}</td>
                    {order.total === undefined ? null : (
                      <td className="px-3 py-2 text-right whitespace-nowrap">{formatCOP(order.total)}</td>
                    )}
                    <td className="px-3 py-2">{PAYMENT_METHOD_LABELS[order.paymentMethod]}</td>
                    <td className="px-3 py-2">
                      <StatusBadge status={order.status} />
                    </td>
                    <td className="px-3 py-2">
                      <span className="flex flex-col items-start gap-1">
                        <Flag on={Boolean(order.shippedAt)} label="Enviado" testId="order-shipped" />
                        {order.paymentMethod === 'acordar' ? (
                          <Flag on={Boolean(order.confirmedAt)} label="Confirmado" testId="order-confirmed" />
                        ) : null}
                        {order.release ? (
                          <span className="text-xs font-medium text-amber-800">{order.release}</span>
                        ) : null}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pageCount > 1 ? (
            <nav aria-label="Páginas" className="flex items-center justify-center gap-3 text-sm">
              {page > 1 ? (
                <Link to={pageLink(page - 1)} className={secondaryButtonClass} rel="prev">
                  Anterior
                </Link>
              ) : null}
              <span data-testid="orders-page">
                Página {page} de {pageCount}
              </span>
              {page < pageCount ? (
                <Link to={pageLink(page + 1)} className={secondaryButtonClass} rel="next">
                  Siguiente
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </section>
  )
}
