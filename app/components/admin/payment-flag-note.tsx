import { useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { dangerButtonClass } from '#app/components/admin/form-message.tsx'
import {
  PAYMENT_FLAG_MESSAGES,
  PAYMENT_PROVIDER_LABELS,
  refundStatusLabel,
} from '#app/modules/payment/reconciliation.ts'
import type { LedgerRow } from '#app/modules/payment/reconciliation.server.ts'
import { formatCOP } from '#app/utils/money.ts'

/** What "Reembolsar" asks before posting (where scripts run; a plain post asks nothing). */
export const refundConfirm = (row: Pick<LedgerRow, 'amount' | 'orderNumber' | 'provider'>) =>
  `¿Reembolsar ${formatCOP(row.amount)} del pedido #${row.orderNumber} en ${PAYMENT_PROVIDER_LABELS[row.provider]}?`

/**
 * "Reembolsar" as a plain form post to the page it is on ("Pagos" with its filters, or the order's
 * desk), asking first where scripts run.
 */
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
export function FlagNote({ row }: { row: LedgerRow }) {
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
