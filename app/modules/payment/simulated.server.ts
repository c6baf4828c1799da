import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import {
  PaymentProviderError,
  type Payment,
  type PaymentProvider,
  type PaymentStatus,
  type Refund,
} from './provider.ts'
import { simulatedPayments } from './schema.ts'
import { signNotification } from './signature.server.ts'
import {
  integritySignature,
  wompiCheckoutInput,
  wompiCheckoutUrl,
  type WompiOptions,
} from './wompi.server.ts'
import {
  PAYMENT_WEBHOOK_PATH,
  SIMULATED_WOMPI_PATH,
  simulatedPaymentPath,
  WOMPI_EVENTS_PATH,
} from '#app/utils/paths.ts'
import { logger } from '#app/utils/logger.server.ts'

export type SimulatedChoice = Extract<PaymentStatus, 'approved' | 'pending' | 'rejected'>

/**
 * Stands in for Mercado Pago when no access token is configured: its payment link is a local page
 * whose buttons record a payment here and send our webhook a notification signed the way Mercado
 * Pago signs, so the flow runs offline.
 */
export type SimulatedProvider = PaymentProvider & {
  readonly name: 'simulado'
  /** What the webhook checks notifications against: only this process knows it. */
  readonly webhookSecret: string
  /**
   * Records the outcome chosen on the page and notifies the webhook. A second approval of one order
   * finds the first (`repeated`) and sends nothing.
   */
  pay(input: { orderId: string; status: SimulatedChoice; amount: number }): Promise<{
    id: string
    repeated: boolean
  }>
}

export function simulatedProvider(options: {
  db: DbOrTx
  /** Where the webhook is reached (PUBLIC_URL). */
  publicUrl: string
  /** Made fresh per process when omitted: a secret in the source would let anyone sign. */
  webhookSecret?: string
}): SimulatedProvider {
  const { db, publicUrl } = options
  const webhookSecret = options.webhookSecret ?? randomBytes(32).toString('base64url')
  return {
    name: 'simulado',
    label: 'el simulador de pagos',
    webhookSecret,
    async createPreference(input) {
      return { id: `sim-pref-${input.orderId}`, initPoint: simulatedPaymentPath(input.orderId) }
    },
    getPayment: (id) => simulatedPayment(db, 'mercadopago', id),
    searchPayments: (orderId) => simulatedPaymentsOf(db, 'mercadopago', orderId),
    async refundPayment(id): Promise<Refund> {
      const refund = await refundSimulatedPayment(db, 'mercadopago', id)
      // Mercado Pago tells the webhook a refunded payment changed; so does the simulator.
      if (!refund.repeated) await notifyWebhook(publicUrl, webhookSecret, id, 'payment.updated')
      return { id: refund.id, status: refund.status, amount: refund.amount }
    },
    async pay(input) {
      // Numeric like Mercado Pago's ids; random digits keep two payments of one millisecond apart.
      const payment = await recordSimulatedPayment(
        db,
        'mercadopago',
        input,
        () => `${Date.now()}${randomInt(100_000, 1_000_000)}`,
      )
      if (!payment.repeated) await notifyWebhook(publicUrl, webhookSecret, payment.id)
      return payment
    },
  }
}

type SimulatedProviderName = (typeof simulatedPayments.$inferSelect)['provider']

async function simulatedPayment(db: DbOrTx, provider: SimulatedProviderName, id: string): Promise<Payment> {
  const [row] = await db
    .select()
    .from(simulatedPayments)
    .where(and(eq(simulatedPayments.id, id), eq(simulatedPayments.provider, provider)))
  if (!row) return { id, status: 'not_found', externalReference: null, amount: 0 }
  return asPayment(row)
}

async function simulatedPaymentsOf(
  db: DbOrTx,
  provider: SimulatedProviderName,
  orderId: string,
): Promise<Payment[]> {
  const rows = await db
    .select()
    .from(simulatedPayments)
    .where(and(eq(simulatedPayments.orderId, orderId), eq(simulatedPayments.provider, provider)))
    .orderBy(desc(simulatedPayments.createdAt), desc(simulatedPayments.id))
  return rows.map(asPayment)
}

