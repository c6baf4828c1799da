import type PgBoss from 'pg-boss'
import { sendNewOrderNotice } from '#app/modules/order/new-order-notice.server.ts'
import { expireUnpaidOnlineOrders, processPaymentNotification } from '#app/modules/payment/payment.server.ts'
import type { Services } from '#app/services.server.ts'
import type { JobName, JobPayloads } from './jobs.server.ts'

type Handler<N extends JobName> = (services: Services, data: JobPayloads[N]) => Promise<unknown>

export const JOB_HANDLERS: { [N in JobName]: Handler<N> } = {
  'order-new-notice': (services, data) =>
    sendNewOrderNotice({ db: services.database.db, whatsapp: services.whatsapp }, data),
  'payment-notification': (services, data) => processPaymentNotification(services.paymentDeps, data),
  'order-expire-unpaid': (services) =>
    expireUnpaidOnlineOrders(services.paymentDeps, services.env.ORDER_PAYMENT_TIMEOUT_HOURS),
}

/** Every 15 minutes, unpaid online orders past their time are cancelled. */
export const EXPIRY_SCHEDULE = '*/15 * * * *'

export async function startWorkers(boss: PgBoss, services: Services) {
  for (const name of Object.keys(JOB_HANDLERS) as JobName[]) {
    const handler = JOB_HANDLERS[name] as Handler<JobName>
    await boss.work<JobPayloads[JobName]>(name, { pollingIntervalSeconds: 1 }, async ([job]) => {
      if (!job) return
      const result = await handler(services, job.data)
      console.log(`[jobs] ${name} ${job.id}: ${JSON.stringify(result ?? 'ok')}`)
      return result
    })
  }
  await boss.schedule('order-expire-unpaid', EXPIRY_SCHEDULE, {}, { tz: 'America/Bogota' })
}
