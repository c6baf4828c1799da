import { and, count, desc, eq, ilike, ne, sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { STOCK_CHANNELS, stockSyncKey, type JobQueue, type StockChannel } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { CHANNEL_NAMES, type ChannelQuantity } from './channel.server.ts'
import { channelSyncs, type SyncStatus } from './schema.ts'
import type { StockChannels } from './stock-sync.server.ts'
import { CHANNEL_IDS, CHANNEL_MESSAGES } from './validators.ts'

// The page's list of channels is the queue's.
const _sameChannels: readonly StockChannel[] = CHANNEL_IDS
void _sameChannels

export const SYNCS_PAGE_SIZE = 25
/** "Revisar diferencias" reads at most this many SKUs from a channel per press. */
export const DIFFERENCES_LIMIT = 200
const RECENT_FAILURES = 3

const dateFormat = new Intl.DateTimeFormat('es-CO', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'America/Bogota',
})

export type SyncRow = {
  sku: string
  status: SyncStatus
  quantity: number | null
  message: string
  at: string
}

const toRow = (row: typeof channelSyncs.$inferSelect): SyncRow => ({
  sku: row.sku,
  status: row.status,
  quantity: row.quantity,
  message: row.message,
  at: dateFormat.format(row.at),
})

export type ChannelsQuery = {
  channel: StockChannel
  sku: string
  status: SyncStatus | 'todos'
  offset: number
}

/** Per channel: configured or not, how its last pushes went, the latest failures; and one channel's list. */
export async function channelsOverview(db: DbOrTx, channels: StockChannels, query: ChannelsQuery) {
  const counts = await db
    .select({ channel: channelSyncs.channel, status: channelSyncs.status, n: count() })
    .from(channelSyncs)
    .groupBy(channelSyncs.channel, channelSyncs.status)
  const summaries = []
  for (const channel of STOCK_CHANNELS) {
    const failures = await db
      .select()
      .from(channelSyncs)
      .where(and(eq(channelSyncs.channel, channel), eq(channelSyncs.status, 'failed')))
      .orderBy(desc(channelSyncs.at))
      .limit(RECENT_FAILURES)
    const tally = (status: SyncStatus) =>
      counts.find((row) => row.channel === channel && row.status === status)?.n ?? 0
    summaries.push({
      channel,
      name: CHANNEL_NAMES[channel],
      configured: Boolean(channels[channel]),
      counts: {
        ok: tally('ok'),
        failed: tally('failed'),
        'not-listed': tally('not-listed'),
        skipped: tally('skipped'),
      },
      failures: failures.map(toRow),
    })
  }

  const filters = [eq(channelSyncs.channel, query.channel)]
  if (query.sku) filters.push(ilike(channelSyncs.sku, `%${query.sku.replace(/[\\%_]/g, '\\$&')}%`))
  if (query.status !== 'todos') filters.push(eq(channelSyncs.status, query.status))
  const where = and(...filters)
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(channelSyncs).where(where)
  const rows = await db
    .select()
    .from(channelSyncs)
    .where(where)
    .orderBy(desc(channelSyncs.at), channelSyncs.sku)
    .limit(SYNCS_PAGE_SIZE)
    .offset(query.offset)
  return {
    summaries,
    syncs: { rows: rows.map(toRow), total, offset: query.offset, pageSize: SYNCS_PAGE_SIZE },
  }
}

function configuredClient(channels: StockChannels, channel: StockChannel) {
  const client = channels[channel]
  if (!client) throw new Refusal(CHANNEL_MESSAGES.notConfigured(CHANNEL_NAMES[channel]), { status: 409 })
  return client
}

/** "Reintentar": queues the SKU's sync with the channel again (coalescing with one already waiting). */
export async function retryChannelSync(
  deps: { db: DbOrTx; jobs: JobQueue; channels: StockChannels },
  channel: StockChannel,
  sku: string,
): Promise<string> {
  configuredClient(deps.channels, channel)
  const [product] = await deps.db.select({ sku: products.sku }).from(products).where(eq(products.sku, sku))
  if (!product) throw new Refusal(CHANNEL_MESSAGES.unknownProduct(sku), { status: 404 })
  await deps.jobs.send(
    deps.db,
    'channel-stock-sync',
    { channel, sku: product.sku },
    { singletonKey: stockSyncKey(channel, product.sku) },
  )
  return CHANNEL_MESSAGES.retryQueued(CHANNEL_NAMES[channel], product.sku)
}

export type Difference = { sku: string; available: number; channel: number }
export type Unchecked = { sku: string; available: number; reason: string }

/**
 * "Revisar diferencias": the channel's units for the SKUs it has been sent (those without a listing
 * left out), read in a bounded batch, against the shop's available units now.
 */
export async function channelDifferences(db: DbOrTx, channels: StockChannels, channel: StockChannel) {
  const client = configuredClient(channels, channel)
  const candidates = await db
    .select({
      sku: products.sku,
      available: sql<number>`greatest(${products.stock} - ${products.reserved}, 0)::int`,
    })
    .from(channelSyncs)
    .innerJoin(products, eq(products.sku, channelSyncs.sku))
    .where(and(eq(channelSyncs.channel, channel), ne(channelSyncs.status, 'not-listed')))
    .orderBy(channelSyncs.sku)
    .limit(DIFFERENCES_LIMIT + 1)
  const truncated = candidates.length > DIFFERENCES_LIMIT
  const checked = candidates.slice(0, DIFFERENCES_LIMIT)
  let quantities: Map<string, ChannelQuantity>
  try {
    quantities = await client.readStock(checked.map((row) => row.sku))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Refusal(CHANNEL_MESSAGES.channelUnreachable(CHANNEL_NAMES[channel], reason), {
      status: 502,
      standsAlone: true,
    })
  }
  const differences: Difference[] = []
  const unchecked: Unchecked[] = []
  for (const { sku, available } of checked) {
    const found = quantities.get(sku) ?? { missing: 'sin respuesta del canal' }
    if ('missing' in found) unchecked.push({ sku, available, reason: found.missing })
    else if (found.quantity !== available) differences.push({ sku, available, channel: found.quantity })
  }
  const message =
    checked.length === 0
      ? CHANNEL_MESSAGES.nothingToCheck
      : differences.length === 0
        ? CHANNEL_MESSAGES.noDifferences(checked.length)
        : CHANNEL_MESSAGES.differencesFound(differences.length, checked.length)
  return { channel, checked: checked.length, truncated, differences, unchecked, message }
}