function asPayment(row: typeof simulatedPayments.$inferSelect): Payment {
  return {
    id: row.id,
    status: row.status,
    externalReference: row.orderId,
    amount: row.amount,
    method: row.provider === 'wompi' ? 'NEQUI' : 'account_money',
  }
}

/** What the simulated Wompi page records and posts, Wompi's words for our choices. */
const WOMPI_WORDS: Record<SimulatedChoice, string> = {
  approved: 'APPROVED',
  pending: 'PENDING',
  rejected: 'DECLINED',
}

/**
 * Stands in for Wompi when no Wompi keys are configured: the checkout's link is the real signed
 * Web Checkout link (keys made fresh per process) pointing at a local page, which checks the
 * signature as Wompi does, records the transaction here and posts our events endpoint the
 * `transaction.updated` event Wompi would, signed with the events secret. So the whole Wompi path
 * (link, signature, event checksum, the job that reads the transaction) runs offline.
 */
export type SimulatedWompi = PaymentProvider & {
  readonly name: 'wompi-simulado'
  /** The keys its links are signed and its events checked with: only this process knows them. */
  readonly keys: Pick<WompiOptions, 'publicKey' | 'integritySecret'> & { eventsSecret: string }
  /** Whether a link's signature is right for its reference and amount (what Wompi's page checks). */
  checkLink(query: URLSearchParams): boolean
  /** Records the shopper's choice for a reference and posts its event: the transaction's id. */
  pay(input: { orderId: string; status: SimulatedChoice; amount: number }): Promise<{
    id: string
    repeated: boolean
  }>
}

export function simulatedWompi(options: { db: DbOrTx; publicUrl: string }): SimulatedWompi {
  const { db, publicUrl } = options
  const secret = () => randomBytes(24).toString('base64url')
  const keys = {
    publicKey: `pub_test_simulado_${secret()}`,
    integritySecret: `test_integrity_${secret()}`,
    eventsSecret: `test_events_${secret()}`,
  }
  // Built on a placeholder origin and answered as a path: the shopper stays on whichever host
  // name the browser uses.
  const local = { checkoutUrl: `http://simulado${SIMULATED_WOMPI_PATH}`, ...keys }
  return {
    name: 'wompi-simulado',
    label: 'el simulador de Wompi',
    keys,
    async createPreference(input) {
      const url = new URL(wompiCheckoutUrl(local, wompiCheckoutInput(input)))
      return { id: `wompi-${input.orderId}`, initPoint: `${url.pathname}${url.search}` }
    },
    checkLink(query) {
      const signed = integritySignature(
        {
          reference: query.get('reference') ?? '',
          amountInCents: Number(query.get('amount-in-cents')),
          expirationTime: query.get('expiration-time') ?? undefined,
        },
        keys.integritySecret,
      )
      return (
        query.get('public-key') === keys.publicKey &&
        /^\d+$/.test(query.get('amount-in-cents') ?? '') &&
        query.get('signature:integrity') === signed
      )
    },
    getPayment: (id) => simulatedPayment(db, 'wompi', id),
    searchPayments: (orderId) => simulatedPaymentsOf(db, 'wompi', orderId),
    async refundPayment(id) {
      const refund = await refundSimulatedPayment(db, 'wompi', id)
      if (!refund.repeated)
        await postWompiEvent(publicUrl, keys.eventsSecret, await simulatedPayment(db, 'wompi', id), 'VOIDED')
      return { id: refund.id, status: refund.status, amount: refund.amount }
    },
    async pay(input) {
      // Wompi's ids: "{merchant}-{unix time}-{sequence}".
      const payment = await recordSimulatedPayment(
        db,
        'wompi',
        input,
        () => `11111-${Math.floor(Date.now() / 1000)}-${randomInt(10_000, 100_000)}`,
      )
      if (!payment.repeated) {
        await postWompiEvent(
          publicUrl,
          keys.eventsSecret,
          { id: payment.id, externalReference: input.orderId, amount: input.amount, status: input.status },
          WOMPI_WORDS[input.status],
        )
      }
      return payment
    },
  }
}

