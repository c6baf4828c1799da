import PgBoss from 'pg-boss'
import { JOB_QUEUE_SETUP_LOCK_ID, type Database, type DbOrTx } from '#app/db/client.server.ts'
import type { StockChannel } from './stock-channels.ts'
import { logger } from '#app/utils/logger.server.ts'

export { STOCK_CHANNELS, stockSyncKey, type StockChannel } from './stock-channels.ts'

/** Every durable job of the shop, with its payload. */
export type JobPayloads = {
  /** One WhatsApp "nuevo_pedido" template to one business number. */
  'order-new-notice': { orderId: string; to: string }
  /** One WhatsApp "solicitud_cliente" template: a buyer's withdrawal or reversal request, to one business number. */
  'order-claim-notice': { claimId: number; to: string }
  /** One WhatsApp template to the buyer on an order event ("Mensajes y Notificaciones"), as saved when sent. */
  'order-buyer-message': { orderId: string; event: 'confirmed' | 'shipped' | 'completed' | 'cancelled' }
  /** Refund an order's online payment through its provider (an accepted withdrawal). */
  'order-refund': { orderId: string; claimId: number }
  /**
   * Issue the order's DIAN electronic invoice, if the shop's invoicing setting (read when the job
   * runs) says this trigger issues it: paid online, delivered (cash on delivery), or asked at the desk.
   */
  'invoice-issue': { orderId: string; trigger: 'paid' | 'delivered' | 'manual' }
  /** Credit the order's whole invoice (a return or a cancellation after payment), if it has one. */
  'invoice-credit-note': { orderId: string }
  /** Buy the order's guía from the carrier provider ("Generar guía"), then mark the order shipped. */
  'shipment-label': { orderId: string; by: string }
  /** Ask the carrier about guías on their way (every one, or one order's from the desk). */
  'shipment-track': { orderId?: string }
  /**
   * Fetch a payment after its provider's notice (Mercado Pago's webhook, Wompi's event) and settle
   * the order. Jobs queued before Wompi name no provider: Mercado Pago's.
   */
  'payment-notification': { eventId: string; paymentId: string; provider?: 'mercadopago' | 'wompi' }
  /** Refund one payment of the ledger through its provider ("Pagos": paid twice, paid after cancelling). */
  'payment-refund': { provider: 'mercadopago' | 'wompi'; paymentId: string; orderId: string; by: string }
  /** Cancel online-payment orders left unpaid too long, releasing their units. */
  'order-expire-unpaid': Record<string, never>
  /** Cancel cash-on-delivery orders nobody confirmed in time, releasing their units. */
  'order-expire-unconfirmed': Record<string, never>
  /** Set one SKU's available units on one channel, read when the job runs (never the enqueued value). */
  'channel-stock-sync': { channel: StockChannel; sku: string }
  /** One event to Meta's Conversions API: a browser's (as it came) or an order's Purchase (read when sent). */
  'meta-event': MetaEventJob
  /** Deletes what the shop kept for Meta (checkout contexts, event jobs) once older than 8 days. */
  'meta-purge': Record<string, never>
  /** Deletes the audit log's entries and the sign-ins once older than a year ("Seguridad"). */
  'security-purge': Record<string, never>
  /** Deletes checkouts not finished once untouched for 30 days ("Marketing"). */
  'checkout-drafts-purge': Record<string, never>
}

/** The browser's identifiers Meta takes as they are (never hashed). */
export type MetaBrowserIdentifiers = {
  clientIpAddress: string | null
  clientUserAgent: string | null
  fbp: string | null
  fbc: string | null
}

export type MetaEventJob =
  | {
      kind: 'browser'
      eventName: string
      eventId: string
      /** Unix seconds, when the shop received it. */
      eventTime: number
      eventSourceUrl: string
      customData: Record<string, unknown>
      browser: MetaBrowserIdentifiers
    }
  /** The order, its customer and the browser seen at checkout are read when the job runs. */
  | { kind: 'purchase'; orderId: string; eventTime: number }
export type JobName = keyof JobPayloads

/** Jobs that exhausted their retries land here, for an admin to see. */
export const DEAD_LETTER_QUEUE = 'dead-letters'

/**
 * How long a job may stay taken before pg-boss offers it again: a job whose process died (crash,
 * machine restart) is retried after this, not after pg-boss's default quarter of an hour. Each job
 * makes a few outside calls of at most 15 s each, or a few database statements, so a live one never
 * comes near it.
 */
export const JOB_EXPIRY_SECONDS = 5 * 60

