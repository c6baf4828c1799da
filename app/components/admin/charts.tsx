import { scaleLinear } from 'd3-scale'

/**
 * Back-office charts drawn as plain HTML on the server (ADR 0011): they show before any JavaScript
 * runs, stay readable at 390 px (text is never scaled down with the drawing, as an SVG viewBox would),
 * and add nothing to the storefront. d3-scale only picks round axis ticks.
 */

export type ChartPoint = { label: string; value: number }
export type BarListItem = { label: string; value: number; detail?: string }

/** A share of the axis as a CSS percentage; a flat axis (all zero) draws nothing. */
function percent(value: number, span: number): string {
  return span === 0 ? '0%' : `${(value / span) * 100}%`
}

/** Vertical bars over time (days, months). Negative values hang below the zero line. */
export function ColumnChart({
  title,
  points,
  formatValue,
  emptyText = 'Sin datos en este periodo.',
}: {
  title: string
  points: readonly ChartPoint[]
  formatValue: (value: number) => string
  emptyText?: string
}) {
  const values = points.map((point) => point.value)
  const scale = scaleLinear()
    .domain([Math.min(0, ...values), Math.max(0, ...values)])
    .nice(4)
  const [bottom = 0, top = 0] = scale.domain()
  const span = top - bottom
  const ticks = span === 0 ? [0] : scale.ticks(4)
  // Room for about eight labels under the axis: every k-th is written, all are in each bar's title.
  const labelEvery = Math.max(1, Math.ceil(points.length / 8))
  const summary = points.map((point) => `${point.label}: ${formatValue(point.value)}`).join(', ')
  return (
    <figure className="rounded-lg border border-gray-200 bg-white p-4">
      <figcaption className="mb-3 text-sm font-semibold text-ink">{title}</figcaption>
      {points.length === 0 ? (
        <p className="text-sm text-gray-600">{emptyText}</p>
      ) : (
        <div className="flex gap-2" role="img" aria-label={`${title}. ${summary}`}>
          <div className="relative h-48 w-16 shrink-0 text-right text-xs text-gray-600" aria-hidden="true">
            {ticks.map((tick) => (
              <span
                key={tick}
                className="absolute right-0 translate-y-1/2 whitespace-nowrap"
                style={{ bottom: percent(tick - bottom, span) }}
              >
                {formatValue(tick)}
              </span>
            ))}
          </div>
          <div className="min-w-0 flex-1" aria-hidden="true">
            <div className="relative h-48 border-b border-l border-gray-300">
              {ticks.map((tick) => (
                <div
                  key={tick}
                  className="absolute inset-x-0 border-t border-dashed border-gray-200"
                  style={{ bottom: percent(tick - bottom, span) }}
                />
              ))}
              <div className="absolute inset-0 flex items-stretch gap-px">
                {points.map((point) => (
                  <div
                    key={point.label}
                    className="relative flex-1"
                    title={`${point.label}: ${formatValue(point.value)}`}
                  >
                    <div
                      className={`absolute inset-x-0 rounded-t-sm ${point.value < 0 ? 'bg-red-400' : 'bg-brand-500'}`}
                      style={{
                        bottom: percent(Math.min(0, point.value) - bottom, span),
                        height: percent(Math.abs(point.value), span),
                      }}
                    />
                  </div>
                ))}
              </div>
            </div>
            <div className="mt-1 flex gap-px text-[11px] text-gray-600">
              {points.map((point, index) => (
                // A label takes no width of its own (centred under its bar, free to run over the
                // unlabelled neighbours): with many bars the gaps alone fill a phone's width.
                <span key={point.label} className="relative h-4 min-w-0 flex-1">
                  {index % labelEvery === 0 ? (
                    <span className="absolute left-1/2 -translate-x-1/2 whitespace-nowrap">
                      {point.label}
                    </span>
                  ) : null}
                </span>
              ))}
            </div>
          </div>
        </div>
      )}
    </figure>
  )
}

/** Horizontal bars with their figures, largest first as given: clicks per element, visits per page. */
export function BarList({
  title,
  items,
  formatValue,
  emptyText = 'Sin datos en este periodo.',
}: {
  title: string
  items: readonly BarListItem[]
  formatValue: (value: number) => string
  emptyText?: string
}) {
  const largest = Math.max(0, ...items.map((item) => item.value))
  return (
    <figure className="rounded-lg border border-gray-200 bg-white p-4">
      <figcaption className="mb-3 text-sm font-semibold text-ink">{title}</figcaption>
      {items.length === 0 ? (
        <p className="text-sm text-gray-600">{emptyText}</p>
      ) : (
        <ul className="space-y-2">
          {items.map((item) => (
            <li key={item.label} className="text-sm">
              <div className="flex items-baseline justify-between gap-3">
                <span className="min-w-0 truncate text-gray-800" title={item.label}>
                  {item.label}
                </span>
                <span className="shrink-0 font-medium text-ink tabular-nums">
                  {formatValue(item.value)}
                  {item.detail ? <span className="ml-2 font-normal text-gray-600">{item.detail}</span> : null}
                </span>
              </div>
              <div className="mt-1 h-2 rounded-full bg-gray-100" aria-hidden="true">
                <div
                  className="h-2 rounded-full bg-brand-500"
                  style={{ width: percent(Math.max(0, item.value), largest) }}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </figure>
  )
}
