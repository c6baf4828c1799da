import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { bearerToken, listen, sendJson, type RecordedRequest } from './http.ts'

/**
 * A local Mercado Pago for adapter tests: `POST /checkout/preferences`, `GET /v1/payments/:id`,
 * `GET /v1/payments/search` and `POST /v1/payments/:id/refunds` with the shapes of the real API
 * (integrations.md), Bearer auth, MP's error JSON `{message, error, status, cause}`, and switches to
 * fail, drop init_point or hang.
 */

export const STAND_IN_ACCESS_TOKEN = 'TEST-1234567890123456-010203-standin0000000000000000000000-123456789'
const COLLECTOR_ID = 123456789

export type StandInPayment = {
  id: number | string
  status: string
  status_detail?: string
  external_reference: string | null
  /** Pesos, as Mercado Pago sends it. */
  transaction_amount: number
  currency_id?: string
  /** ISO date; defaults to when it was added. Search answers newest first. */
  date_created?: string
  /** credit_card, debit_card, bank_transfer (PSE), account_money, ticket… */
  payment_type_id?: string
  /** What Mercado Pago kept, in pesos; `collector` is the seller. */
  fee_details?: { type: string; amount: number; fee_payer: 'collector' | 'payer' }[]
}

/** A refund as `POST /v1/payments/:id/refunds` answers it (amount in pesos). */
export type StandInRefund = {
  id: number
  payment_id: number | string
  amount: number
  metadata: Record<string, unknown>
  source: { id: string; name: string; type: string }
  date_created: string
  unique_sequence_number: string | null
  status: 'approved'
}

export type MercadoPagoError = { message: string; error: string; status: number; cause: unknown[] }

type Failure = { status: number; body?: unknown }

export type MercadoPagoStandIn = Awaited<ReturnType<typeof startMercadoPagoStandIn>>

function mpError(status: number, error: string, message: string, cause: unknown[] = []): MercadoPagoError {
  return { message, error, status, cause }
}

