import { afterAll, expect, test } from 'vitest'
import { openDatabase } from '#app/db/client.server.ts'
import { usingPostgres } from '#tests/db.ts'
import { createScratchDatabase } from '../../scripts/scratch-database.js'
import { DEAD_LETTER_QUEUE, startJobQueue, type JobRuntime } from './jobs.server.ts'

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
