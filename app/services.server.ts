import { purgeOldAuditEntries } from '#app/modules/audit/audit.server.ts'
import { purgeOldSignIns } from '#app/modules/auth/security.server.ts'
import { purgeCheckoutDrafts } from '#app/modules/checkout/drafts.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { startJobQueue, type JobQueue, type JobRuntime } from '#app/jobs/jobs.server.ts'
import type { JobHandlers } from '#app/jobs/worker.server.ts'
import type { AuthConfig } from '#app/modules/auth/config.server.ts'
import type { AuthContext } from '#app/modules/auth/oidc.server.ts'
import { mercadoLibreClient, mercadoLibreOAuth } from '#app/modules/channels/mercadolibre.server.ts'
import { mercadoLibreTokens } from '#app/modules/channels/mercadolibre-tokens.server.ts'
import { secretBox } from '#app/modules/channels/secret-box.server.ts'
import { shopifyClient } from '#app/modules/channels/shopify.server.ts'
import { syncChannelStock, type StockChannels } from '#app/modules/channels/stock-sync.server.ts'
import { whatsAppClient, type WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { enviaProvider } from '#app/modules/carriers/envia.server.ts'
import type { CarrierProvider } from '#app/modules/carriers/provider.ts'
import {
  buyShipmentLabel,
  trackShipments,
  type ShipmentDeps,
} from '#app/modules/carriers/shipments.server.ts'
import type { CheckoutContext } from '#app/modules/checkout/checkout.server.ts'
import { factusProvider } from '#app/modules/invoicing/factus.server.ts'
import { issueOrderCreditNote, issueOrderInvoice } from '#app/modules/invoicing/issue.server.ts'
import type { InvoicingProvider } from '#app/modules/invoicing/provider.ts'
import { purgeMetaData, sendMetaEvent, type MetaSettings } from '#app/modules/marketing/events.server.ts'
import { metaCapiClient, type MetaCapiClient } from '#app/modules/marketing/meta-capi.server.ts'
import { mediaSettingsFromEnv, type MediaSettings } from '#app/modules/media/config.server.ts'
import type { MediaReads } from '#app/modules/media/image-source.ts'
import { mercadoPagoProvider } from '#app/modules/payment/mercadopago.server.ts'
import { refundOrderPayment } from '#app/modules/payment/refund.server.ts'
import { expireUnconfirmedCashOrders } from '#app/modules/order/expire-unconfirmed.server.ts'
import { sendBuyerMessage } from '#app/modules/order/buyer-message.server.ts'
import { sendClaimNotice } from '#app/modules/order/claim-notice.server.ts'
import { orderLinkSecret } from '#app/modules/order/status-link.server.ts'
import { sendNewOrderNotice } from '#app/modules/order/new-order-notice.server.ts'
import {
  expireUnpaidOnlineOrders,
  processPaymentNotification,
  type PaymentDeps,
} from '#app/modules/payment/payment.server.ts'
import { noOnlinePayments, type PaymentProviders } from '#app/modules/payment/provider.ts'
import {
  simulatedProvider,
  simulatedWompi,
  type SimulatedProvider,
  type SimulatedWompi,
} from '#app/modules/payment/simulated.server.ts'
import { wompiProvider } from '#app/modules/payment/wompi.server.ts'
import { refundLedgerPayment } from '#app/modules/payment/ledger-refund.server.ts'
import { rateLimits, type RateLimits } from '#app/modules/rate-limits/rate-limits.server.ts'
import {
  adminSessionLimits,
  holdLimitDefaults,
  shippingDefaults,
} from '#app/modules/settings/settings.server.ts'
import { isLoopbackUrl } from '#app/utils/loopback.ts'
import type { Env } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'

/**
 * The one registry of everything the app reaches the outside world through (database, sign-in,
 * media storage, payment provider, job queue, outside clients), built once from the configuration.
 * Routes and middleware read it from the router context (`servicesOf`, app/services-context.server.ts);
 * domain functions get what they need as arguments.
 */
export type Services = {
  env: Env
  database: Database
  /** Admin sign-in: the allow-list, the identity provider and the cookie secret (null: not set up). */
  auth: AuthConfig | null
  /**
   * What the auth module works with (null without `auth`): the database, `auth` and the session
   * limits the owner saved in "Configuraciones" (settings module, read at most every 30 s).
   */
  adminAuth: AuthContext | null
  /** Where uploads go and where media URLs point. */
  media: MediaSettings
  /** The database and `media.publicBase`, for the reads that show images. */
  reads: MediaReads
  jobs: JobQueue
  /** The local payment page's provider, when it stands in for Mercado Pago (see `usesPaymentSimulator`). */
  simulator: SimulatedProvider | null
  /** The local Wompi page's provider, when it stands in for Wompi (see `usesWompiSimulator`). */
  wompiSimulator: SimulatedWompi | null
  whatsapp: WhatsAppClient | null
  /** MercadoLibre and Shopify, those configured: the stock mirror's clients. */
  channels: StockChannels
  checkout: CheckoutContext
  /** The online payment providers (`paymentDeps.providers`) with what settling and expiring payments need. */
  paymentDeps: PaymentDeps
  /** Meta Pixel and Conversions API: settings (null without META_PIXEL_ID) and client. */
  marketing: { settings: MetaSettings | null; capi: MetaCapiClient | null }
  /** Per-client request limits, counted in the database (checkout, sign-in, beacons, search, uploads). */
  rateLimits: RateLimits
  /** Signs the buyer's order-page links (`/pedido/{número}?clave=…`). */
  orderLinkSecret: Buffer
  /** DIAN electronic invoices (Factus), null when FACTUS_* is not configured. */
  invoicing: InvoicingProvider | null
  /** Carrier quotes, guías and tracking (Envia), null without ENVIA_TOKEN. */
  carriers: CarrierProvider | null
}

/**
 * Secret that webhooks are signed with: Mercado Pago's from the configuration, or the simulator's
 * own; null refuses them all.
 */
export function webhookSecretOf(services: Pick<Services, 'env' | 'simulator'>): string | null {
  return services.env.MP_ACCESS_TOKEN
    ? (services.env.MP_WEBHOOK_SECRET ?? null)
    : (services.simulator?.webhookSecret ?? null)
}

/** Secret that Wompi's events are checked with: the configured one, or the simulator's own. */
export function wompiEventsSecretOf(services: Pick<Services, 'env' | 'wompiSimulator'>): string | null {
  return services.env.WOMPI_PUBLIC_KEY
    ? (services.env.WOMPI_EVENTS_SECRET ?? null)
    : (services.wompiSimulator?.keys.eventsSecret ?? null)
}

/** The workers' jobs, each calling its domain function with the registry's parts it needs. */
export function jobHandlers(services: Services): JobHandlers {
  const { env, database, whatsapp, paymentDeps, channels } = services
  return {
    'order-new-notice': (data) => sendNewOrderNotice({ db: database.db, whatsapp }, data),
    'order-claim-notice': (data) => sendClaimNotice({ db: database.db, whatsapp }, data),
    'order-buyer-message': (data) =>
      sendBuyerMessage(
        {
          db: database.db,
          whatsapp,
          storeName: env.STORE_NAME,
          publicUrl: env.publicUrl,
          linkSecret: services.orderLinkSecret,
        },
        data,
      ),
    'order-refund': (data) => refundOrderPayment(paymentDeps, data),
    'payment-refund': (data) => refundLedgerPayment(paymentDeps, data),
    'invoice-issue': (data) => issueOrderInvoice({ db: database.db, invoicing: services.invoicing }, data),
    'invoice-credit-note': (data) =>
      issueOrderCreditNote({ db: database.db, invoicing: services.invoicing }, data),
    'shipment-label': (data) => buyShipmentLabel(shipmentDeps(services), data),
    'shipment-track': (data) => trackShipments(shipmentDeps(services), data),
    'payment-notification': (data) => processPaymentNotification(paymentDeps, data),
    'order-expire-unpaid': () => expireUnpaidOnlineOrders(paymentDeps, env.ORDER_PAYMENT_TIMEOUT_HOURS),
    'order-expire-unconfirmed': () =>
      expireUnconfirmedCashOrders(database.db, services.jobs, env.COD_CONFIRMATION_HOURS),
    'channel-stock-sync': (data) => syncChannelStock({ db: database.db, channels }, data),
    'meta-event': (data) => sendMetaEvent({ db: database.db, capi: services.marketing.capi }, data),
    'meta-purge': () => purgeMetaData(database),
    'security-purge': async () => ({
      auditEntries: await purgeOldAuditEntries(database.db),
      signIns: await purgeOldSignIns(database.db),
    }),
    'checkout-drafts-purge': () => purgeCheckoutDrafts(database.db),
  }
}

/** The configured stock channels (parseEnv refused any half-configured one). */
export function stockChannels(env: Env, database: Database): StockChannels {
  const channels: StockChannels = {}
  if (
    env.ML_CLIENT_ID &&
    env.ML_CLIENT_SECRET &&
    env.ML_REFRESH_TOKEN &&
    env.ML_SELLER_ID &&
    env.SESSION_SECRET
  ) {
    const tokens = mercadoLibreTokens({
      db: database.db,
      box: secretBox(env.SESSION_SECRET),
      seed: { refreshToken: env.ML_REFRESH_TOKEN, accessToken: env.ML_ACCESS_TOKEN },
      exchange: mercadoLibreOAuth({
        baseUrl: env.ML_API_URL,
        clientId: env.ML_CLIENT_ID,
        clientSecret: env.ML_CLIENT_SECRET,
      }),
    })
    channels.mercadolibre = mercadoLibreClient({
      baseUrl: env.ML_API_URL,
      sellerId: env.ML_SELLER_ID,
      tokens,
    })
  }
  const shopifyOrigin = env.SHOPIFY_API_URL ?? (env.SHOPIFY_SHOP ? `https://${env.SHOPIFY_SHOP}` : undefined)
  if (shopifyOrigin && env.SHOPIFY_ADMIN_TOKEN && env.SHOPIFY_LOCATION_ID) {
    channels.shopify = shopifyClient({
      origin: shopifyOrigin,
      apiVersion: env.SHOPIFY_API_VERSION,
      token: env.SHOPIFY_ADMIN_TOKEN,
      locationId: env.SHOPIFY_LOCATION_ID,
    })
  }
  return channels
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

/** Wompi's simulated page, on the same terms as Mercado Pago's: this machine only, never production. */
export function usesWompiSimulator(env: Pick<Env, 'APP_ENV' | 'WOMPI_PUBLIC_KEY' | 'publicUrl'>): boolean {
  return !env.WOMPI_PUBLIC_KEY && env.APP_ENV !== 'production' && isLoopbackUrl(env.publicUrl)
}

/** The Wompi API for the keys given: the sandbox for test keys, unless WOMPI_API_URL says. */
export function wompiApiUrl(env: Pick<Env, 'WOMPI_API_URL' | 'WOMPI_PUBLIC_KEY'>): string {
  if (env.WOMPI_API_URL) return env.WOMPI_API_URL
  return env.WOMPI_PUBLIC_KEY?.startsWith('pub_test_')
    ? 'https://sandbox.wompi.co/v1'
    : 'https://production.wompi.co/v1'
}

/**
 * Each online method's provider: the configured one, else its simulator on this machine, else
 * none (the method is never offered). parseEnv refused half of Wompi's keys.
 */
export function paymentProviders(
  env: Env,
  simulators: { mercadopago: SimulatedProvider | null; wompi: SimulatedWompi | null },
): PaymentProviders {
  return {
    mercadopago: env.MP_ACCESS_TOKEN
      ? mercadoPagoProvider({ baseUrl: env.MP_API_URL, accessToken: env.MP_ACCESS_TOKEN })
      : (simulators.mercadopago ?? noOnlinePayments),
    wompi:
      env.WOMPI_PUBLIC_KEY && env.WOMPI_PRIVATE_KEY && env.WOMPI_INTEGRITY_SECRET
        ? wompiProvider({
            baseUrl: wompiApiUrl(env),
            checkoutUrl: env.WOMPI_CHECKOUT_URL,
            publicKey: env.WOMPI_PUBLIC_KEY,
            privateKey: env.WOMPI_PRIVATE_KEY,
            integritySecret: env.WOMPI_INTEGRITY_SECRET,
          })
        : (simulators.wompi ?? noOnlinePayments),
  }
}

/**
 * The server passes the sign-in configuration and media settings it checked at start-up; tests pass
 * what they need (without `auth` there is no admin sign-in; `media` defaults to the configuration's).
 */
export type ServiceParts = { auth?: AuthConfig; media?: MediaSettings }

export function buildServices(
  env: Env,
  database: Database,
  jobs: JobQueue,
  parts: ServiceParts = {},
): Services {
  // Production refuses to start this way (env.server.ts); elsewhere it must not fail silently.
  if (env.MP_ACCESS_TOKEN && !env.MP_WEBHOOK_SECRET) logger.warn(MISSING_WEBHOOK_SECRET_WARNING)
  // Without Mercado Pago and outside the simulator's machine the shop takes cash on delivery only.
  const simulator = usesPaymentSimulator(env)
    ? simulatedProvider({ db: database.db, publicUrl: env.publicUrl })
    : null
  const wompiSimulator = usesWompiSimulator(env)
    ? simulatedWompi({ db: database.db, publicUrl: env.publicUrl })
    : null
  const providers = paymentProviders(env, { mercadopago: simulator, wompi: wompiSimulator })
  const whatsapp =
    env.WHATSAPP_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID
      ? whatsAppClient({
          baseUrl: env.WHATSAPP_API_URL,
          token: env.WHATSAPP_TOKEN,
          phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
        })
      : null
  const marketing = marketingParts(env)
  const checkout: CheckoutContext = {
    db: database.db,
    jobs,
    // First-run defaults only: placeOrder reads the saved rules in the order's transaction.
    shipping: shippingDefaults(env),
    // First-run defaults only: the order's transaction reads the numbers saved in "Mensajes".
    notifyNumbers: env.WHATSAPP_NOTIFY_NUMBERS,
    onlinePayments: {
      mercadopago: providers.mercadopago.name !== 'ninguno',
      wompi: providers.wompi.name !== 'ninguno',
    },
    // First-run defaults only: placeOrder reads the saved limits in the order's transaction.
    holdLimits: holdLimitDefaults(env),
  }
  const media = parts.media ?? mediaSettingsFromEnv(env)
  const auth = parts.auth ?? null
  return {
    env,
    database,
    auth,
    adminAuth: auth && {
      db: database.db,
      config: auth,
      sessionLimits: () => adminSessionLimits(database.db),
    },
    media,
    reads: { db: database.db, publicBase: media.publicBase },
    jobs,
    simulator,
    wompiSimulator,
    whatsapp,
    channels: stockChannels(env, database),
    checkout,
    paymentDeps: {
      db: database.db,
      jobs,
      providers,
      paymentTimeoutHours: env.ORDER_PAYMENT_TIMEOUT_HOURS,
    },
    marketing,
    rateLimits: rateLimits(database.db, { scale: env.RATE_LIMIT_SCALE }),
    orderLinkSecret: orderLinkSecret(auth?.secret ?? env.SESSION_SECRET),
    invoicing: invoicingProvider(env),
    carriers: carrierProvider(env),
  }
}

/** What the guía jobs and the desk's guía actions work with. */
export function shipmentDeps(services: Services): ShipmentDeps {
  return { db: services.database.db, jobs: services.jobs, carriers: services.carriers, env: services.env }
}

/** Envia when ENVIA_TOKEN is set, asking the carriers of ENVIA_CARRIERS. */
export function carrierProvider(env: Env): CarrierProvider | null {
  return env.ENVIA_TOKEN
    ? enviaProvider({ baseUrl: env.ENVIA_API_URL, token: env.ENVIA_TOKEN, carriers: env.ENVIA_CARRIERS })
    : null
}

/** Factus when configured (parseEnv refused half a configuration), built once for every job and page. */
export function invoicingProvider(env: Env): InvoicingProvider | null {
  if (
    !env.FACTUS_CLIENT_ID ||
    !env.FACTUS_CLIENT_SECRET ||
    !env.FACTUS_USERNAME ||
    !env.FACTUS_PASSWORD ||
    !env.FACTUS_NUMBERING_RANGE_ID
  ) {
    return null
  }
  return factusProvider({
    baseUrl: env.FACTUS_API_URL,
    clientId: env.FACTUS_CLIENT_ID,
    clientSecret: env.FACTUS_CLIENT_SECRET,
    username: env.FACTUS_USERNAME,
    password: env.FACTUS_PASSWORD,
    numberingRangeId: env.FACTUS_NUMBERING_RANGE_ID,
    creditNoteNumberingRangeId: env.FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID,
  })
}

/** Meta's parts: nothing without META_PIXEL_ID; server events only with META_CAPI_TOKEN too. */
export function marketingParts(env: Env): Services['marketing'] {
  const settings = env.META_PIXEL_ID
    ? { pixelId: env.META_PIXEL_ID, ownerEmail: env.OWNER_EMAIL, publicUrl: env.publicUrl }
    : null
  const capi =
    env.META_PIXEL_ID && env.META_CAPI_TOKEN
      ? metaCapiClient({
          baseUrl: env.META_API_URL,
          pixelId: env.META_PIXEL_ID,
          token: env.META_CAPI_TOKEN,
          testEventCode: env.META_TEST_EVENT_CODE,
        })
      : null
  return { settings, capi }
}

/**
 * Starts the job queue on the database and builds the registry on it. The server hands the registry
 * to every loader, action and middleware through the router context (`servicesContext`); `stop`
 * ends what this started.
 */
export async function startServices(
  env: Env,
  database: Database,
  options: { workers: boolean } & ServiceParts,
): Promise<Services & { runtime: JobRuntime; stop(): Promise<void> }> {
  const runtime = await startJobQueue(database, { maintenance: options.workers })
  const services = buildServices(env, database, runtime.queue, options)
  return { ...services, runtime, stop: () => stopServices(services, runtime) }
}

/**
 * Stops the job queue (waiting for running jobs) and lets go of the media storage's connections.
 * The database belongs to whoever opened it.
 */
async function stopServices(services: Services, runtime: JobRuntime) {
  await runtime.boss.stop({ graceful: true, wait: true, timeout: 10_000 })
  await services.media.storage.close?.()
}
