import { Form } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import type { DifferencesReport as Report } from '#app/modules/channels/admin-channels.server.ts'
import { SYNC_STATUS_LABELS, SYNC_STATUSES } from '#app/modules/channels/validators.ts'
import { DifferencesReport } from './differences-report.tsx'
import { SyncList } from './sync-list.tsx'
import type { Route } from '../+types/channels'

type LoaderData = Route.ComponentProps['loaderData']

/** The selected channel's syncs: the differences check, the search and the list. */
export function SyncsSection({
  query,
  syncs,
  selected,
  report,
  busy,
}: {
  query: LoaderData['query']
  syncs: LoaderData['syncs']
  selected: LoaderData['summaries'][number]
  /** The last "Revisar diferencias" answer, if any. */
  report?: Report | null
  busy: boolean
}) {
  return (
    <section aria-labelledby="syncs-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="syncs-title" className="text-xl font-semibold">
          Sincronizaciones con {selected.name}
        </h2>
        {selected.configured && (
          <AdminForm method="post">
            <input type="hidden" name="intent" value="diferencias" />
            <input type="hidden" name="canal" value={selected.channel} />
            <button type="submit" className={primaryButtonClass} disabled={busy}>
              Revisar diferencias
            </button>
          </AdminForm>
        )}
      </div>

      {report && report.channel === selected.channel && (
        <DifferencesReport report={report} selected={selected} busy={busy} />
      )}

      <Form
        method="get"
        className="flex flex-wrap items-end gap-3 rounded-xl border border-brand-100 bg-white p-3 shadow-sm"
      >
        <input type="hidden" name="canal" value={query.canal} />
        <div className="min-w-40 flex-1">
          <label htmlFor="channel-sku" className={labelClass}>
            SKU
          </label>
          <input
            id="channel-sku"
            name="sku"
            defaultValue={query.sku}
            maxLength={64}
            className={inputClass}
            placeholder="Buscar por SKU"
          />
        </div>
        <div className="min-w-36">
          <label htmlFor="channel-status" className={labelClass}>
            Resultado
          </label>
          <select id="channel-status" name="estado" defaultValue={query.estado} className={inputClass}>
            <option value="todos">Todos</option>
            {SYNC_STATUSES.map((status) => (
              <option key={status} value={status}>
                {SYNC_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Buscar
        </button>
      </Form>

      <SyncList query={query} syncs={syncs} selected={selected} />
    </section>
  )
}
