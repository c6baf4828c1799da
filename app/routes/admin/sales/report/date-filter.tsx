import { Form, Link } from 'react-router'
import { Field } from '#app/components/admin/field.tsx'
import { inputClass, primaryButtonClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import type { SalesFilters } from '#app/modules/order/sales-report.ts'
import { ADMIN_SALES_PATH, adminSalesCsvPath } from '#app/utils/admin-paths.ts'

function rangeParams(filters: { from: string; to: string }) {
  return new URLSearchParams({ desde: filters.from, hasta: filters.to })
}

/** The range to report on, and the CSV of that range once it has a report. */
export function DateFilter({ filters, csv }: { filters: SalesFilters; csv: boolean }) {
  const range = rangeParams(filters)
  return (
    <Form
      method="get"
      key={`${filters.from}|${filters.to}`}
      className="flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm sm:flex-row sm:items-end"
      aria-label="Filtrar por fecha"
    >
      <Field id="sales-from" label="Desde" className="sm:w-48">
        <input id="sales-from" name="desde" type="date" defaultValue={filters.from} className={inputClass} />
      </Field>
      <Field id="sales-to" label="Hasta" className="sm:w-48">
        <input id="sales-to" name="hasta" type="date" defaultValue={filters.to} className={inputClass} />
      </Field>
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={primaryButtonClass}>
          Filtrar
        </button>
        <Link to={ADMIN_SALES_PATH} className={secondaryButtonClass}>
          Este mes
        </Link>
        {csv ? (
          <a
            href={adminSalesCsvPath(range)}
            download
            className={secondaryButtonClass}
            data-testid="sales-csv"
          >
            Descargar CSV
          </a>
        ) : null}
      </div>
    </Form>
  )
}
