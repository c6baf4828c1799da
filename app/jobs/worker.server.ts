import type PgBoss from 'pg-boss'
import type { JobName, JobPayloads } from './jobs.server.ts'
import { logger } from '#app/utils/logger.server.ts'

/**
 * What each job does, given its payload. The app root builds them from the domain functions (see
 * `jobHandlers` in services.server.ts): jobs sit below the modules and never import them.
 */
export type JobHandlers = { [N in JobName]: (data: JobPayloads[N]) => Promise<unknown> }

/**
 * Every 15 minutes, unpaid online orders and unconfirmed cash-on-delivery orders past their time
 * are cancelled.
 */
export const EXPIRY_SCHEDULE = '*/15 * * * *'

/** Every hour: what the shop kept for Meta (IP, user agent, cookies) goes once 8 days old. */
export const META_PURGE_SCHEDULE = '7 * * * *'

export async function startWorkers(boss: PgBoss, handlers: JobHandlers) {
  for (const name of Object.keys(handlers) as JobName[]) {
    const handler = handlers[name] as (data: JobPayloads[JobName]) => Promise<unknown>
    await boss.work<JobPayloads[JobName]>(name, { pollingIntervalSeconds: 1 }, async ([job]) => {
      if (!job) return
      const result = await handler(job.data)
      logger.info({ job: name, jobId: job.id, result: result ?? 'ok' }, `[jobs] ${name}`)
      return result
    })
  }
  await boss.schedule('order-expire-unpaid', EXPIRY_SCHEDULE, {}, { tz: 'America/Bogota' })
  await boss.schedule('order-expire-unconfirmed', EXPIRY_SCHEDULE, {}, { tz: 'America/Bogota' })
  await boss.schedule('meta-purge', META_PURGE_SCHEDULE, {}, { tz: 'America/Bogota' })
}
