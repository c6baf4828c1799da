import { formatOrderDate } from './order-bits.tsx'

/** One row of a settings page's history: what changed, from what to what, who and when. */
export type HistoryRow = {
  id: number
  oldValue: unknown
  newValue: unknown
  changedBy: string
  changedAt: string
}

/**
 * "Últimos cambios" of a settings page ("Configuraciones", "Mensajes y Notificaciones"): each change
 * labelled and its values worded by the page; a value that did not exist (a banner added or
 * removed) is left out. `testId` names the list and, singular, its rows.
 */
export function ChangeHistory<Row extends HistoryRow>({
  changes,
  labelOf,
  shown,
  testId,
  className,
}: {
  changes: Row[]
  labelOf: (change: Row) => string
  shown: (change: Row, value: unknown) => string
  testId: string
  className: string
}) {
  return (
    <section aria-labelledby={`${testId}-title`} className={className}>
      <h2 id={`${testId}-title`} className="text-lg font-semibold">
        Últimos cambios
      </h2>
      {changes.length === 0 ? (
        <p className="text-sm text-gray-600">Todavía no hay cambios: se usan los valores iniciales.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-brand-50 text-sm" data-testid={`${testId}s`}>
          {changes.map((change) => (
            <li key={change.id} className="flex flex-col gap-1 py-2" data-testid={testId}>
              <div className="flex flex-wrap justify-between gap-2">
                <span className="font-medium">{labelOf(change)}</span>
                <span className="text-gray-600">
                  {formatOrderDate(change.changedAt)} · {change.changedBy}
                </span>
              </div>
              <p className="break-words text-gray-700">
                {change.oldValue === null ? null : (
                  <span className="line-through decoration-gray-400">{shown(change, change.oldValue)}</span>
                )}
                {change.oldValue !== null && change.newValue !== null ? ' → ' : null}
                {change.newValue === null ? null : <span>{shown(change, change.newValue)}</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
