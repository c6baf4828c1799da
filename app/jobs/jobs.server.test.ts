import { afterAll, expect, test } from 'vitest'
import { openDatabase } from '#app/db/client.server.ts'
import { setupTestDatabase, usingPostgres } from '#tests/db.ts'
import { createScratchDatabase } from '../../scripts/scratch-database.js'
import { DEAD_LETTER_QUEUE, JOB_EXPIRY_SECONDS, startJobQueue, type JobRuntime } from './jobs.server.ts'

const t = setupTestDatabase()

const closing: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const close of closing.reverse()) await close()
})

// Two instances of the shop starting at once on a new database, each with its own pool (the
// embedded database serves one process, so PostgreSQL only).
test.skipIf(!usingPostgres())(
  'two instances starting at once on a new database both set up the job queue',
  async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'vitrina_jobs_setup')
    closing.push(() => scratch.drop())
    const databases = await Promise.all([
      openDatabase({ url: scratch.url }),
      openDatabase({ url: scratch.url }),
    ])
    for (const database of databases) closing.push(() => database.close())
    const runtimes: JobRuntime[] = await Promise.all(databases.map((database) => startJobQueue(database)))
    for (const { boss } of runtimes) closing.push(() => boss.stop({ graceful: false, wait: true }))
    for (const { boss } of runtimes) {
      expect(await boss.getQueue('order-new-notice')).toMatchObject({ retryLimit: 8 })
      expect(await boss.getQueue(DEAD_LETTER_QUEUE)).toBeTruthy()
    }
  },
)

test('a job taken by a process that died is offered again after five minutes, on queues old and new', async () => {
  const { boss, queue } = await startJobQueue(t.database, { maintenance: false })
  closing.push(() => boss.stop({ graceful: false, wait: true }))
  // A shop whose queues pg-boss made before with its default quarter of an hour gets the new limit.
  await boss.updateQueue('order-expire-unpaid', { name: 'order-expire-unpaid', expireInSeconds: 15 * 60 })
  const restarted = await startJobQueue(t.database, { maintenance: false })
  closing.push(() => restarted.boss.stop({ graceful: false, wait: true }))
  expect(JOB_EXPIRY_SECONDS).toBe(5 * 60)
  for (const name of ['order-new-notice', 'order-expire-unpaid', 'channel-stock-sync', 'meta-event']) {
    expect(await boss.getQueue(name), name).toMatchObject({ expireInSeconds: JOB_EXPIRY_SECONDS })
  }
  // What pg-boss's expiry reads: the limit is on the job itself.
  await queue.send(t.db, 'order-expire-unpaid', {})
  const [job] = await boss.fetch('order-expire-unpaid')
  const { rows } = await t.database.executeSql(
    'select extract(epoch from expire_in)::int as seconds from pgboss.job where id = $1',
    [job!.id],
  )
  expect(rows).toEqual([{ seconds: JOB_EXPIRY_SECONDS }])
})
