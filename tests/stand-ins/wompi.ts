import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { bearerToken, listen, sendJson, type RecordedRequest } from './http.ts'

/**
 * A local Wompi for adapter and browser tests, in Wompi's shapes (docs.wompi.co): the Web Checkout
 * page at `GET /p/` (it checks the integrity signature as Wompi does and refuses a changed amount;
 * its buttons pay as the shopper would, post the signed event to `eventsUrl` and send the shopper
 * back to the redirect URL), `POST /v1/transactions/{id}/void` with the private key (cards only),
 * `GET /v1/transactions/{id}` with the public key, `GET /v1/transactions?reference=` with the
 * private key, errors as `{ error: { type, reason } }`; `pay` plays the shopper on the checkout
 * page, and `eventFor` signs the `transaction.updated` event Wompi would post.
 */

export const STAND_IN_WOMPI_KEYS = {
  publicKey: 'pub_test_standin0123456789',
  privateKey: 'prv_test_standin0123456789',
  integritySecret: 'test_integrity_standin0123456789',
  eventsSecret: 'test_events_standin0123456789',
} as const

export type WompiStatus = 'APPROVED' | 'DECLINED' | 'VOIDED' | 'ERROR' | 'PENDING'

export type StandInTransaction = {
  id: string
  created_at: string
  finalized_at: string | null
  amount_in_cents: number
  reference: string
  currency: 'COP'
  customer_email: string | null
  payment_method_type: string
  redirect_url: string
  status: WompiStatus
  status_message: string | null
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/**
 * A `transaction.updated` event as Wompi posts it, its checksum over the transaction's id, status
 * and amount, the timestamp and `eventsSecret` (uppercase hex, as Wompi sends it).
 */
export function signedWompiEvent(
  transaction: { id: string; status: string; amount_in_cents: number } & Record<string, unknown>,
  eventsSecret: string,
  timestamp = Math.floor(Date.now() / 1000),
) {
  const properties = ['transaction.id', 'transaction.status', 'transaction.amount_in_cents']
  const checksum = sha256(
    `${transaction.id}${transaction.status}${transaction.amount_in_cents}${timestamp}${eventsSecret}`,
  ).toUpperCase()
  return {
    event: 'transaction.updated',
    data: { transaction: { ...transaction } },
    environment: 'test',
    signature: { properties, checksum },
    timestamp,
    sent_at: new Date(timestamp * 1000).toISOString(),
  }
}

export async function startWompiStandIn(keys = STAND_IN_WOMPI_KEYS) {
  const requests: RecordedRequest[] = []
  const transactions = new Map<string, StandInTransaction>()
  /** Transactions of another merchant's account: readable by id (as Wompi's public lookup is), never in our search. */
  const foreign = new Set<string>()
  let next = 1

  const refuse = (response: ServerResponse, status: number, type: string, reason: string) =>
    sendJson(response, status, { error: { type, reason } })
  /** Where the checkout page's payments post their events (the shop's endpoint), once set. */
  let eventsUrl: string | null = null

  /** The checkout page's own check: the link must be signed for exactly this amount and reference. */
  function checkoutError(query: URLSearchParams): string | null {
    if (query.get('public-key') !== keys.publicKey) return 'La llave pública no es válida'
    if (query.get('currency') !== 'COP') return 'La moneda debe ser COP'
    const amount = query.get('amount-in-cents') ?? ''
    const reference = query.get('reference') ?? ''
    const expiration = query.get('expiration-time') ?? ''
    const expected = sha256(`${reference}${amount}COP${expiration}${keys.integritySecret}`)
    if (query.get('signature:integrity') !== expected) return 'La firma de integridad no es válida'
    if (expiration && Date.parse(expiration) < Date.now()) return 'El link de pago expiró'
    return null
  }

  const server = await listen(requests, (request, response) => {
    if (request.method === 'GET' && request.path === '/p/') {
      const error = checkoutError(request.query)
      response.writeHead(error ? 422 : 200, { 'Content-Type': 'text/html; charset=utf-8' })
      response.end(error ? `<h1>Error</h1><p>${error}</p>` : checkoutPage(request.query))
      return
    }
    if (request.method === 'POST' && request.path === '/p/pagar') {
      const choice = new URLSearchParams(typeof request.body === 'string' ? request.body : '').get(
        'resultado',
      )
      const status = (['APPROVED', 'DECLINED', 'PENDING'] as const).find((known) => known === choice)
      const link = `${server.origin}/p/?${request.query}`
      if (!status || checkoutError(request.query)) {
        response.writeHead(422, { 'Content-Type': 'text/html; charset=utf-8' })
        response.end('<h1>Error</h1>')
        return
      }
      const { transaction, redirectTo } = pay(link, status)
      void sendEvent(transaction)
      response.writeHead(302, { Location: redirectTo })
      response.end()
      return
    }
    const voiding = /^\/v1\/transactions\/([^/]+)\/void$/.exec(request.path)
    if (request.method === 'POST' && voiding) {
      if (bearerToken(request.headers) !== keys.privateKey) {
        refuse(response, 401, 'INVALID_ACCESS_TOKEN', 'Se requiere la llave privada')
        return
      }
      const transaction = transactions.get(decodeURIComponent(voiding[1]!))
      if (!transaction) {
        refuse(response, 404, 'NOT_FOUND_ERROR', 'La entidad solicitada no existe')
        return
      }
      if (transaction.status !== 'APPROVED' || transaction.payment_method_type !== 'CARD') {
        refuse(response, 422, 'INPUT_VALIDATION_ERROR', 'Solo se anulan transacciones APPROVED con tarjeta')
        return
      }
      transaction.status = 'VOIDED'
      void sendEvent(transaction)
      sendJson(response, 201, { data: { transaction } })
      return
    }
    const one = /^\/v1\/transactions\/([^/]+)$/.exec(request.path)
    if (request.method === 'GET' && one) {
      if (
        bearerToken(request.headers) !== keys.publicKey &&
        bearerToken(request.headers) !== keys.privateKey
      ) {
        refuse(response, 401, 'INVALID_ACCESS_TOKEN', 'La llave proporcionada no es válida')
        return
      }
      const transaction = transactions.get(decodeURIComponent(one[1]!))
      if (!transaction) {
        refuse(response, 404, 'NOT_FOUND_ERROR', 'La entidad solicitada no existe')
        return
      }
      sendJson(response, 200, { data: transaction, meta: {} })
      return
    }
    if (request.method === 'GET' && request.path === '/v1/transactions') {
      if (bearerToken(request.headers) !== keys.privateKey) {
        refuse(response, 401, 'INVALID_ACCESS_TOKEN', 'Se requiere la llave privada')
        return
      }
      const reference = request.query.get('reference')
      const found = [...transactions.values()]
        .filter((transaction) => transaction.reference === reference && !foreign.has(transaction.id))
        .reverse()
      sendJson(response, 200, { data: found, meta: {} })
      return
    }
    refuse(response, 404, 'NOT_FOUND_ERROR', 'Ruta no encontrada')
  })

  /** The page a shopper sees: the amount and one button per outcome, posting back here. */
  function checkoutPage(query: URLSearchParams) {
    const amount = Number(query.get('amount-in-cents')) / 100
    const buttons = [
      ['APPROVED', 'Pagar con Nequi'],
      ['DECLINED', 'Simular pago rechazado'],
      ['PENDING', 'Simular pago pendiente'],
    ]
      .map(([value, label]) => `<button type="submit" name="resultado" value="${value}">${label}</button>`)
      .join('')
    return `<!doctype html><meta charset="utf-8"><title>Wompi</title><h1>Paga con Wompi</h1><p>Referencia ${query.get('reference')}</p><p>Total $ ${amount.toLocaleString('es-CO')}</p><form method="post" action="/p/pagar?${query.toString().replaceAll('"', '&quot;')}">${buttons}</form>`
  }

  function pay(checkoutLink: string, status: WompiStatus, method = 'NEQUI') {
    const query = new URL(checkoutLink).searchParams
    const error = checkoutError(query)
    if (error) throw new Error(error)
    const now = new Date().toISOString()
    const transaction: StandInTransaction = {
      id: `12345-${Date.now()}-${String(next++).padStart(5, '0')}`,
      created_at: now,
      finalized_at: status === 'PENDING' ? null : now,
      amount_in_cents: Number(query.get('amount-in-cents')),
      reference: query.get('reference')!,
      currency: 'COP',
      customer_email: query.get('customer-data:email'),
      payment_method_type: method,
      redirect_url: query.get('redirect-url')!,
      status,
      status_message: status === 'DECLINED' ? 'Fondos insuficientes' : null,
    }
    transactions.set(transaction.id, transaction)
    const back = new URL(transaction.redirect_url)
    back.searchParams.set('id', transaction.id)
    back.searchParams.set('env', 'test')
    return { transaction, redirectTo: back.toString() }
  }

  /** The `transaction.updated` event Wompi posts for this transaction, signed with the events secret. */
  function eventFor(transaction: StandInTransaction, timestamp = Math.floor(Date.now() / 1000)) {
    return signedWompiEvent(transaction, keys.eventsSecret, timestamp)
  }

  /** Posts the transaction's event to the shop, as Wompi does after each change (if told where). */
  async function sendEvent(transaction: StandInTransaction) {
    if (!eventsUrl) return null
    const answer = await fetch(eventsUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(eventFor(transaction)),
    }).catch(() => null)
    return answer?.status ?? null
  }

  return {
    url: `${server.origin}/v1`,
    checkoutUrl: `${server.origin}/p/`,
    keys,
    requests,
    transactions,
    /**
     * The shopper pays on the checkout page of `checkoutLink` with `method`: the transaction Wompi
     * makes, and where it sends the shopper back (`redirect-url?id=…&env=test`). Throws what the
     * page would show for a link it refuses.
     */
    pay,
    /**
     * Another merchant, with a Wompi account of its own, makes an approved transaction whose
     * reference is one of our orders: Wompi's lookup by id shows it, our account's search does not.
     */
    payAsAnotherMerchant(reference: string, amountInCents: number) {
      const now = new Date().toISOString()
      const transaction: StandInTransaction = {
        id: `99999-${Date.now()}-${String(next++).padStart(5, '0')}`,
        created_at: now,
        finalized_at: now,
        amount_in_cents: amountInCents,
        reference,
        currency: 'COP',
        customer_email: null,
        payment_method_type: 'CARD',
        redirect_url: 'https://otra-tienda.example/',
        status: 'APPROVED',
        status_message: null,
      }
      transactions.set(transaction.id, transaction)
      foreign.add(transaction.id)
      return transaction
    },
    /** Moves a pending transaction on, as Wompi does when PSE or Nequi answers. */
    settle(id: string, status: WompiStatus) {
      const transaction = transactions.get(id)
      if (!transaction) throw new Error(`No transaction ${id} in the Wompi stand-in`)
      transaction.status = status
      transaction.finalized_at = new Date().toISOString()
    },
    eventFor,
    sendEvent,
    /** Where the checkout page's payments (and voids) post their events from now on. */
    sendEventsTo(url: string | null) {
      eventsUrl = url
    },
    reset() {
      requests.length = 0
      transactions.clear()
      foreign.clear()
    },
    stop: () => server.close(),
  }
}

export type WompiStandIn = Awaited<ReturnType<typeof startWompiStandIn>>
