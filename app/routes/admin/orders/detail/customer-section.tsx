import { Link } from 'react-router'
import type { DeskOrder } from '#app/modules/order/desk.server.ts'
import { adminOrderPath } from '#app/utils/admin-paths.ts'
import { Section } from './section.tsx'

/** Who ordered, where it goes, and how their earlier orders with this phone ended. */
export function CustomerSection({ order }: { order: DeskOrder }) {
  const place = [order.customerAddress, order.customerCity, order.customerDepartment]
    .filter(Boolean)
    .join(', ')
  return (
    <Section title="Cliente" testId="order-customer">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-gray-600">Nombre</dt>
        <dd>
          {order.customerName} {order.customerLastName}
        </dd>
        <dt className="text-gray-600">Identificación</dt>
        <dd>{order.customerIdentificationNumber || '—'}</dd>
        <dt className="text-gray-600">Teléfono</dt>
        <dd>{order.customerPhone}</dd>
        <dt className="text-gray-600">Correo</dt>
        <dd className="break-all">{order.customerEmail || '—'}</dd>
        <dt className="text-gray-600">Dirección</dt>
        <dd>{place}</dd>
        <dt className="text-gray-600">IP del cliente</dt>
        <dd data-testid="order-client-address">{order.clientAddress ?? '—'}</dd>
      </dl>
      <p className="mt-3 text-sm" data-testid="order-history">
        {order.history.count === 0
          ? 'Primer pedido con este teléfono.'
          : `${order.history.count} ${order.history.count === 1 ? 'pedido anterior' : 'pedidos anteriores'} con este teléfono: ${order.history.cancelled} cancelado${order.history.cancelled === 1 ? '' : 's'}, ${order.history.refused} rechazado${order.history.refused === 1 ? '' : 's'} en la entrega.`}
      </p>
      {order.history.earlier.length ? (
        <ul className="mt-1 flex flex-wrap gap-2 text-sm">
          {order.history.earlier.map((earlier) => (
            <li key={earlier.id}>
              <Link to={adminOrderPath(earlier.id)} className="text-brand-700 underline">
                #{earlier.number}
              </Link>{' '}
              <span className="text-gray-600">({earlier.status})</span>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  )
}
