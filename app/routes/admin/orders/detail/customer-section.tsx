import { Link } from 'react-router'
import { documentText } from '#app/modules/order/delivery-place.ts'
import { MUNICIPALITY_MESSAGES } from '#app/modules/order/delivery-place.ts'
import { adminOrderPath } from '#app/utils/admin-paths.ts'
import type { DeskOrderView } from './desk-view.ts'
import { MunicipalityForm } from './municipality-form.tsx'
import { Section } from './section.tsx'

/**
 * Who ordered, where it goes (department and DANE municipality, and the city as the shopper wrote
 * it when that says more), and how their earlier orders with this phone ended. An order without its
 * municipality asks the owner to pick it (a role without `orders` only reads that it has none).
 */
export function CustomerSection({
  order,
  canSetMunicipality,
  busy,
}: {
  order: DeskOrderView
  canSetMunicipality: boolean
  busy: boolean
}) {
  const { place } = order
  const document = documentText(order.customerIdentificationType, order.customerIdentificationNumber)
  return (
    <Section title="Cliente" testId="order-customer">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-gray-600">Nombre</dt>
        <dd>
          {order.customerName} {order.customerLastName}
        </dd>
        {document ? (
          <>
            <dt className="text-gray-600">Documento</dt>
            <dd data-testid="order-document">{document}</dd>
          </>
        ) : null}
        <dt className="text-gray-600">Teléfono</dt>
        <dd>{order.customerPhone}</dd>
        <dt className="text-gray-600">Correo</dt>
        <dd className="break-all">{order.customerEmail || '—'}</dd>
        <dt className="text-gray-600">Dirección</dt>
        <dd>{order.customerAddress}</dd>
        <dt className="text-gray-600">Departamento</dt>
        <dd data-testid="order-department">{place.departmentName || '—'}</dd>
        {place.municipalityCode ? (
          <>
            <dt className="text-gray-600">Municipio</dt>
            <dd data-testid="order-municipality">
              {place.municipalityName} ({place.municipalityCode})
            </dd>
          </>
        ) : null}
        {place.typedCity !== null ? (
          <>
            <dt className="text-gray-600">Ciudad (escrita por el cliente)</dt>
            <dd data-testid="order-typed-city">{place.typedCity || '—'}</dd>
          </>
        ) : null}
        <dt className="text-gray-600">IP del cliente</dt>
        <dd data-testid="order-client-address">{order.clientAddress ?? '—'}</dd>
      </dl>
      {place.municipalityCode ? null : canSetMunicipality ? (
        <MunicipalityForm order={order} busy={busy} />
      ) : (
        <p
          className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-900"
          data-testid="order-municipality-missing"
        >
          {MUNICIPALITY_MESSAGES.missing}
        </p>
      )}
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
