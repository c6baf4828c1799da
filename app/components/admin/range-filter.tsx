import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { Field } from '#app/components/admin/field.tsx'
import { inputClass, primaryButtonClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'

/**
 * A Bogotá date range to report on ("Desde", "Hasta", and any other filter as `children`), as a
 * plain GET form that works before the scripts run; "Este mes" and the range's CSV once there is one.
 */
export function RangeFilter({
  from,
  to,
  idPrefix,
  label,
  thisMonth,
  csvHref,
  csvTestId,
  children,
}: {
  from: string
  to: string
  /** The inputs' ids: `{idPrefix}-from`, `{idPrefix}-to`. */
  idPrefix: string
  label: string
  /** The page without filters: the current month. */
  thisMonth: string
  /** The CSV of what is shown; null while there is nothing to export. */
  csvHref: string | null
  csvTestId: string
  children?: ReactNode
}) {
  return (
    <Form
      method="get"
      className="flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm sm:flex-row sm:flex-wrap sm:items-end"
      aria-label={label}
    >
      <Field id={`${idPrefix}-from`} label="Desde" className="sm:w-44">
        <input id={`${idPrefix}-from`} name="desde" type="date" defaultValue={from} className={inputClass} />
      </Field>
      <Field id={`${idPrefix}-to`} label="Hasta" className="sm:w-44">
        <input id={`${idPrefix}-to`} name="hasta" type="date" defaultValue={to} className={inputClass} />
      </Field>
      {children}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={primaryButtonClass}>
          Filtrar
        </button>
        <Link to={thisMonth} className={secondaryButtonClass}>
          Este mes
        </Link>
        {csvHref ? (
          <a href={csvHref} download className={secondaryButtonClass} data-testid={csvTestId}>
            Descargar CSV
          </a>
        ) : null}
      </div>
    </Form>
  )
}
