import { afterAll, beforeAll } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import { startJobQueue, type JobName, type JobRuntime } from '#app/jobs/jobs.server.ts'

/** A real pg-boss queue on the test database (no workers: tests run the handlers themselves). */
export function setupJobQueue(database: () => Database) {
  const holder: { current?: JobRuntime } = {}
  beforeAll(async () => {
    holder.current = await startJobQueue(database(), { maintenance: false })
  })
  afterAll(async () => {
    await holder.current?.boss.stop({ graceful: false, wait: true })
  })
  return {
    get queue() {
      return holder.current!.queue
    },
    get boss() {
      return holder.current!.boss
    },
  }
}

/** Jobs of a queue waiting to run, oldest first. */
export async function queuedJobs<T>(database: Database, name: JobName): Promise<T[]> {
  const { rows } = await database.executeSql(
    `select data from pgboss.job where name = $1 and state in ('created', 'retry') order by created_on`,
    [name],
  )
  return rows.map((row) => (row as { data: T }).data)
}

export async function clearJobs(database: Database) {
  await database.executeSql(`delete from pgboss.job where name not like '\\_\\_%'`, [])
}