function defaultFailureBody(status: number): MercadoPagoError {
  if (status === 401) return mpError(401, 'unauthorized', 'invalid access token')
  if (status === 403) return mpError(403, 'forbidden', 'At least one policy returned UNAUTHORIZED.')
  if (status === 404) return mpError(404, 'not_found', 'resource not found')
  if (status === 429) return mpError(429, 'too_many_requests', 'Too many requests')
  if (status >= 500) return mpError(status, 'internal_server_error', 'Internal server error')
  return mpError(status, 'bad_request', 'Bad request')
}

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isUrl = (value: unknown) => {
  if (!isNonEmptyString(value)) return false
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** The checks of the preference body; returns MP's 400 error for the first problem. */
function validatePreference(body: unknown): MercadoPagoError | null {
  const invalid = (error: string, message: string) => mpError(400, error, message)
  if (!isObject(body)) return invalid('bad_request', 'invalid body')
  const items = body.items
  if (!Array.isArray(items) || items.length === 0) return invalid('invalid_items', 'items needed')
  for (const item of items as unknown[]) {
    if (!isObject(item)) return invalid('invalid_items', 'item invalid')
    if (!isNonEmptyString(item.id)) return invalid('invalid_items', 'id invalid')
    if (!isNonEmptyString(item.title)) return invalid('invalid_items', 'title invalid')
    if (!Number.isInteger(item.quantity) || (item.quantity as number) < 1) {
      return invalid('invalid_items', 'quantity invalid')
    }
    // COP has no cents at Mercado Pago: whole pesos only.
    if (!Number.isInteger(item.unit_price) || (item.unit_price as number) <= 0) {
      return invalid('invalid_items', 'unit_price invalid')
    }
    if (item.currency_id !== 'COP') return invalid('invalid_items', 'currency_id invalid')
    if (item.picture_url !== undefined && !isUrl(item.picture_url)) {
      return invalid('invalid_items', 'picture_url invalid')
    }
  }
  const backUrls = body.back_urls
  if (!isObject(backUrls) || !['success', 'pending', 'failure'].every((key) => isUrl(backUrls[key]))) {
    return invalid('invalid_back_urls', 'back_urls invalid. Wrong format')
  }
  if (body.auto_return !== 'approved') return invalid('invalid_auto_return', 'auto_return invalid')
  if (!isNonEmptyString(body.external_reference)) {
    return invalid('invalid_external_reference', 'external_reference invalid')
  }
  if (!isUrl(body.notification_url)) return invalid('invalid_notification_url', 'notification_url invalid')
  if (body.payer !== undefined && !isObject(body.payer)) return invalid('invalid_payer', 'payer invalid')
  return null
}

export async function startMercadoPagoStandIn(options: { accessToken?: string } = {}) {
  const accessToken = options.accessToken ?? STAND_IN_ACCESS_TOKEN
  const requests: RecordedRequest[] = []
  const payments = new Map<string, StandInPayment>()
  /** Refunds made, by payment id; and the refund each idempotency key made. */
  const refunds = new Map<string, StandInRefund[]>()
  const refundsByKey = new Map<string, StandInRefund>()
  let nextRefundId = 1_900_000_000
  const preferences = new Map<string, Record<string, unknown>>()
  const failures: Failure[] = []
  const mode = { omitInitPoint: false, hang: null as null | 'headers' | 'body' }

  function createPreference(body: Record<string, unknown>, response: ServerResponse) {
    const id = `${COLLECTOR_ID}-${randomUUID()}`
    const now = new Date().toISOString()
    const preference: Record<string, unknown> = {
      ...body,
      id,
      collector_id: COLLECTOR_ID,
      client_id: '1234567890123456',
      operation_type: 'regular_payment',
      date_created: now,
      last_updated: null,
      expires: false,
      marketplace: 'NONE',
      site_id: 'MCO',
      items: (body.items as Record<string, unknown>[]).map((item) => ({
        description: '',
        category_id: '',
        picture_url: '',
        ...item,
      })),
      init_point: `https://www.mercadopago.com.co/checkout/v1/redirect?pref_id=${id}`,
      sandbox_init_point: `https://sandbox.mercadopago.com.co/checkout/v1/redirect?pref_id=${id}`,
    }
    if (mode.omitInitPoint) {
      delete preference.init_point
      delete preference.sandbox_init_point
    }
    preferences.set(id, preference)
    sendJson(response, 201, preference)
  }

  /** The payment resource as `GET /v1/payments/:id` and the search's `results` carry it. */
  function paymentResource(payment: StandInPayment) {
    const created = payment.date_created ?? new Date().toISOString()
    return {
      id: payment.id,
      status: payment.status,
      status_detail: payment.status_detail ?? (payment.status === 'approved' ? 'accredited' : payment.status),
      external_reference: payment.external_reference,
      transaction_amount: payment.transaction_amount,
      currency_id: payment.currency_id ?? 'COP',
      date_created: created,
      date_approved: payment.status === 'approved' ? created : null,
      payment_method_id: payment.payment_type_id === 'credit_card' ? 'visa' : 'pse',
      payment_type_id: payment.payment_type_id ?? 'bank_transfer',
      fee_details: payment.fee_details ?? [],
      collector_id: COLLECTOR_ID,
      live_mode: false,
      metadata: {},
      refunds: refunds.get(String(payment.id)) ?? [],
      transaction_amount_refunded: (refunds.get(String(payment.id)) ?? []).reduce(
        (sum, refund) => sum + refund.amount,
        0,
      ),
    }
  }

  /**
   * `POST /v1/payments/:id/refunds`: an empty body refunds the whole approved payment, which becomes
   * "refunded". The same `X-Idempotency-Key` again answers the refund it made; a payment not
   * approved (or already refunded) is MP's 400, an unknown one its 404.
   */
  function refundPayment(id: string, request: RecordedRequest, response: ServerResponse) {
    const key = request.headers['x-idempotency-key']
    const keyed = typeof key === 'string' && key !== '' ? key : null
    const earlier = keyed ? refundsByKey.get(keyed) : undefined
    if (earlier && String(earlier.payment_id) === id) return sendJson(response, 201, earlier)
    const payment = payments.get(id)
    if (!payment) {
      return sendJson(
        response,
        404,
        mpError(404, 'not_found', 'Payment not found', [
          { code: 2000, description: 'Payment not found', data: null },
        ]),
      )
    }
    if (request.body !== undefined && !isObject(request.body)) {
      return sendJson(response, 400, mpError(400, 'bad_request', 'invalid json body'))
    }
    const body = (request.body ?? {}) as Record<string, unknown>
    if (body.amount !== undefined && body.amount !== payment.transaction_amount) {
      // Partial refunds exist at Mercado Pago; this stand-in only makes whole ones.
      return sendJson(response, 400, mpError(400, 'bad_request', 'partial refunds are not supported here'))
    }
    if (payment.status === 'refunded') {
      return sendJson(
        response,
        400,
        mpError(400, 'bad_request', 'Payment already refunded', [
          { code: 'payment_already_refunded', description: 'Payment already refunded', data: null },
        ]),
      )
    }
    if (payment.status !== 'approved') {
      return sendJson(
        response,
        400,
        mpError(400, 'bad_request', `Invalid payment status: ${payment.status}`, [
          { code: 'invalid_payment_status', description: 'Invalid payment status', data: null },
        ]),
      )
    }
    const refund: StandInRefund = {
      id: nextRefundId++,
      payment_id: payment.id,
      amount: payment.transaction_amount,
      metadata: {},
      source: { id: String(COLLECTOR_ID), name: 'Vitrina', type: 'collector' },
      date_created: new Date().toISOString(),
      unique_sequence_number: null,
      status: 'approved',
    }
    refunds.set(id, [...(refunds.get(id) ?? []), refund])
    if (keyed) refundsByKey.set(keyed, refund)
    payment.status = 'refunded'
    payment.status_detail = 'refunded'
    return sendJson(response, 201, refund)
  }

  /** `GET /v1/payments/search`: filters by external_reference, sorts by date_created, pages. */
  function searchPayments(query: URLSearchParams, response: ServerResponse) {
    const sort = query.get('sort') ?? 'date_created'
    const criteria = query.get('criteria') ?? 'desc'
    if (sort !== 'date_created')
      return sendJson(response, 400, mpError(400, 'bad_request', 'Invalid sort value.'))
    if (criteria !== 'asc' && criteria !== 'desc') {
      return sendJson(response, 400, mpError(400, 'bad_request', 'Invalid criteria value.'))
    }
    const limit = Math.min(Number(query.get('limit') ?? 30) || 30, 1000)
    const offset = Math.max(Number(query.get('offset') ?? 0) || 0, 0)
    const reference = query.get('external_reference')
    const matching = [...payments.values()]
      .filter((payment) => reference === null || payment.external_reference === reference)
      .map(paymentResource)
      .sort((a, b) => a.date_created.localeCompare(b.date_created) * (criteria === 'desc' ? -1 : 1))
    return sendJson(response, 200, {
      paging: { total: matching.length, limit, offset },
      results: matching.slice(offset, offset + limit),
    })
  }

  const { origin, close } = await listen(requests, (request, response) => {
    const failure = failures.shift()
    if (failure) {
      if (typeof failure.body === 'string') {
        response.writeHead(failure.status, { 'Content-Type': 'text/html' })
        return response.end(failure.body)
      }
      return sendJson(response, failure.status, failure.body ?? defaultFailureBody(failure.status))
    }
    if (mode.hang === 'headers') return // never answers
    if (mode.hang === 'body') {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.write('{"id":') // and stalls
      return
    }
    if (bearerToken(request.headers) !== accessToken) {
      return sendJson(response, 401, mpError(401, 'unauthorized', 'invalid access token'))
    }
    if (request.method === 'POST' && request.path === '/checkout/preferences') {
      if (!/^application\/json/.test(request.headers['content-type'] ?? '') || !isObject(request.body)) {
        return sendJson(response, 400, mpError(400, 'bad_request', 'invalid json body'))
      }
      const problem = validatePreference(request.body)
      if (problem) return sendJson(response, problem.status, problem)
      return createPreference(request.body, response)
    }
    if (request.method === 'GET' && request.path === '/v1/payments/search') {
      return searchPayments(request.query, response)
    }
    const refundMatch = /^\/v1\/payments\/([^/]+)\/refunds$/.exec(request.path)
    if (request.method === 'POST' && refundMatch) {
      return refundPayment(decodeURIComponent(refundMatch[1]!), request, response)
    }
    const paymentMatch = /^\/v1\/payments\/([^/]+)$/.exec(request.path)
    if (request.method === 'GET' && paymentMatch) {
      const id = decodeURIComponent(paymentMatch[1]!)
      const payment = payments.get(id)
      if (!payment) {
        return sendJson(
          response,
          404,
          mpError(404, 'not_found', 'Payment not found', [
            { code: 2000, description: 'Payment not found', data: null },
          ]),
        )
      }
      return sendJson(response, 200, paymentResource(payment))
    }
    return sendJson(
      response,
      404,
      mpError(404, 'not_found', `resource ${request.method} ${request.path} not found`),
    )
  })

  return {
    url: origin,
    accessToken,
    /** Every request received, in order. */
    requests,
    /** Preferences created, by id, as answered. */
    preferences,
    /** Refunds made, by payment id. */
    refunds,
    /** What `GET /v1/payments/:id` would say of a payment's status now (undefined when unknown). */
    paymentStatus(id: number | string) {
      return payments.get(String(id))?.status
    },
    /** Registers a payment for `GET /v1/payments/:id` and the search. */
    addPayment(payment: StandInPayment) {
      payments.set(String(payment.id), {
        ...payment,
        // Distinct, increasing times, so "newest first" is well defined.
        date_created: payment.date_created ?? new Date(Date.now() + payments.size).toISOString(),
      })
    },
    /** The next `count` requests answer `status` with MP's error JSON, or `body` (a string goes as text). */
    failNext(count: number, status: number, body?: unknown) {
      for (let i = 0; i < count; i++) failures.push({ status, body })
    },
    /** Preferences come back without init_point / sandbox_init_point. */
    omitInitPoint(on = true) {
      mode.omitInitPoint = on
    },
    /** 'headers': never answers; 'body': sends 200 and half a JSON body, then stalls; null: normal. */
    hang(how: 'headers' | 'body' | null = 'headers') {
      mode.hang = how
    },
    /** Forgets requests, payments, preferences and switches (between tests). */
    reset() {
      requests.length = 0
      failures.length = 0
      payments.clear()
      preferences.clear()
      refunds.clear()
      refundsByKey.clear()
      mode.omitInitPoint = false
      mode.hang = null
    },
    stop: close,
  }
}

/** Stops a stand-in started with startMercadoPagoStandIn. */
export async function stopMercadoPagoStandIn(standIn: MercadoPagoStandIn | undefined) {
  await standIn?.stop()
}