const QUEUE_OPTIONS: Record<JobName, Omit<PgBoss.Queue, 'name'>> = {
  // WhatsApp throttles (130429, 131056): back off generously.
  'order-new-notice': { retryLimit: 8, retryDelay: 30, retryBackoff: true, deadLetter: DEAD_LETTER_QUEUE },
  'order-claim-notice': { retryLimit: 8, retryDelay: 30, retryBackoff: true, deadLetter: DEAD_LETTER_QUEUE },
  'order-buyer-message': { retryLimit: 8, retryDelay: 30, retryBackoff: true, deadLetter: DEAD_LETTER_QUEUE },
  'order-refund': { retryLimit: 10, retryDelay: 30, retryBackoff: true, deadLetter: DEAD_LETTER_QUEUE },
  // DIAN validates inside Factus's request, and both have outages: back off generously.
  'invoice-issue': { retryLimit: 12, retryDelay: 30, retryBackoff: true, deadLetter: DEAD_LETTER_QUEUE },
  'invoice-credit-note': {
    retryLimit: 12,
    retryDelay: 30,
    retryBackoff: true,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  // Buying is never retried once Envia may have charged it (the job decides); quotes are.
  'shipment-label': { retryLimit: 6, retryDelay: 30, retryBackoff: true, deadLetter: DEAD_LETTER_QUEUE },
  'shipment-track': { retryLimit: 3, retryDelay: 60, retryBackoff: true },
  'payment-notification': {
    retryLimit: 10,
    retryDelay: 15,
    retryBackoff: true,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  'payment-refund': { retryLimit: 10, retryDelay: 30, retryBackoff: true, deadLetter: DEAD_LETTER_QUEUE },
  'order-expire-unpaid': { retryLimit: 2, retryDelay: 60, policy: 'singleton' },
  'order-expire-unconfirmed': { retryLimit: 2, retryDelay: 60, policy: 'singleton' },
  // Stately: per singleton key (channel and SKU) at most one job waits and one runs, so a burst of
  // stock changes coalesces into one push of the stock as it is when the job runs.
  'channel-stock-sync': {
    policy: 'stately',
    retryLimit: 10,
    retryDelay: 20,
    retryBackoff: true,
    deadLetter: DEAD_LETTER_QUEUE,
  },
  // Meta refuses events older than 7 days: the job drops them itself before retries run out, and a
  // job still waiting after 7 days is archived by pg-boss (its payload has the browser's IP, user
  // agent and cookies; `meta-purge` deletes it, archived or not, after 8 days).
  'meta-event': {
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    deadLetter: DEAD_LETTER_QUEUE,
    retentionMinutes: 7 * 24 * 60,
  },
  'meta-purge': { retryLimit: 2, retryDelay: 60, policy: 'singleton' },
  'security-purge': { retryLimit: 2, retryDelay: 60, policy: 'singleton' },
  'checkout-drafts-purge': { retryLimit: 2, retryDelay: 60, policy: 'singleton' },
}

export interface JobQueue {
  /** Enqueues on the given transaction's connection, so the job exists only if it commits. */
  send<N extends JobName>(
    on: DbOrTx,
    name: N,
    data: JobPayloads[N],
    options?: PgBoss.JobOptions,
  ): Promise<void>
}

type QueryClient = { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> }

/**
 * The raw client under a Drizzle database or transaction: a PGlite (transaction) or a
 * node-postgres pool client. Both answer `query(text, values)`.
 */
export function sqlExecutorOf(on: DbOrTx): PgBoss.Db {
  const client = (on as unknown as { session: { client: QueryClient } }).session.client
  return { executeSql: (text, values) => client.query(text, values) as Promise<{ rows: never[] }> }
}

export type JobRuntime = { boss: PgBoss; queue: JobQueue }

/** Starts pg-boss on the shop's database (its own schema) and creates the queues. */
export async function startJobQueue(
  database: Database,
  options: { maintenance?: boolean } = {},
): Promise<JobRuntime> {
  const maintenance = options.maintenance ?? true
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values) as Promise<{ rows: never[] }> },
    supervise: maintenance,
    schedule: maintenance,
  })
  boss.on('error', (error) => logger.error(`[jobs] ${error.message}`))
  // Instances starting at once on a new database would both create pg-boss's schema (its own lock
  // does not stop a duplicate-schema error) and the same queues: they take turns.
  await database.oneAtATime(JOB_QUEUE_SETUP_LOCK_ID, async () => {
    await boss.start()
    await ensureQueue(boss, DEAD_LETTER_QUEUE, {})
    for (const [name, queueOptions] of Object.entries(QUEUE_OPTIONS))
      await ensureQueue(boss, name, { expireInSeconds: JOB_EXPIRY_SECONDS, ...queueOptions })
  })
  return {
    boss,
    queue: {
      async send(on, name, data, sendOptions = {}) {
        await boss.send(name, data, { ...sendOptions, db: sqlExecutorOf(on) })
      },
    },
  }
}

async function ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, 'name'>) {
  if (await boss.getQueue(name)) await boss.updateQueue(name, { name, ...options })
  else await boss.createQueue(name, { name, ...options })
}

/**
 * Deletes jobs of `name` created before `before` wherever pg-boss keeps them (queued, finished, or
 * archived), and dead letters that carry a browser's identifiers (`browser`): for payloads with
 * personal data the shop promises to keep no longer than that. Nothing to do before pg-boss created its tables.
 */
export async function deleteJobsCreatedBefore(database: Database, name: JobName, before: Date) {
  const { rows } = await database.executeSql(`select to_regclass('pgboss.job') is not null as ready`)
  if (!(rows[0] as { ready: boolean } | undefined)?.ready) return 0
  let deleted = 0
  for (const table of ['pgboss.job', 'pgboss.archive']) {
    const answer = await database.executeSql(
      `with gone as (
         delete from ${table}
          where created_on < $2
            and (name = $1 or (name = $3 and data ? 'browser'))
          returning 1
       ) select count(*)::int as n from gone`,
      [name, before.toISOString(), DEAD_LETTER_QUEUE],
    )
    deleted += (answer.rows[0] as { n: number }).n
  }
  return deleted
}

/** A queue that keeps what was sent in memory: for tests that only look at what was enqueued. */
export function recordingJobQueue(): JobQueue & { sent: { name: JobName; data: unknown }[] } {
  const sent: { name: JobName; data: unknown }[] = []
  return {
    sent,
    async send(_on, name, data) {
      sent.push({ name, data })
    },
  }
}
