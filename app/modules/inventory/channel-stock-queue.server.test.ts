import { beforeEach, expect, test } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { clearJobs, queuedJobs, setupJobQueue } from '#tests/jobs.ts'
import { enqueueStockSync } from './channel-stock-queue.server.ts'

const t = setupTestDatabase()
const jobs = setupJobQueue(() => t.database)

beforeEach(() => clearJobs(t.database))

test('stock changes of one SKU coalesce into one waiting job per channel', async () => {
  await t.db.transaction((tx) => enqueueStockSync(jobs.queue, tx, ['COL-ABC-1', 'COL-ABC-1']))
  await t.db.transaction((tx) => enqueueStockSync(jobs.queue, tx, ['COL-ABC-1', 'ARE-XYZ-2']))
  const waiting = await queuedJobs<{ channel: string; sku: string }>(t.database, 'channel-stock-sync')
  expect(waiting).toHaveLength(4)
  expect(new Set(waiting.map((job) => `${job.channel}:${job.sku}`))).toEqual(
    new Set(['mercadolibre:COL-ABC-1', 'shopify:COL-ABC-1', 'mercadolibre:ARE-XYZ-2', 'shopify:ARE-XYZ-2']),
  )
})

test('a stock change that rolls back tells no channel', async () => {
  const attempt = t.db.transaction(async (tx) => {
    await enqueueStockSync(jobs.queue, tx, ['COL-ABC-1'])
    throw new Error('falla después de encolar')
  })
  await expect(attempt).rejects.toThrow('falla después de encolar')
  expect(await queuedJobs(t.database, 'channel-stock-sync')).toEqual([])
})
