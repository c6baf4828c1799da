import { Form, Link } from 'react-router'
import { Field } from '#app/components/admin/field.tsx'
import { inputClass, primaryButtonClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import {
  PAYMENT_PROVIDER_FILTERS,
  PAYMENT_PROVIDER_LABELS,
  paymentFiltersQuery,
  type PaymentFilters,
  type PaymentProviderFilter,
} from '#app/modules/payment/reconciliation.ts'
import { ADMIN_PAYMENTS_PATH, adminPaymentsCsvPath } from '#app/utils/admin-paths.ts'

const providerLabel = (provider: PaymentProviderFilter) =>
  provider === 'todos' ? 'Todos' : PAYMENT_PROVIDER_LABELS[provider]

/** Dates and provider to list (a plain GET form: works before scripts run), and their CSV. */
export function PaymentsFilter({ filters, csv }: { filters: PaymentFilters; csv: boolean }) {
  return (
    <Form
      method="get"
      key={`${filters.from}|${filters.to}|${filters.provider}`}
      className="flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm sm:flex-row sm:flex-wrap sm:items-end"
      aria-label="Filtrar pagos"
    >
      <Field id="payments-from" label="Desde" className="sm:w-44">
        <input
          id="payments-from"
          name="desde"
          type="date"
          defaultValue={filters.from}
          className={inputClass}
        />
      </Field>
      <Field id="payments-to" label="Hasta" className="sm:w-44">
        <input id="payments-to" name="hasta" type="date" defaultValue={filters.to} className={inputClass} />
      </Field>
      <Field id="payments-provider" label="Proveedor" className="sm:w-44">
        <select
          id="payments-provider"
          name="proveedor"
          defaultValue={filters.provider}
          className={inputClass}
        >
          {PAYMENT_PROVIDER_FILTERS.map((provider) => (
            <option key={provider} value={provider}>
              {providerLabel(provider)}
            </option>
          ))}
        </select>
      </Field>
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={primaryButtonClass}>
          Filtrar
        </button>
        <Link to={ADMIN_PAYMENTS_PATH} className={secondaryButtonClass}>
          Este mes
        </Link>
        {csv ? (
          <a
            href={adminPaymentsCsvPath(paymentFiltersQuery(filters))}
            download
            className={secondaryButtonClass}
            data-testid="payments-csv"
          >
            Descargar CSV
          </a>
        ) : null}
      </div>
    </Form>
  )
}