/** Posts our events endpoint the signed `transaction.updated` event Wompi would send. */
async function postWompiEvent(
  publicUrl: string,
  eventsSecret: string,
  payment: Pick<Payment, 'id' | 'externalReference' | 'amount' | 'status'>,
  status: string,
) {
  const timestamp = Math.floor(Date.now() / 1000)
  const checksum = createHash('sha256')
    .update(`${payment.id}${status}${payment.amount}${timestamp}${eventsSecret}`)
    .digest('hex')
  await fetch(`${publicUrl}${WOMPI_EVENTS_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      event: 'transaction.updated',
      data: {
        transaction: {
          id: payment.id,
          amount_in_cents: payment.amount,
          reference: payment.externalReference,
          currency: 'COP',
          payment_method_type: 'NEQUI',
          status,
        },
      },
      environment: 'test',
      signature: {
        properties: ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'],
        checksum,
      },
      timestamp,
      sent_at: new Date(timestamp * 1000).toISOString(),
    }),
  }).catch((error) => logger.error({ err: error }, '[wompi-simulado] evento no entregado'))
}

/**
 * Refunds a whole simulated payment: an approved one becomes "refunded". A payment is refunded at
 * most once, so its refund is named after it and asking again (any key) finds the same refund
 * (`repeated`); a payment not approved is refused as Mercado Pago refuses it, an unknown one too.
 */
async function refundSimulatedPayment(
  db: DbOrTx,
  provider: SimulatedProviderName,
  paymentId: string,
): Promise<Refund & { repeated: boolean }> {
  const refundId = `sim-reembolso-${paymentId}`
  const payment = and(eq(simulatedPayments.id, paymentId), eq(simulatedPayments.provider, provider))
  const [refunded] = await db
    .update(simulatedPayments)
    .set({ status: 'refunded' })
    .where(and(payment, eq(simulatedPayments.status, 'approved')))
    .returning({ amount: simulatedPayments.amount })
  if (refunded) return { id: refundId, status: 'approved', amount: refunded.amount, repeated: false }
  const [row] = await db.select().from(simulatedPayments).where(payment)
  if (!row) throw new PaymentProviderError('rejected', `Pago ${paymentId} no encontrado`, 404)
  if (row.status === 'refunded')
    return { id: refundId, status: 'approved', amount: row.amount, repeated: true }
  throw new PaymentProviderError(
    'rejected',
    `El pago ${paymentId} está en estado ${row.status}: solo se reembolsa un pago aprobado`,
    400,
  )
}

/**
 * Records the outcome chosen on the simulated page. Idempotent for approvals: an order gets at most
 * one approved payment, so a double click on "Aprobar pago" returns the first one (`repeated`).
 */
async function recordSimulatedPayment(
  db: DbOrTx,
  provider: SimulatedProviderName,
  input: { orderId: string; status: SimulatedChoice; amount: number },
  newId: () => string,
): Promise<{ id: string; repeated: boolean }> {
  return db.transaction(async (tx) => {
    // The order's row lock makes two clicks take turns: the second sees the first one's approval.
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, input.orderId)).for('update')
    if (input.status === 'approved') {
      const [earlier] = await tx
        .select({ id: simulatedPayments.id })
        .from(simulatedPayments)
        .where(
          and(
            eq(simulatedPayments.orderId, input.orderId),
            eq(simulatedPayments.provider, provider),
            eq(simulatedPayments.status, 'approved'),
          ),
        )
        .limit(1)
      if (earlier) return { id: earlier.id, repeated: true }
    }
    const id = newId()
    await tx.insert(simulatedPayments).values({ id, provider, ...input })
    return { id, repeated: false }
  })
}

/** Sends our own webhook the signed notification Mercado Pago would send for this payment. */
async function notifyWebhook(
  publicUrl: string,
  secret: string,
  paymentId: string,
  action: 'payment.created' | 'payment.updated' = 'payment.created',
) {
  const ts = String(Date.now())
  const requestId = randomUUID()
  await fetch(`${publicUrl}${PAYMENT_WEBHOOK_PATH}?data.id=${paymentId}&type=payment`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'x-request-id': requestId,
      'x-signature': signNotification(secret, { dataId: paymentId, requestId, ts }),
    },
    body: JSON.stringify({
      id: Number(paymentId),
      type: 'payment',
      action,
      live_mode: false,
      date_created: new Date().toISOString(),
      data: { id: paymentId },
    }),
  }).catch((error) => logger.error({ err: error }, '[pago-simulado] webhook no entregado'))
}
