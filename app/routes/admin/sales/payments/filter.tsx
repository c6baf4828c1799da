import { Field } from '#app/components/admin/field.tsx'
import { inputClass } from '#app/components/admin/form-message.tsx'
import { RangeFilter } from '#app/components/admin/range-filter.tsx'
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
    <RangeFilter
      key={`${filters.from}|${filters.to}|${filters.provider}`}
      from={filters.from}
      to={filters.to}
      idPrefix="payments"
      label="Filtrar pagos"
      thisMonth={ADMIN_PAYMENTS_PATH}
      csvHref={csv ? adminPaymentsCsvPath(paymentFiltersQuery(filters)) : null}
      csvTestId="payments-csv"
    >
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
    </RangeFilter>
  )
}
