import { formatOrderDate, PAYMENT_METHOD_LABELS } from '#app/components/admin/order-bits.tsx'
import { isOnlinePaymentMethod } from '#app/modules/order/payment-methods.ts'
import {
  PAYMENT_PROVIDER_LABELS,
  paymentMethodLabel,
  paymentStatusLabel,
} from '#app/modules/payment/reconciliation.ts'
import type { LedgerRow } from '#app/modules/payment/reconciliation.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { FlagNote } from '#app/components/admin/payment-flag-note.tsx'
import { adminPaymentReceiptPath } from '#app/utils/admin-paths.ts'
import type { DeskOrderView } from './desk-view.ts'
import { Section } from './section.tsx'

/**
 * How it was paid, and whether and how it was shipped and confirmed. For a role that may not see
 * money (`money` false: the loader sent no payment) only the method and the dispatch.
 */
export function PaymentSection({
  order,
  receipt,
  payments,
  money,
}: {
  order: DeskOrderView
  money: boolean
  /** Every payment the ledger holds for the order, flagged when one must be given back. */
  payments: LedgerRow[]
  /** A transfer's receipt, once the buyer uploaded it (its date as the loader sends it). */
  receipt: { uploadedAt: Date | string } | null
}) {
  return (
    <Section title={money ? 'Pago y envío' : 'Despacho'} testId="order-payment">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-gray-600">Método</dt>
        <dd>{PAYMENT_METHOD_LABELS[order.paymentMethod]}</dd>
        {money && isOnlinePaymentMethod(order.paymentMethod) ? (
          <>
            {order.paymentMethod === 'mercadopago' ? (
              <>
                <dt className="text-gray-600">Preferencia</dt>
                <dd className="break-all">{order.paymentPreferenceId ?? '—'}</dd>
              </>
            ) : null}
            <dt className="text-gray-600">Pago</dt>
            <dd className="break-all">
              {order.paymentId ? `${order.paymentId} (${order.paymentStatus ?? 'sin estado'})` : '—'}
            </dd>
          </>
        ) : null}
        {money && order.paymentMethod === 'transferencia' ? (
          <>
            <dt className="text-gray-600">Comprobante</dt>
            <dd data-testid="order-receipt">
              {receipt ? (
                <>
                  Recibido el {formatOrderDate(receipt.uploadedAt)} ·{' '}
                  <a
                    href={adminPaymentReceiptPath(order.id)}
                    target="_blank"
                    rel="noopener"
                    className="font-medium text-brand-700 underline"
                  >
                    Ver comprobante
                  </a>
                </>
              ) : (
                'Sin comprobante todavía'
              )}
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
      {payments.length ? (
        <div className="mt-3 flex flex-col gap-2" data-testid="order-payments">
          <h3 className="text-sm font-medium">Pagos recibidos</h3>
          <ul className="flex flex-col gap-2 text-sm">
            {payments.map((payment) => (
              <li
                key={`${payment.provider}|${payment.providerPaymentId}`}
                data-testid="order-payment-row"
                className="flex flex-col gap-1"
              >
                <span>
                  {PAYMENT_PROVIDER_LABELS[payment.provider]} · {paymentMethodLabel(payment.method)} ·{' '}
                  {paymentStatusLabel(payment.status)} · {formatCOP(payment.amount)}{' '}
                  <span className="break-all text-gray-600">({payment.providerPaymentId})</span>
                </span>
                <FlagNote row={payment} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Section>
  )
}
