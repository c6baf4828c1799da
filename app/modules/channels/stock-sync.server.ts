import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { JobPayloads } from '#app/jobs/jobs.server.ts'
import { STOCK_CHANNEL_NAMES, type StockChannel } from '#app/jobs/stock-channels.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { ChannelError, type StockChannelClient } from './channel.server.ts'
import { channelSyncs } from './schema.ts'
import type { SyncStatus } from './validators.ts'
import { availableUnitsSql } from '#app/modules/inventory/stock.server.ts'

/** The outside channels that are configured; a missing one is skipped. */
export type StockChannels = Partial<Record<StockChannel, StockChannelClient>>

export type StockSyncDeps = { db: DbOrTx; channels: StockChannels }

export type SyncResult = { status: SyncStatus; quantity: number | null; message: string }

export const notConfiguredMessage = (channel: StockChannel) =>
  `${STOCK_CHANNEL_NAMES[channel]} no está configurado`

/**
 * Units the shop can sell now: stock − reserved, never below 0; null when the product is gone.
 *
 * FOR SHARE waits for a stock change still in flight. Every change holds the product row locked
 * until it commits and enqueues its sync in that transaction; when a job of the same channel and
 * SKU is already waiting, that send is dropped (stately queue) and the waiting job is the one that
 * must carry the change. A worker that picks the waiting job before the change commits would
 * otherwise read the old units, push them, and leave no job for the new ones.
 */
export async function availableUnits(db: DbOrTx, sku: string): Promise<number | null> {
  const [row] = await db
    .select({ available: availableUnitsSql })
    .from(products)
    .where(eq(products.sku, sku))
    .for('share')
  return row ? row.available : null
}

async function record(db: DbOrTx, channel: StockChannel, sku: string, result: SyncResult) {
  const row = { channel, sku, ...result, at: new Date() }
  await db
    .insert(channelSyncs)
    .values(row)
    .onConflictDoUpdate({
      target: [channelSyncs.channel, channelSyncs.sku],
      set: { status: row.status, quantity: row.quantity, message: row.message, at: row.at },
    })
}

/**
 * Job: sets one SKU's available units on one outside channel. The units are read when the job
 * runs, so a burst of changes (coalesced by the queue) and any retry push the stock as it is now.
 * Every run leaves its result for `/admin/canales`. A channel failure the queue can fix by trying
 * later is thrown after it is recorded; one it cannot (a spent authorisation, a SKU on two Shopify
 * variants) ends the job, and the page offers "Reintentar".
 */
export async function syncChannelStock(
  deps: StockSyncDeps,
  data: JobPayloads['channel-stock-sync'],
): Promise<SyncResult> {
  const { channel, sku } = data
  const client = deps.channels[channel]
  const done = async (result: SyncResult) => {
    await record(deps.db, channel, sku, result)
    return result
  }
  if (!client) return done({ status: 'skipped', quantity: null, message: notConfiguredMessage(channel) })
  const quantity = await availableUnits(deps.db, sku)
  if (quantity === null) {
    return done({ status: 'skipped', quantity: null, message: 'el producto ya no existe en la tienda' })
  }
  try {
    const outcome = await client.pushStock(sku, quantity)
    return done({
      status: outcome.status,
      quantity: outcome.status === 'ok' ? outcome.quantity : quantity,
      message: outcome.message,
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const result = await done({ status: 'failed', quantity, message })
    if (!(error instanceof ChannelError) || error.retryable) throw error
    return result
  }
}
