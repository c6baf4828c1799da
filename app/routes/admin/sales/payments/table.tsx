import { Fragment } from 'react'
import { Link, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { dangerButtonClass } from '#app/components/admin/form-message.tsx'
import {
  PAYMENT_FLAG_MESSAGES,
  PAYMENT_PROVIDER_LABELS,
  paymentMethodLabel,
  paymentStatusLabel,
  refundStatusLabel,
} from '#app/modules/payment/reconciliation.ts'
import type { LedgerRow } from '#app/modules/payment/reconciliation.server.ts'
import { adminOrderPath } from '#app/utils/admin-paths.ts'
import { formatCOP } from '#app/utils/money.ts'

/** What "Reembolsar" asks before posting (where scripts run; a plain post asks nothing). */
export const refundConfirm = (row: Pick<LedgerRow, 'amount' | 'orderNumber' | 'provider'>) =>
  `¿Reembolsar ${formatCOP(row.amount)} del pedido #${row.orderNumber} en ${PAYMENT_PROVIDER_LABELS[row.provider]}?`

const cellClass =
  'px-3 py-2 whitespace-nowrap max-sm:flex max-sm:justify-between max-sm:gap-3 max-sm:px-0 max-sm:py-0.5 max-sm:whitespace-normal max-sm:before:text-gray-600 max-sm:before:content-[attr(data-label)]'
const moneyClass = `${cellClass} text-right tabular-nums`

const COLUMNS = [
  { label: 'Fecha' },
  { label: 'Pedido' },
  { label: 'Proveedor' },
  { label: 'Medio' },
  { label: 'Estado' },
  { label: 'Monto', money: true },
  { label: 'Comisión', money: true },
  { label: 'Neto', money: true },
] as const

/** "Reembolsar" as a plain form post to this page (filters kept), asking first where scripts run. */
function RefundForm({ row }: { row: LedgerRow }) {
  const navigation = useNavigation()
  const sending =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'reembolsar' &&
    navigation.formData.get('paymentId') === row.providerPaymentId
  return (
    <AdminForm
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(refundConfirm(row))) event.preventDefault()
      }}
    >
      <input type="hidden" name="intent" value="reembolsar" />
      <input type="hidden" name="provider" value={row.provider} />
      <input type="hidden" name="paymentId" value={row.providerPaymentId} />
      <button
        type="submit"
        className={dangerButtonClass}
        disabled={sending}
        aria-label={`Reembolsar el pago ${row.providerPaymentId} del pedido #${row.orderNumber}`}
      >
        Reembolsar
      </button>
    </AdminForm>
  )
}

/** Why a flagged payment needs a person, and the refund: its button, or how it is going. */
function FlagNote({ row }: { row: LedgerRow }) {
  if (!row.flag) return null
  return (
    <div
      role="note"
      data-testid="payment-flag"
      data-flag={row.flag}
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <span className="font-medium">{PAYMENT_FLAG_MESSAGES[row.flag]}</span>
      {row.refundStatus ? (
        <span data-testid="payment-refund-status">{refundStatusLabel(row.refundStatus)}</span>
      ) : row.refundable ? (
        <RefundForm row={row} />
      ) : (
        <span>Devuelve el dinero por transferencia y anótalo en el pedido.</span>
      )}
    </div>
  )
}

/**
 * Every payment of the range: a table on wide screens; on a phone each payment becomes a card with
 * its own labels (the same markup, as the "Ventas" tables). A flagged payment carries its note on a
 * row of its own, under it.
 */
export function PaymentsTable({ rows }: { rows: LedgerRow[] }) {
  return (
    <div
      role="region"
      aria-label="Pagos"
      tabIndex={0}
      className="rounded-xl border border-brand-100 bg-white shadow-sm focus:ring-2 focus:ring-brand-200 focus:outline-none sm:overflow-x-auto"
    >
      <table data-testid="payments-table" className="min-w-full text-sm max-sm:block">
        <thead className="bg-brand-50 text-left text-xs text-gray-700 max-sm:sr-only">
          <tr>
            {COLUMNS.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={`px-3 py-2 font-medium ${'money' in column ? 'text-right' : ''}`}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-brand-50 max-sm:block">
          {rows.map((row) => (
            <Fragment key={`${row.provider}|${row.providerPaymentId}`}>
              <tr
                data-testid="payment-row"
                data-id={row.providerPaymentId}
                data-provider={row.provider}
                data-flag={row.flag ?? undefined}
                className={`max-sm:block max-sm:p-3 ${row.flag ? 'bg-amber-50/40' : ''}`}
              >
                <td data-label="Fecha" className={`${cellClass} tabular-nums`}>
                  {row.created}
                </td>
                <td data-label="Pedido" className={cellClass}>
                  <Link to={adminOrderPath(row.orderId)} className="font-medium text-brand-700 underline">
                    #{row.orderNumber}
                  </Link>
                </td>
                <td data-label="Proveedor" className={cellClass}>
                  {PAYMENT_PROVIDER_LABELS[row.provider]}
                </td>
                <td data-label="Medio" className={cellClass}>
                  {paymentMethodLabel(row.method)}
                </td>
                <td data-label="Estado" className={cellClass} data-testid="payment-status">
                  {paymentStatusLabel(row.status)}
                </td>
                <td data-label="Monto" className={moneyClass}>
                  {formatCOP(row.amount)}
                </td>
                <td data-label="Comisión" className={moneyClass}>
                  {row.fee === null ? '—' : formatCOP(row.fee)}
                </td>
                <td data-label="Neto" className={moneyClass}>
                  {row.net === null ? '—' : formatCOP(row.net)}
                </td>
              </tr>
              {row.flag ? (
                <tr data-testid="payment-flag-row" className="max-sm:block">
                  <td colSpan={COLUMNS.length} className="px-3 pb-3 max-sm:block">
                    <FlagNote row={row} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  )
}
