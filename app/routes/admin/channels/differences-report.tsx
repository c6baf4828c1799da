import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import type { DifferencesReport as Report } from '#app/modules/channels/admin-channels.server.ts'
import { RetryButton } from './retry-button.tsx'
import type { Route } from '../+types/channels'

type Summary = Route.ComponentProps['loaderData']['summaries'][number]

/** "Revisar diferencias": one batch of the shop's available units against the channel's. */
export function DifferencesReport({
  report,
  selected,
  busy,
}: {
  report: Report
  selected: Summary
  busy: boolean
}) {
  return (
    <div
      data-testid="differences"
      className="flex flex-col gap-2 rounded-xl border border-brand-100 bg-white p-4 text-sm shadow-sm"
    >
      {report.differences.length > 0 && (
        <ul className="flex flex-col divide-y divide-brand-50">
          {report.differences.map((difference) => (
            <li
              key={difference.sku}
              data-testid="difference"
              className="flex flex-wrap items-center justify-between gap-2 py-2"
            >
              <span className="font-mono break-all">{difference.sku}</span>
              <span className="flex flex-wrap items-center gap-3">
                <span>
                  Tienda: <strong>{difference.available}</strong>
                </span>
                <span>
                  {selected.name}: <strong>{difference.channel}</strong>
                </span>
                <RetryButton channel={selected.channel} sku={difference.sku} label={selected.name} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {report.unchecked.length > 0 && (
        <details>
          <summary className="cursor-pointer">
            {report.unchecked.length} SKU sin cantidad para comparar
          </summary>
          <ul className="mt-1 flex flex-col gap-1">
            {report.unchecked.map((item) => (
              <li key={item.sku}>
                <span className="font-mono">{item.sku}</span>: {item.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {report.total > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-gray-600" data-testid="differences-range">
            Productos {report.first}–{report.last} de {report.total} revisados (por SKU).
          </p>
          {report.next !== null && (
            <AdminForm method="post">
              <input type="hidden" name="intent" value="diferencias" />
              <input type="hidden" name="canal" value={selected.channel} />
              <input type="hidden" name="desde" value={report.next} />
              <button type="submit" className={secondaryButtonClass} disabled={busy}>
                Revisar siguientes
              </button>
            </AdminForm>
          )}
        </div>
      )}
    </div>
  )
}
