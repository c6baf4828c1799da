import { formatOrderDate, PAYMENT_METHOD_LABELS } from '#app/components/admin/order-bits.tsx'
import type { DeskOrder } from '#app/modules/order/desk.server.ts'
import { Section } from './section.tsx'

/** How it was paid, and whether and how it was shipped and confirmed. */
export function PaymentSection({ order }: { order: DeskOrder }) {
  return (
    <Section title="Pago y envío" testId="order-payment">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-gray-600">Método</dt>
        <dd>{PAYMENT_METHOD_LABELS[order.paymentMethod]}</dd>
        {order.paymentMethod === 'mercadopago' ? (
          <>
            <dt className="text-gray-600">Preferencia</dt>
            <dd className="break-all">{order.paymentPreferenceId ?? '—'}</dd>
            <dt className="text-gray-600">Pago</dt>
            <dd className="break-all">
              {order.paymentId ? `${order.paymentId} (${order.paymentStatus ?? 'sin estado'})` : '—'}
            </dd>
          </>
        ) : null}
        <dt className="text-gray-600">Enviado</dt>
        <dd>{order.shippedAt ? formatOrderDate(order.shippedAt) : 'No'}</dd>
        {order.shippedAt ? (
          <>
            <dt className="text-gray-600">Transportadora</dt>
            <dd data-testid="order-carrier">{order.carrier ?? '—'}</dd>
            <dt className="text-gray-600">Guía</dt>
            <dd data-testid="order-tracking">{order.trackingNumber ?? '—'}</dd>
          </>
        ) : null}
        {order.confirmedAt ? (
          <>
            <dt className="text-gray-600">Confirmado</dt>
            <dd>{formatOrderDate(order.confirmedAt)}</dd>
          </>
        ) : null}
      </dl>
    </Section>
  )
}
