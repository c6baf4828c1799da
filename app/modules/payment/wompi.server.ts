import { createHash, timingSafeEqual } from 'node:crypto'
import {
  chargedAmount,
  PaymentProviderError,
  type Payment,
  type PaymentProvider,
  type PaymentStatus,
  type PreferenceInput,
} from './provider.ts'

/**
 * Wompi (Bancolombia): cards, PSE, Nequi, Botón Bancolombia, Daviplata… through its Web Checkout,
 * a redirect to Wompi's own page, so no payment data ever reaches the shop (PCI SAQ A).
 *
 * - The checkout URL carries the amount in centavos, COP, our reference and the integrity signature:
 *   SHA-256 hex of reference + amount + currency (+ expiration time) + integrity secret.
 * - Events (`transaction.updated`) are signed: SHA-256 of the values of `signature.properties`
 *   (paths inside `data`), then `timestamp`, then the events secret.
 * - `GET /transactions/{id}` reads one transaction (public key); `GET /transactions?reference=`
 *   lists a reference's transactions (private key).
 *
 * Base URLs are configuration: sandbox `https://sandbox.wompi.co/v1`, production
 * `https://production.wompi.co/v1`; the checkout page `https://checkout.wompi.co/p/`.
 */
export type WompiOptions = {
  /** The API, e.g. https://sandbox.wompi.co/v1. */
  baseUrl: string
  /** The Web Checkout page, e.g. https://checkout.wompi.co/p/. */
  checkoutUrl: string
  publicKey: string
  privateKey: string
  integritySecret: string
  fetch?: typeof fetch
  timeoutMs?: number
}

