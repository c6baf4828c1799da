import { Form, Link, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  FormMessage,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { pageOffset } from '#app/modules/catalog/paging.ts'
import {
  channelDifferences,
  channelsOverview,
  retryChannelSync,
  syncAllProducts,
  type SyncRow,
} from '#app/modules/channels/admin-channels.server.ts'
import {
  CHANNEL_MESSAGES,
  ChannelActionSchema,
  ChannelsQuerySchema,
  SYNC_STATUS_LABELS,
  SYNC_STATUSES,
} from '#app/modules/channels/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { adminChannelsPath } from '#app/utils/admin-paths.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/channels'

/** /admin/canales: how the stock mirror to MercadoLibre and Shopify is doing (spec §7). */

export const meta: Route.MetaFunction = () => [{ title: 'Canales | Administración' }]

export async function loader({ url, context }: Route.LoaderArgs) {
  const query = ChannelsQuerySchema.parse(Object.fromEntries(url.searchParams))
  const offset = pageOffset(url.searchParams.get('desde'))
  const { database, channels } = servicesOf(context)
  const overview = await channelsOverview(database.db, channels, {
    channel: query.canal,
    sku: query.sku,
    status: query.estado,
    offset,
  })
  return { query, ...overview }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  const { database, jobs, channels } = servicesOf(context)
  try {
    const parsed = ChannelActionSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success) throw new Refusal(CHANNEL_MESSAGES.badRequest, { status: 400, standsAlone: true })
    const input = parsed.data
    if (input.intent === 'reintentar') {
      const message = await retryChannelSync({ db: database.db, jobs, channels }, input.canal, input.sku)
      return { ok: true as const, intent: input.intent, message, at: Date.now() }
    }
    if (input.intent === 'sincronizar-todo') {
      const message = await syncAllProducts({ db: database.db, jobs, channels }, input.canal)
      return { ok: true as const, intent: input.intent, message, at: Date.now() }
    }
    const report = await channelDifferences(database.db, channels, input.canal, input.desde)
    return { ok: true as const, intent: input.intent, message: report.message, report, at: Date.now() }
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: CHANNEL_MESSAGES.unexpected })
  }
}

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

function RetryButton({ channel, sku, label }: { channel: string; sku: string; label: string }) {
  return (
    <AdminForm method="post" className="shrink-0">
      <input type="hidden" name="intent" value="reintentar" />
      <input type="hidden" name="canal" value={channel} />
      <input type="hidden" name="sku" value={sku} />
      <button type="submit" className={secondaryButtonClass} aria-label={`Reintentar ${sku} en ${label}`}>
        Reintentar
      </button>
    </AdminForm>
  )
}

export default function AdminChannels({ loaderData, actionData }: Route.ComponentProps) {
  const { query, summaries, syncs } = loaderData
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const selected = summaries.find((summary) => summary.channel === query.canal)!
  const report = actionData && 'report' in actionData ? actionData.report : null
  const pageQuery = { canal: query.canal, sku: query.sku, estado: query.estado }
  const last = syncs.offset + syncs.rows.length

  return (
    <section aria-labelledby="channels-title" className="flex flex-col gap-5">
      <div>
        <h1 id="channels-title" className="text-2xl font-semibold">
          Canales
        </h1>
        <p className="text-sm text-gray-600">
          Cada cambio de unidades disponibles se envía a MercadoLibre y Shopify. Aquí ves el último resultado
          por SKU.
        </p>
      </div>
      <FormMessage
        message={actionData?.message}
        tone={actionData?.ok ? 'success' : 'error'}
        nonce={actionData?.at}
      />

      <ul className="grid gap-3 md:grid-cols-2" data-testid="channel-summaries">
        {summaries.map((summary) => (
          <li
            key={summary.channel}
            data-testid={`channel-${summary.channel}`}
            className={`flex flex-col gap-3 rounded-xl border bg-white p-4 shadow-sm ${
              summary.channel === query.canal ? 'border-brand-500' : 'border-brand-100'
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
      </section>
    </section>
  )
}
