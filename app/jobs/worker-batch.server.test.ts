import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { logger } from '#app/utils/logger.server.ts'
import { startJobQueue, type JobPayloads, type JobRuntime } from './jobs.server.ts'
import { JOBS_PER_FETCH, startWorkers, type JobHandlers } from './worker.server.ts'

/**
 * Workers take several jobs per poll (a burst of notices must not drain at one a second) yet settle
 * each on its own: the job that fails is retried alone, and the others are never run again.
 */

const t = setupTestDatabase()
let runtime: JobRuntime
const handled: string[] = []

beforeAll(async () => {
  vi.spyOn(logger, 'info').mockImplementation(() => {})
  vi.spyOn(logger, 'warn').mockImplementation(() => {})
  runtime = await startJobQueue(t.database, { maintenance: false })
  const nothing = async () => undefined
  const handlers: JobHandlers = {
    'order-new-notice': async ({ orderId }: JobPayloads['order-new-notice']) => {
      handled.push(orderId)
      if (orderId === 'pedido-3') throw new Error('WhatsApp no respondió')
      return { sent: orderId }
    },
    'order-claim-notice': nothing,
    'order-buyer-message': nothing,
    'order-refund': nothing,
    'payment-refund': nothing,
    'invoice-issue': nothing,
    'invoice-credit-note': nothing,
    'shipment-label': nothing,
    'shipment-track': nothing,
    'payment-notification': nothing,
    'order-expire-unpaid': nothing,
    'order-expire-unconfirmed': nothing,
    'channel-stock-sync': nothing,
    'meta-event': nothing,
    'meta-purge': nothing,
    'security-purge': nothing,
    'checkout-drafts-purge': nothing,
  }
  // Enqueued before the workers start, as jobs left by a crash are: the first poll finds them all.
  for (let i = 1; i <= JOBS_PER_FETCH; i++) {
    await runtime.queue.send(t.db, 'order-new-notice', { orderId: `pedido-${i}`, to: '573001112233' })
  }
  await startWorkers(runtime.boss, handlers)
}, 60_000)

afterAll(async () => {
  await runtime?.boss.stop({ graceful: false, wait: true })
  vi.restoreAllMocks()
})

async function states() {
  const { rows } = await t.database.executeSql(
    `select data->>'orderId' as "orderId", state, output from pgboss.job where name = 'order-new-notice'`,
  )
  return rows as { orderId: string; state: string; output: { sent?: string; message?: string } }[]
}

test('a failing job in a batch is retried alone; the others complete once, with their results', async () => {
  // Waiting is not what is measured: the bound only keeps a broken worker from hanging the suite.
  await expect
    .poll(async () => (await states()).filter((job) => job.state !== 'created' && job.state !== 'active'), {
      timeout: 30_000,
      interval: 200,
    })
    .toHaveLength(JOBS_PER_FETCH)
  const jobs = await states()
  for (const job of jobs) {
    if (job.orderId === 'pedido-3') {
      expect(job.state).toBe('retry')
      expect(job.output.message).toBe('WhatsApp no respondió')
    } else {
      expect(job.state).toBe('completed')
      expect(job.output).toEqual({ sent: job.orderId })
    }
  }
  expect([...handled].sort()).toEqual(jobs.map((job) => job.orderId).sort())
})
