import { Fragment } from 'react'
import { Link } from 'react-router'
import { FlagNote } from '#app/components/admin/payment-flag-note.tsx'
import {
  PAYMENT_PROVIDER_LABELS,
  paymentMethodLabel,
  paymentStatusLabel,
} from '#app/modules/payment/reconciliation.ts'
import type { LedgerRow } from '#app/modules/payment/reconciliation.server.ts'
import { adminOrderPath } from '#app/utils/admin-paths.ts'
import { formatCOP } from '#app/utils/money.ts'

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
