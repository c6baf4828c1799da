import { pesosToCentavos } from '#app/utils/money.ts'
import {
  chargedLines,
  PaymentProviderError,
  type Payment,
  type PaymentProvider,
  type PreferenceInput,
  type Refund,
} from './provider.ts'

export type MercadoPagoOptions = {
  baseUrl: string
  accessToken: string
  fetch?: typeof fetch
  timeoutMs?: number
}

/** The Checkout Pro body (integrations.md): amounts in whole pesos, COP. */
export function preferenceBody(input: PreferenceInput) {
  // Net of the order's discounts, adding up to exactly what it charges (`chargedLines`).
  const items = chargedLines(input).map((line) => ({
    id: line.id,
    title: line.title,
    quantity: line.quantity,
    unit_price: line.unitPesos,
    currency_id: 'COP',
    ...(line.pictureUrl ? { picture_url: line.pictureUrl } : {}),
  }))
  return {
    items,
    payer: {
      name: input.payer.name,
      surname: input.payer.surname,
      ...(input.payer.email ? { email: input.payer.email } : {}),
      phone: { area_code: '57', number: input.payer.phone },
      ...(input.payer.identification
        ? { identification: { type: 'CC', number: input.payer.identification } }
        : {}),
    },
    back_urls: input.backUrls,
    auto_return: 'approved',
    external_reference: input.orderId,
    statement_descriptor: 'VITRINA',
    notification_url: `${input.notificationUrl}${input.notificationUrl.includes('?') ? '&' : '?'}source_news=webhooks`,
    metadata: { order_number: input.orderNumber },
    ...(input.expiresAt ? { expires: true, expiration_date_to: input.expiresAt.toISOString() } : {}),
  }
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/** A payment object of the API as ours; null when it lacks a status or an amount. */
function toPayment(payload: Record<string, unknown>, fallbackId: string): Payment | null {
  // Without a status and an amount the payment cannot be settled: never guess "pending" or 0.
  if (typeof payload.status !== 'string' || typeof payload.transaction_amount !== 'number') return null
  return {
    id: String(payload.id ?? fallbackId),
    status: payload.status,
    externalReference: typeof payload.external_reference === 'string' ? payload.external_reference : null,
    amount: pesosToCentavos(payload.transaction_amount),
    method: typeof payload.payment_type_id === 'string' ? payload.payment_type_id : null,
    fee: collectorFee(payload.fee_details),
  }
}

/**
 * What Mercado Pago kept of a payment: its `fee_details` paid by the seller (`collector`), in
 * centavos; null when it reports none.
 */
function collectorFee(details: unknown): number | null {
  if (!Array.isArray(details)) return null
  const paid = details.filter(
    (detail): detail is { amount: number } =>
      typeof detail === 'object' &&
      detail !== null &&
      (detail as Record<string, unknown>).fee_payer !== 'payer' &&
      typeof (detail as Record<string, unknown>).amount === 'number',
  )
  return paid.length ? pesosToCentavos(paid.reduce((sum, detail) => sum + detail.amount, 0)) : null
}

/** A refund object of the API (`{ id, payment_id, amount, status, ... }`, amount in pesos) as ours. */
function toRefund(payload: Record<string, unknown>): Refund | null {
  const id = payload.id
  if ((typeof id !== 'number' && typeof id !== 'string') || id === '') return null
  if (typeof payload.status !== 'string' || typeof payload.amount !== 'number') return null
  return { id: String(id), status: payload.status, amount: pesosToCentavos(payload.amount) }
}

/** Mercado Pago's REST API, at a configurable base URL so tests can use a local stand-in. */
export function mercadoPagoProvider(options: MercadoPagoOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl.replace(/\/$/, '')
  async function call(method: string, path: string, body?: unknown, idempotencyKey?: string) {
    let response: Response
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${options.accessToken}`,
          'Content-Type': 'application/json',
          ...(idempotencyKey ? { 'X-Idempotency-Key': idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      })
    } catch (error) {
      throw new PaymentProviderError('network', errorMessage(error))
    }
    // The timeout also covers the body: a body cut or stalled half-way is no answer, not an empty one.
    let text: string
    try {
      text = await response.text()
    } catch (error) {
      throw new PaymentProviderError('network', errorMessage(error), response.status)
    }
    const payload = parseObject(text)
    if (!response.ok) {
      const message = typeof payload?.message === 'string' ? payload.message : `HTTP ${response.status}`
      throw new PaymentProviderError('rejected', message, response.status)
    }
    if (!payload) {
      throw new PaymentProviderError(
        'invalid-response',
        `Respuesta sin JSON (HTTP ${response.status})`,
        response.status,
      )
    }
    return payload
  }
  return {
    name: 'mercadopago',
    label: 'Mercado Pago',
    async createPreference(input) {
      const payload = await call(
        'POST',
        '/checkout/preferences',
        preferenceBody(input),
        `preference-${input.orderId}`,
      )
      if (typeof payload.init_point !== 'string' || typeof payload.id !== 'string') {
        throw new PaymentProviderError('invalid-response', 'La respuesta no trae init_point')
      }
      return { id: payload.id, initPoint: payload.init_point }
    },
    async getPayment(id): Promise<Payment> {
      const payload = await call('GET', `/v1/payments/${encodeURIComponent(id)}`)
      const payment = toPayment(payload, id)
      if (!payment) throw new PaymentProviderError('invalid-response', `El pago ${id} no trae estado o monto`)
      return payment
    },
    async searchPayments(externalReference) {
      const query = new URLSearchParams({
        external_reference: externalReference,
        sort: 'date_created',
        criteria: 'desc',
      })
      const payload = await call('GET', `/v1/payments/search?${query}`)
      if (!Array.isArray(payload.results)) {
        throw new PaymentProviderError('invalid-response', 'La búsqueda de pagos no trae results')
      }
      return (payload.results as unknown[]).flatMap((result) => {
        const payment =
          typeof result === 'object' && result !== null && !Array.isArray(result)
            ? toPayment(result as Record<string, unknown>, '')
            : null
        // Only payments of this order: never settle an order with another one's money.
        return payment && payment.externalReference === externalReference ? [payment] : []
      })
    },
    async refundPayment(paymentId, idempotencyKey): Promise<Refund> {
      // An empty body refunds the whole payment; the key makes a retry find the same refund.
      const payload = await call(
        'POST',
        `/v1/payments/${encodeURIComponent(paymentId)}/refunds`,
        {},
        idempotencyKey,
      )
      const refund = toRefund(payload)
      if (!refund) {
        throw new PaymentProviderError(
          'invalid-response',
          `El reembolso del pago ${paymentId} no trae id, estado o monto`,
        )
      }
      return refund
    },
  }
}
