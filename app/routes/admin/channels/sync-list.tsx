import { Link } from 'react-router'
import { secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import type { SyncRow } from '#app/modules/channels/admin-channels.server.ts'
import { SYNC_STATUS_LABELS } from '#app/modules/channels/validators.ts'
import { adminChannelsPath } from '#app/utils/admin-paths.ts'
import { RetryButton } from './retry-button.tsx'
import type { Route } from '../+types/channels'

type LoaderData = Route.ComponentProps['loaderData']

const STATUS_TONES: Record<SyncRow['status'], string> = {
  ok: 'bg-green-50 text-green-800 border-green-200',
  failed: 'bg-red-50 text-red-800 border-red-200',
  'not-listed': 'bg-amber-50 text-amber-800 border-amber-200',
  skipped: 'bg-gray-50 text-gray-700 border-gray-200',
}

function StatusBadge({ status }: { status: SyncRow['status'] }) {
  return (
    <span
      data-testid="sync-status"
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${STATUS_TONES[status]}`}
    >
      {SYNC_STATUS_LABELS[status]}
    </span>
  )
}

/** One page of the selected channel's last push per SKU, and the links to the other pages. */
export function SyncList({
  query,
  syncs,
  selected,
}: {
  query: LoaderData['query']
  syncs: LoaderData['syncs']
  selected: LoaderData['summaries'][number]
}) {
  const pageQuery = { canal: query.canal, sku: query.sku, estado: query.estado }
  const last = syncs.offset + syncs.rows.length
  return (
    <>
      {syncs.rows.length === 0 ? (
        <p
          data-testid="syncs-empty"
          className="rounded-xl border border-brand-100 bg-white p-6 text-center text-sm"
        >
          {query.sku || query.estado !== 'todos'
            ? 'Ninguna sincronización coincide con la búsqueda.'
            : `Todavía no se ha sincronizado ningún SKU con ${selected.name}.`}
        </p>
      ) : (
        <ul
          className="flex flex-col divide-y divide-brand-50 rounded-xl border border-brand-100 bg-white shadow-sm"
          data-testid="sync-list"
        >
          {syncs.rows.map((row) => (
            <li
              key={row.sku}
              data-testid="sync-row"
              className="flex flex-col gap-1.5 p-3 md:grid md:grid-cols-[12rem_8rem_5rem_1fr_auto] md:items-center md:gap-4"
            >
              <div className="flex flex-wrap items-center gap-2 md:contents">
                <span className="font-mono text-sm break-all" data-testid="sync-sku">
                  {row.sku}
                </span>
                <span>
                  <StatusBadge status={row.status} />
                </span>
                <span
                  className={`text-sm ${row.quantity === null ? 'hidden md:inline' : ''}`}
                  data-testid="sync-quantity"
                >
                  {row.quantity === null ? '—' : `${row.quantity} u.`}
                </span>
              </div>
              <span className="min-w-0 text-sm text-gray-700">
                <span className={`break-words ${row.status === 'failed' ? 'text-red-800' : ''}`}>
                  {row.message}
                </span>
                <span className="block text-xs text-gray-500">{row.at}</span>
              </span>
              {selected.configured ? (
                <span className="self-start md:self-auto">
                  <RetryButton channel={selected.channel} sku={row.sku} label={selected.name} />
                </span>
              ) : (
                <span className="hidden md:block" />
              )}
            </li>
          ))}
        </ul>
      )}

      {syncs.total > 0 && (
        <nav aria-label="Páginas" className="flex items-center justify-between gap-3 text-sm">
          <span data-testid="syncs-range">
            {syncs.offset + 1}–{last} de {syncs.total}
          </span>
          <span className="flex gap-2">
            {syncs.offset > 0 && (
              <Link
                className={secondaryButtonClass}
                to={adminChannelsPath({
                  ...pageQuery,
                  desde: Math.max(0, syncs.offset - syncs.pageSize),
                })}
              >
                Anterior
              </Link>
            )}
            {last < syncs.total && (
              <Link className={secondaryButtonClass} to={adminChannelsPath({ ...pageQuery, desde: last })}>
                Siguiente
              </Link>
            )}
          </span>
        </nav>
      )}
    </>
  )
}
