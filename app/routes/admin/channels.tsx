import { useNavigation } from 'react-router'
import { ActionMessage } from '#app/components/admin/form-message.tsx'
import { pageOffset } from '#app/modules/catalog/paging.ts'
import {
  channelDifferences,
  channelsOverview,
  retryChannelSync,
  syncAllProducts,
} from '#app/modules/channels/admin-channels.server.ts'
import {
  CHANNEL_MESSAGES,
  ChannelActionSchema,
  ChannelsQuerySchema,
} from '#app/modules/channels/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { ChannelSummaries } from './channels/channel-summaries.tsx'
import { SyncsSection } from './channels/syncs-section.tsx'
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
      return successAnswer(message, { intent: input.intent })
    }
    if (input.intent === 'sincronizar-todo') {
      const message = await syncAllProducts({ db: database.db, jobs, channels }, input.canal)
      return successAnswer(message, { intent: input.intent })
    }
    const report = await channelDifferences(database.db, channels, input.canal, input.desde)
    return successAnswer(report.message, { intent: input.intent, report })
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: CHANNEL_MESSAGES.unexpected })
  }
}

export default function AdminChannels({ loaderData, actionData }: Route.ComponentProps) {
  const { query, summaries, syncs } = loaderData
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const selected = summaries.find((summary) => summary.channel === query.canal)!
  const report = actionData && 'report' in actionData ? actionData.report : null

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
      <ActionMessage answer={actionData} />

      <ChannelSummaries summaries={summaries} selected={query.canal} busy={busy} />

      <SyncsSection query={query} syncs={syncs} selected={selected} report={report} busy={busy} />
    </section>
  )
}
