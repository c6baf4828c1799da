import { and, count, desc, eq, gt, ilike, lte, notExists, sql } from 'drizzle-orm'
import type { Database, DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import {
  STOCK_CHANNEL_NAMES,
  STOCK_CHANNELS,
  stockSyncKey,
  type StockChannel,
} from '#app/jobs/stock-channels.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { ChannelQuantity } from './channel.server.ts'
import { channelSyncs } from './schema.ts'
import type { StockChannels } from './stock-sync.server.ts'
import { CHANNEL_MESSAGES, type SyncStatus } from './validators.ts'
import { availableUnitsSql } from '#app/modules/inventory/stock.server.ts'

export const SYNCS_PAGE_SIZE = 25
/**
 * "Revisar diferencias" reads this many products per press, by SKU, and offers the next batch
 * ("Revisar siguientes"). The reads happen inside the page's request, so a batch must answer well
 * before a proxy gives up, even with a channel that retries: a small batch read a few SKUs at a
 * time (the adapters bound their own parallel calls) keeps it to seconds, and a press always shows
 * its own fresh result, which a background job could not.
 */
export const DIFFERENCES_BATCH = 25
/** "Sincronizar todo" enqueues the jobs of this many products per transaction. */
export const SYNC_ALL_BATCH = 200
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
      name: STOCK_CHANNEL_NAMES[channel],
      configured: Boolean(channels[channel]),
      counts: {
        ok: tally('ok'),
        failed: tally('failed'),
        'not-listed': tally('not-listed'),
        skipped: tally('skipped'),
      },
      neverSynced: await neverSynced(db, channel),
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

/** Products that no push to the channel has recorded yet (e.g. all of them when it was just turned on). */
async function neverSynced(db: DbOrTx, channel: StockChannel): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(products)
    .where(
      notExists(
        db
          .select({ one: sql`1` })
          .from(channelSyncs)
          .where(and(eq(channelSyncs.channel, channel), eq(channelSyncs.sku, products.sku))),
      ),
    )
  return row?.n ?? 0
}

function configuredClient(channels: StockChannels, channel: StockChannel) {
  const client = channels[channel]
  if (!client)
    throw new Refusal(CHANNEL_MESSAGES.notConfigured(STOCK_CHANNEL_NAMES[channel]), { status: 409 })
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
  return CHANNEL_MESSAGES.retryQueued(STOCK_CHANNEL_NAMES[channel], product.sku)
}

/**
 * "Sincronizar todo": queues the channel's sync job for every product, whether it was ever pushed or
 * not (a channel turned on later has nothing until each product's units change). Batches of
 * products go in one transaction each; jobs coalesce per channel and SKU, so pressing twice, or
 * while changes are queueing their own, only pushes the units as they are when each job runs.
 */
export async function syncAllProducts(
  deps: { db: Database['db']; jobs: JobQueue; channels: StockChannels },
  channel: StockChannel,
  batchSize = SYNC_ALL_BATCH,
): Promise<string> {
  configuredClient(deps.channels, channel)
  let queued = 0
  let after = ''
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const skus = await tx
        .select({ sku: products.sku })
        .from(products)
        .where(gt(products.sku, after))
        .orderBy(products.sku)
        .limit(batchSize)
      for (const { sku } of skus) {
        await deps.jobs.send(
          tx,
          'channel-stock-sync',
          { channel, sku },
          { singletonKey: stockSyncKey(channel, sku) },
        )
      }
      return skus
    })
    queued += batch.length
    if (batch.length < batchSize) break
    after = batch.at(-1)!.sku
  }
  return queued === 0
    ? CHANNEL_MESSAGES.noProductsToSync
    : CHANNEL_MESSAGES.syncAllQueued(STOCK_CHANNEL_NAMES[channel], queued)
}

export type Difference = { sku: string; available: number; channel: number }
export type Unchecked = { sku: string; available: number; reason: string }

export type DifferencesReport = {
  channel: StockChannel
  /** Position of the batch among all products by SKU (1-based), and how many there are. */
  first: number
  last: number
  total: number
  checked: number
  /** The last SKU of this batch when more products follow ("Revisar siguientes"), else null. */
  next: string | null
  differences: Difference[]
  unchecked: Unchecked[]
  message: string
}

/**
 * "Revisar diferencias": one batch of products by SKU, every product whether it was ever pushed or
 * not, read from the channel and compared with the shop's available units now. A SKU the channel
 * has no listing for is listed as unchecked with the reason.
 */
export async function channelDifferences(
  db: DbOrTx,
  channels: StockChannels,
  channel: StockChannel,
  after = '',
): Promise<DifferencesReport> {
  const client = configuredClient(channels, channel)
  const candidates = await db
    .select({
      sku: products.sku,
      available: availableUnitsSql,
    })
    .from(products)
    .where(after ? gt(products.sku, after) : undefined)
    .orderBy(products.sku)
    .limit(DIFFERENCES_BATCH + 1)
  const checked = candidates.slice(0, DIFFERENCES_BATCH)
  const next = candidates.length > DIFFERENCES_BATCH ? checked.at(-1)!.sku : null
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(products)
  const [{ before } = { before: 0 }] = after
    ? await db.select({ before: count() }).from(products).where(lte(products.sku, after))
    : [{ before: 0 }]
  let quantities: Map<string, ChannelQuantity>
  try {
    quantities = checked.length ? await client.readStock(checked.map((row) => row.sku)) : new Map()
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Refusal(CHANNEL_MESSAGES.channelUnreachable(STOCK_CHANNEL_NAMES[channel], reason), {
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
  const compared = checked.length - unchecked.length
  const message =
    checked.length === 0
      ? CHANNEL_MESSAGES.nothingToCheck
      : compared === 0
        ? CHANNEL_MESSAGES.nothingComparable(checked.length)
        : differences.length === 0
          ? CHANNEL_MESSAGES.noDifferences(compared)
          : CHANNEL_MESSAGES.differencesFound(differences.length, compared)
  return {
    channel,
    first: checked.length ? before + 1 : 0,
    last: before + checked.length,
    total,
    checked: checked.length,
    next,
    differences,
    unchecked,
    message,
  }
}
