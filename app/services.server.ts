import type { Database } from '#app/db/client.server.ts'
import { startJobQueue, type JobQueue, type JobRuntime } from '#app/jobs/jobs.server.ts'
import { whatsAppClient, type WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import type { CheckoutContext } from '#app/modules/checkout/checkout.server.ts'
import { mercadoPagoProvider } from '#app/modules/payment/mercadopago.server.ts'
import type { PaymentDeps } from '#app/modules/payment/payment.server.ts'
import { isLoopbackUrl } from '#app/modules/auth/config.server.ts'
import { noOnlinePayments, type PaymentProvider } from '#app/modules/payment/provider.ts'
import { simulatedProvider, type SimulatedProvider } from '#app/modules/payment/simulated.server.ts'
import { getStoreInfo } from '#app/modules/settings/settings.server.ts'
import type { Env } from '#app/utils/env.server.ts'

/** Everything domain code reaches the outside world through, built once from the configuration. */
export type Services = {
  env: Env
  database: Database
  jobs: JobQueue
  payments: PaymentProvider
  /** The local payment page's provider, when it stands in for Mercado Pago (see `usesPaymentSimulator`). */
  simulator: SimulatedProvider | null
  whatsapp: WhatsAppClient | null
  /** Secret that Mercado Pago (or the simulator) signs webhooks with; null refuses them all. */
  webhookSecret: string | null
  checkout: CheckoutContext
  paymentDeps: PaymentDeps
}

/** Said at start-up when Mercado Pago is configured without the secret its webhooks are signed with. */
export const MISSING_WEBHOOK_SECRET_WARNING =
  '[pagos] MP_ACCESS_TOKEN está configurado pero MP_WEBHOOK_SECRET no: toda notificación de Mercado Pago ' +
  'se rechazará con 401 y ningún pago en línea se confirmará solo (los pedidos vencerán salvo que la ' +
  'revisión de vencimiento encuentre el pago). Configura MP_WEBHOOK_SECRET con la clave secreta de ' +
  'las notificaciones Webhooks de tu integración.'

/**
 * The simulator lets a shopper approve their own payment: only on this machine (a loopback
 * PUBLIC_URL) and never in production, whatever else is configured.
 */
export function usesPaymentSimulator(env: Pick<Env, 'APP_ENV' | 'MP_ACCESS_TOKEN' | 'publicUrl'>): boolean {
  return !env.MP_ACCESS_TOKEN && env.APP_ENV !== 'production' && isLoopbackUrl(env.publicUrl)
}

export function buildServices(env: Env, database: Database, jobs: JobQueue): Services {
  // Production refuses to start this way (env.server.ts); elsewhere it must not fail silently.
  if (env.MP_ACCESS_TOKEN && !env.MP_WEBHOOK_SECRET) console.warn(MISSING_WEBHOOK_SECRET_WARNING)
  // Without Mercado Pago and outside the simulator's machine the shop takes cash on delivery only.
  const simulator = usesPaymentSimulator(env)
    ? simulatedProvider({ db: database.db, publicUrl: env.publicUrl })
    : null
  const onlinePayments = Boolean(env.MP_ACCESS_TOKEN) || simulator !== null
  const payments: PaymentProvider = env.MP_ACCESS_TOKEN
    ? mercadoPagoProvider({ baseUrl: env.MP_API_URL, accessToken: env.MP_ACCESS_TOKEN })
    : (simulator ?? noOnlinePayments)
  const whatsapp =
    env.WHATSAPP_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID
      ? whatsAppClient({
          baseUrl: env.WHATSAPP_API_URL,
          token: env.WHATSAPP_TOKEN,
          phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
        })
      : null
  const checkout: CheckoutContext = {
    db: database.db,
    jobs,
    shipping: getStoreInfo(env).shipping,
    notifyNumbers: env.WHATSAPP_NOTIFY_NUMBERS,
    onlinePayments,
  }
  return {
    env,
    database,
    jobs,
    payments,
    simulator,
    whatsapp,
    webhookSecret: env.MP_ACCESS_TOKEN ? (env.MP_WEBHOOK_SECRET ?? null) : (simulator?.webhookSecret ?? null),
    checkout,
    paymentDeps: {
      db: database.db,
      jobs,
      payments,
      paymentTimeoutHours: env.ORDER_PAYMENT_TIMEOUT_HOURS,
    },
  }
}

declare global {
  var __vitrinaServices: (Services & { runtime: JobRuntime }) | undefined
}

export async function startServices(env: Env, database: Database, options: { workers: boolean }) {
  const runtime = await startJobQueue(database, { maintenance: options.workers })
  const services = { ...buildServices(env, database, runtime.queue), runtime }
  globalThis.__vitrinaServices = services
  return services
}

export function getServices(): Services {
  const services = globalThis.__vitrinaServices
  if (!services) throw new Error('Los servicios no se han iniciado todavía')
  return services
}

export async function stopServices() {
  const services = globalThis.__vitrinaServices
  globalThis.__vitrinaServices = undefined
  await services?.runtime.boss.stop({ graceful: true, wait: true, timeout: 10_000 })
}
