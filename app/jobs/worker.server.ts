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

/** Every day at 3:17: audit entries and sign-ins older than a year go. */
export const SECURITY_PURGE_SCHEDULE = '17 3 * * *'

/** Every day at 3:27: checkouts not finished go once untouched for 30 days. */
export const CHECKOUT_DRAFTS_PURGE_SCHEDULE = '27 3 * * *'

/** Every 30 minutes: the carriers are asked about guías on their way. */
export const TRACKING_SCHEDULE = '*/30 * * * *'

/**
 * Jobs one worker takes per poll. A worker polls once a second when it finds too few to keep it
 * busy, so one job per poll would drain a burst (two notices per order) at one job a second.
 */
export const JOBS_PER_FETCH = 10

export async function startWorkers(boss: PgBoss, handlers: JobHandlers) {
  for (const name of Object.keys(handlers) as JobName[]) {
    const handler = handlers[name] as (data: JobPayloads[JobName]) => Promise<unknown>
    await boss.work<JobPayloads[JobName]>(
      name,
      { pollingIntervalSeconds: 1, batchSize: JOBS_PER_FETCH },
      async (jobs) => {
        // pg-boss settles a batch as one (all done, or all retried): each job is settled here on
        // its own, one after another, so a failure retries only its job and never re-sends the
        // others. (pg-boss then completes only jobs still active: none.)
        for (const job of jobs) {
          try {
            const result = await handler(job.data)
            const output = toOutput(result)
            await (output ? boss.complete(name, job.id, output) : boss.complete(name, job.id))
            logger.info({ job: name, jobId: job.id, result: result ?? 'ok' }, `[jobs] ${name}`)
          } catch (error) {
            logger.warn({ job: name, jobId: job.id, err: error }, `[jobs] ${name} falló`)
            await boss.fail(name, job.id, errorOutput(error))
          }
        }
      },
    )
  }
  await boss.schedule('order-expire-unpaid', EXPIRY_SCHEDULE, {}, { tz: 'America/Bogota' })
  await boss.schedule('order-expire-unconfirmed', EXPIRY_SCHEDULE, {}, { tz: 'America/Bogota' })
  await boss.schedule('shipment-track', TRACKING_SCHEDULE, {}, { tz: 'America/Bogota' })
  await boss.schedule('meta-purge', META_PURGE_SCHEDULE, {}, { tz: 'America/Bogota' })
  await boss.schedule('security-purge', SECURITY_PURGE_SCHEDULE, {}, { tz: 'America/Bogota' })
  await boss.schedule('checkout-drafts-purge', CHECKOUT_DRAFTS_PURGE_SCHEDULE, {}, { tz: 'America/Bogota' })
}

/** pg-boss keeps an object as a job's output; anything else is wrapped as `{ value }`. */
function toOutput(result: unknown): object | undefined {
  if (result === undefined || result === null) return undefined
  return typeof result === 'object' ? result : { value: result }
}

/** What pg-boss keeps of a failure (the dead-letter list shows its message). */
function errorOutput(error: unknown): object {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { message: String(error) }
}
