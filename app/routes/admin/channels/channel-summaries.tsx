import { Link } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { SYNC_STATUS_LABELS, SYNC_STATUSES } from '#app/modules/channels/validators.ts'
import { adminChannelsPath } from '#app/utils/admin-paths.ts'
import { RetryButton } from './retry-button.tsx'
import type { Route } from '../+types/channels'

type Summary = Route.ComponentProps['loaderData']['summaries'][number]

/** One card per channel: configured or not, how its pushes went, its latest failures. */
export function ChannelSummaries({
  summaries,
  selected,
  busy,
}: {
  summaries: Summary[]
  /** The channel whose syncs are listed below: its card is outlined. */
  selected: Summary['channel']
  busy: boolean
}) {
  return (
    <ul className="grid gap-3 md:grid-cols-2" data-testid="channel-summaries">
      {summaries.map((summary) => (
        <li
          key={summary.channel}
          data-testid={`channel-${summary.channel}`}
          className={`flex flex-col gap-3 rounded-xl border bg-white p-4 shadow-sm ${
            summary.channel === selected ? 'border-brand-500' : 'border-brand-100'
          }`}
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">{summary.name}</h2>
            <span
              data-testid="channel-configured"
              className={`rounded-full px-3 py-0.5 text-xs font-medium ${
                summary.configured ? 'bg-green-100 text-green-800' : 'bg-gray-100 text-gray-700'
              }`}
            >
              {summary.configured ? 'Configurado' : 'No configurado'}
            </span>
          </div>
          {!summary.configured && (
            <p className="text-sm text-gray-600">
              {summary.name} no está configurado: sus sincronizaciones se omiten.
            </p>
          )}
          <dl className="flex flex-wrap gap-2 text-sm">
            {SYNC_STATUSES.map((status) => (
              <div key={status} className="flex items-baseline gap-1.5 rounded-full bg-brand-50 px-3 py-1">
                <dt className="text-xs text-gray-600">{SYNC_STATUS_LABELS[status]}</dt>
                <dd className="font-semibold" data-testid={`count-${status}`}>
                  {summary.counts[status].toLocaleString('es-CO')}
                </dd>
              </div>
            ))}
          </dl>
          {summary.configured && (
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span data-testid="never-synced">
                {summary.neverSynced === 0
                  ? 'Todos los productos se han enviado al menos una vez.'
                  : summary.neverSynced === 1
                    ? '1 producto nunca se ha enviado.'
                    : `${summary.neverSynced.toLocaleString('es-CO')} productos nunca se han enviado.`}
              </span>
              <AdminForm method="post">
                <input type="hidden" name="intent" value="sincronizar-todo" />
                <input type="hidden" name="canal" value={summary.channel} />
                <button
                  type="submit"
                  className={secondaryButtonClass}
                  disabled={busy}
                  aria-label={`Sincronizar todo con ${summary.name}`}
                >
                  Sincronizar todo
                </button>
              </AdminForm>
            </div>
          )}
          {summary.failures.length > 0 && (
            <div>
              <h3 className="mb-1 text-sm font-medium text-red-800">Últimas fallas</h3>
              <ul className="flex flex-col gap-2" data-testid="channel-failures">
                {summary.failures.map((failure) => (
                  <li key={failure.sku} className="flex items-start justify-between gap-2 text-sm">
                    <span className="min-w-0 break-words">
                      <span className="font-mono">{failure.sku}</span>:{' '}
                      <span className="text-red-800">{failure.message}</span>
                    </span>
                    {summary.configured && (
                      <RetryButton channel={summary.channel} sku={failure.sku} label={summary.name} />
                    )}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <Link
            to={adminChannelsPath({ canal: summary.channel })}
            className="self-start text-sm font-medium text-brand-700 underline"
          >
            Ver sincronizaciones de {summary.name}
          </Link>
        </li>
      ))}
    </ul>
  )
}
