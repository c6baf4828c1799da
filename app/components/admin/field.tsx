import type { ReactNode } from 'react'
import { labelClass } from './form-message.tsx'

/**
 * One labelled control of an admin form: the label, the control (given `id`), an optional hint
 * and an optional error, both tied to the control for screen readers by the ids the caller puts in
 * its `aria-describedby` (`fieldHintId(id)`, `fieldErrorId(id)`).
 */
export function Field({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  className?: string
  children: ReactNode
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={fieldHintId(id)} className="mt-1 text-xs text-gray-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={fieldErrorId(id)} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}

export const fieldHintId = (id: string) => `${id}-hint`
export const fieldErrorId = (id: string) => `${id}-error`

/**
 * What a `Field`'s control names in `aria-describedby`: its error when it has one, else its hint
 * when it shows one.
 */
export const fieldDescribedBy = (id: string, error: string | null | undefined, hasHint = false) =>
  error ? fieldErrorId(id) : hasHint ? fieldHintId(id) : undefined
