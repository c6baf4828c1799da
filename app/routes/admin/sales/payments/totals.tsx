import type { ProviderTotals } from '#app/modules/payment/reconciliation.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { formatCOP } from '#app/utils/money.ts'

/** The approved payments per provider: what each provider's own report should add up to. */
export function PaymentTotals({ totals }: { totals: ProviderTotals[] }) {
  if (totals.length === 0) return null
  return (
    <section aria-labelledby="payments-totals-title" className="flex flex-col gap-2">
      <h2 id="payments-totals-title" className="text-lg font-semibold">
        Aprobados por proveedor
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="payments-totals">
        {totals.map((total) => (
          <li
            key={total.provider}
            data-testid="payments-total"
            data-provider={total.provider}
            className="rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
          >
            <p className="font-medium">{total.label}</p>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              <dt className="text-gray-600">Pagos</dt>
              <dd className="text-right tabular-nums">{formatCount(total.count)}</dd>
              <dt className="text-gray-600">Monto</dt>
              <dd className="text-right tabular-nums">{formatCOP(total.amount)}</dd>
              <dt className="text-gray-600">Comisión</dt>
              <dd className="text-right tabular-nums">{formatCOP(total.fee)}</dd>
              <dt className="font-medium text-gray-700">Neto</dt>
              <dd className="text-right font-medium tabular-nums">{formatCOP(total.net)}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  )
}