/** What the shopper is sent to Wompi with. Money in centavos. */
export type WompiCheckoutInput = {
  /** Our reference: the order's id (one per order, so a retried link pays the same order). */
  reference: string
  amountInCents: number
  /** Where Wompi sends the shopper back (with `?id={transaction}`). */
  redirectUrl: string
  /** After this the link takes no payment (the order expires and frees its units). */
  expiresAt?: Date
  customer?: {
    email?: string
    fullName?: string
    phoneNumber?: string
    legalId?: string
    legalIdType?: string
  }
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** The integrity signature of a checkout: what Wompi recomputes to refuse a changed amount. */
export function integritySignature(
  input: { reference: string; amountInCents: number; expirationTime?: string },
  integritySecret: string,
): string {
  return sha256Hex(
    `${input.reference}${input.amountInCents}COP${input.expirationTime ?? ''}${integritySecret}`,
  )
}

/** The Web Checkout link for one payment, signed. */
export function wompiCheckoutUrl(
  options: Pick<WompiOptions, 'checkoutUrl' | 'publicKey' | 'integritySecret'>,
  input: WompiCheckoutInput,
): string {
  if (!Number.isSafeInteger(input.amountInCents) || input.amountInCents <= 0) {
    throw new PaymentProviderError(
      'rejected',
      'El monto a pagar con Wompi debe ser un entero positivo de centavos.',
    )
  }
  const expirationTime = input.expiresAt?.toISOString()
  const params = new URLSearchParams({
    'public-key': options.publicKey,
    currency: 'COP',
    'amount-in-cents': String(input.amountInCents),
    reference: input.reference,
    'signature:integrity': integritySignature(
      { reference: input.reference, amountInCents: input.amountInCents, expirationTime },
      options.integritySecret,
    ),
    'redirect-url': input.redirectUrl,
  })
  if (expirationTime) params.set('expiration-time', expirationTime)
  const customer = input.customer ?? {}
  if (customer.email) params.set('customer-data:email', customer.email)
  if (customer.fullName) params.set('customer-data:full-name', customer.fullName)
  if (customer.phoneNumber) {
    params.set('customer-data:phone-number', customer.phoneNumber)
    params.set('customer-data:phone-number-prefix', '+57')
  }
  if (customer.legalId) {
    params.set('customer-data:legal-id', customer.legalId)
    params.set('customer-data:legal-id-type', customer.legalIdType ?? 'CC')
  }
  const url = new URL(options.checkoutUrl)
  url.search = params.toString()
  return url.toString()
}

/** Wompi's transaction statuses in our payment words (the same as Mercado Pago's settle them). */
export const WOMPI_STATUSES: Readonly<Record<string, PaymentStatus>> = {
  APPROVED: 'approved',
  PENDING: 'pending',
  DECLINED: 'rejected',
  ERROR: 'rejected',
  // Only an approved card payment can be voided: its money goes back, as a refund.
  VOIDED: 'refunded',
}

export type WompiTransaction = Payment & {
  /** NEQUI, PSE, CARD, BANCOLOMBIA_TRANSFER… as Wompi names it. */
  methodType: string | null
  /** Wompi's own words for a decline or an error. */
  statusMessage: string | null
}

const asObject = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null

/** A transaction of the API as ours; null without an id, a known status or an amount. */
export function toWompiTransaction(value: unknown): WompiTransaction | null {
  const data = asObject(value)
  if (!data) return null
  const status = typeof data.status === 'string' ? WOMPI_STATUSES[data.status] : undefined
  if (typeof data.id !== 'string' || !status || !Number.isSafeInteger(data.amount_in_cents)) return null
  return {
    id: data.id,
    status,
    externalReference: typeof data.reference === 'string' ? data.reference : null,
    amount: data.amount_in_cents as number,
    methodType: typeof data.payment_method_type === 'string' ? data.payment_method_type : null,
    method: typeof data.payment_method_type === 'string' ? data.payment_method_type : null,
    statusMessage: typeof data.status_message === 'string' ? data.status_message : null,
  }
}

export interface WompiClient {
  /** One transaction, by Wompi's id (what the redirect and the events name). */
  getTransaction(id: string): Promise<WompiTransaction>
  /** Every transaction made for one reference (our order), newest first. */
  transactionsOf(reference: string): Promise<WompiTransaction[]>
  /**
   * Voids an approved card transaction (its money goes back to the card): the transaction as
   * Wompi leaves it. Other methods (PSE, Nequi…) are refunded from Wompi's dashboard.
   */
  voidTransaction(id: string): Promise<WompiTransaction>
}

/** Wompi's REST API at a configurable base URL, so tests use a local stand-in. */
export function wompiClient(options: WompiOptions): WompiClient {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl.replace(/\/+$/, '')
  async function call(path: string, key: string, method = 'GET'): Promise<Record<string, unknown>> {
    let response: Response
    let text: string
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      })
      text = await response.text()
    } catch (error) {
      throw new PaymentProviderError('network', error instanceof Error ? error.message : String(error))
    }
    let payload: Record<string, unknown> | null
    try {
      payload = asObject(JSON.parse(text))
    } catch {
      payload = null
    }
    if (response.status >= 500 || response.status === 429) {
      throw new PaymentProviderError(
        'network',
        `Wompi no respondió (HTTP ${response.status})`,
        response.status,
      )
    }
    if (!response.ok) {
      const reason = asObject(payload?.error)
      const said = typeof reason?.reason === 'string' ? reason.reason : `HTTP ${response.status}`
      throw new PaymentProviderError('rejected', `Wompi rechazó la consulta: ${said}`, response.status)
    }
    if (!payload)
      throw new PaymentProviderError('invalid-response', `Respuesta sin JSON (HTTP ${response.status})`)
    return payload
  }
  return {
    async getTransaction(id) {
      const payload = await call(`/transactions/${encodeURIComponent(id)}`, options.publicKey)
      const transaction = toWompiTransaction(payload.data)
      if (!transaction) {
        throw new PaymentProviderError('invalid-response', `La transacción ${id} no trae estado o monto`)
      }
      return transaction
    },
    async voidTransaction(id) {
      const payload = await call(`/transactions/${encodeURIComponent(id)}/void`, options.privateKey, 'POST')
      const data = asObject(payload.data)
      const transaction = toWompiTransaction(data?.transaction ?? data)
      if (!transaction) {
        throw new PaymentProviderError('invalid-response', `La anulación de ${id} no trae la transacción`)
      }
      return transaction
    },
    async transactionsOf(reference) {
      const payload = await call(`/transactions?${new URLSearchParams({ reference })}`, options.privateKey)
      if (!Array.isArray(payload.data)) {
        throw new PaymentProviderError('invalid-response', 'La búsqueda de transacciones no trae data')
      }
      return payload.data
        .map(toWompiTransaction)
        .filter(
          (transaction): transaction is WompiTransaction => transaction?.externalReference === reference,
        )
    },
  }
}

