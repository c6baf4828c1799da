import type { Tx } from '#app/db/client.server.ts'
import { STOCK_CHANNELS, stockSyncKey, type JobQueue } from '#app/jobs/jobs.server.ts'

/**
 * Tells every outside channel that these products' available units changed, in the caller's
 * transaction: the jobs exist only if the change commits. Jobs of one channel and SKU coalesce (the
 * queue keeps one waiting per key) and read the stock when they run, so enqueueing twice is harmless.
 */
export async function enqueueStockSync(jobs: JobQueue, tx: Tx, skus: Iterable<string>): Promise<void> {
  for (const sku of new Set(skus)) {
    for (const channel of STOCK_CHANNELS) {
      await jobs.send(
        tx,
        'channel-stock-sync',
        { channel, sku },
        { singletonKey: stockSyncKey(channel, sku) },
      )
    }
  }
}