/** The signed Web Checkout input of one preference: our order is the reference. */
export function wompiCheckoutInput(input: PreferenceInput): WompiCheckoutInput {
  return {
    reference: input.orderId,
    amountInCents: chargedAmount(input),
    redirectUrl: input.returnUrl,
    expiresAt: input.expiresAt,
    customer: {
      email: input.payer.email || undefined,
      fullName: `${input.payer.name} ${input.payer.surname}`.trim() || undefined,
      phoneNumber: input.payer.phone || undefined,
      legalId: input.payer.identification || undefined,
      legalIdType: input.payer.identificationType ?? undefined,
    },
  }
}

/**
 * Wompi as the checkout's payment provider: the "preference" is the signed Web Checkout link (no
 * call to Wompi until the shopper pays), payments are its transactions, and a refund is a void.
 */
export function wompiProvider(options: WompiOptions): PaymentProvider {
  const client = wompiClient(options)
  return {
    name: 'wompi',
    label: 'Wompi',
    async createPreference(input) {
      return { id: `wompi-${input.orderId}`, initPoint: wompiCheckoutUrl(options, wompiCheckoutInput(input)) }
    },
    getPayment: (id) => client.getTransaction(id),
    searchPayments: (reference) => client.transactionsOf(reference),
    async refundPayment(id) {
      // A void is its own idempotency: a second one finds the transaction voided already.
      const before = await client.getTransaction(id)
      if (before.status === 'refunded') return { id: `void-${id}`, status: 'approved', amount: before.amount }
      if (before.methodType !== 'CARD') {
        throw new PaymentProviderError(
          'rejected',
          `Wompi solo anula por API los pagos con tarjeta; este (${before.methodType ?? 'otro medio'}) se reembolsa desde el panel de Wompi`,
        )
      }
      const voided = await client.voidTransaction(id)
      return {
        id: `void-${id}`,
        status: voided.status === 'refunded' ? 'approved' : 'in_process',
        amount: voided.amount,
      }
    },
  }
}

/** A `transaction.updated` event whose checksum is right: what it says of the transaction. */
export type WompiEvent = {
  transactionId: string
  status: PaymentStatus
  reference: string
  amountInCents: number
  /** Seconds since the epoch, as signed. */
  timestamp: number
}

/** The value at a dotted path inside `data` ("transaction.id"), as Wompi concatenates it. */
function valueAt(data: Record<string, unknown>, path: string): string | null {
  let current: unknown = data
  for (const part of path.split('.')) {
    const object = asObject(current)
    if (!object || !(part in object)) return null
    current = object[part]
  }
  return typeof current === 'string' || typeof current === 'number' || typeof current === 'boolean'
    ? String(current)
    : null
}

/**
 * Checks an event's checksum with the events secret, in constant time. Null for anything forged,
 * malformed or of another kind; the event's transaction is still to be read from Wompi before an
 * order is settled (the event is a hint, the API is the truth).
 */
export function verifiedWompiEvent(body: unknown, eventsSecret: string): WompiEvent | null {
  const event = asObject(body)
  const data = asObject(event?.data)
  const signature = asObject(event?.signature)
  if (!event || !data || !signature || event.event !== 'transaction.updated') return null
  const properties = signature.properties
  const checksum = signature.checksum
  const timestamp = event.timestamp
  if (!Array.isArray(properties) || !properties.length || typeof checksum !== 'string') return null
  if (!Number.isSafeInteger(timestamp)) return null
  const values = properties.map((path) => (typeof path === 'string' ? valueAt(data, path) : null))
  if (values.some((value) => value === null)) return null
  const expected = Buffer.from(sha256Hex(`${values.join('')}${String(timestamp)}${eventsSecret}`), 'hex')
  const given = Buffer.from(checksum.toLowerCase(), 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const transaction = toWompiTransaction(data.transaction)
  if (!transaction?.externalReference) return null
  return {
    transactionId: transaction.id,
    status: transaction.status as PaymentStatus,
    reference: transaction.externalReference,
    amountInCents: transaction.amount,
    timestamp: timestamp as number,
  }
}
