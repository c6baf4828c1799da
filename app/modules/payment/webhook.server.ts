import { receivePaymentNotification, type PaymentDeps } from './payment.server.ts'
import { verifyNotificationSignature } from './signature.server.ts'
import { verifiedWompiEvent } from './wompi.server.ts'
import { cleanText } from '#app/utils/text.ts'

export type WebhookAnswer = {
  status: number
  body:
    | { ok: true; outcome: Awaited<ReturnType<typeof receivePaymentNotification>> }
    | { ok: false; error: string }
}

/** Mercado Pago's payment ids are numbers; the simulator's too. Anything else names no payment. */
const PAYMENT_ID = /^\d{1,40}$/
/** `x-request-id` is a UUID at Mercado Pago; bounded printable ASCII is all we store of it. */
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/
/** A notification is a small flat object; nesting deeper than this is not one. */
const MAX_DEPTH = 16

/** Every answer is Spanish, even to Mercado Pago: an admin reads them in the logs. */
const SIGNATURE_PROBLEMS = {
  missing: 'falta',
  malformed: 'mal formada',
  stale: 'vencida',
  mismatch: 'no coincide',
} as const

const refuse = (status: number, error: string): WebhookAnswer => ({ status, body: { ok: false, error } })

/**
 * One Mercado Pago notification: checked, remembered and answered at once; a job does the work.
 * The signature covers `data.id` from the query string, `x-request-id` and `ts` (integrations.md),
 * so those alone name the payment and key repeats: a captured signature sent again with another
 * body is the same notification. Malformed input gets a 4xx and leaves nothing behind.
 */
export async function receiveWebhook(
  deps: Pick<PaymentDeps, 'db' | 'jobs'>,
  secret: string | null,
  request: Request,
): Promise<WebhookAnswer> {
  const url = new URL(request.url)
  const dataId = url.searchParams.get('data.id') ?? url.searchParams.get('id')
  if (!dataId) return refuse(400, 'sin data.id')
  if (!PAYMENT_ID.test(dataId)) return refuse(400, 'data.id no es un número de pago')
  const requestId = request.headers.get('x-request-id')
  if (requestId !== null && !REQUEST_ID.test(requestId)) return refuse(400, 'x-request-id no válido')
  const check = secret
    ? verifyNotificationSignature({ secret, header: request.headers.get('x-signature'), requestId, dataId })
    : ({ ok: false, reason: 'missing' } as const)
  if (!check.ok) return refuse(401, `firma inválida (${SIGNATURE_PROBLEMS[check.reason]})`)

  const read = await readNotificationBody(request)
  if ('status' in read) return read
  const { body, payload } = read

  const queryTopic = url.searchParams.get('type') ?? url.searchParams.get('topic')
  const topic = cleanText(queryTopic ?? (typeof body.type === 'string' ? body.type : '')).slice(0, 50)
  const outcome = await receivePaymentNotification(deps, {
    provider: 'mercadopago',
    eventId: `mp:${dataId}:${requestId !== null ? `request:${requestId}` : `ts:${check.ts}`}`,
    topic,
    resourceId: dataId,
    payload,
  })
  return { status: 200, body: { ok: true, outcome } }
}

/**
 * A notification's JSON object, as sent (`body`) and with every text cleaned (`payload`, what is
 * stored). A body that cannot be read whole (cut off past the size limit, a dropped connection) is
 * no notification: it is refused, nothing is recorded, and the provider sends it again.
 */
async function readNotificationBody(
  request: Request,
): Promise<{ body: Record<string, unknown>; payload: Record<string, unknown> } | WebhookAnswer> {
  let body: unknown
  try {
    body = JSON.parse(await request.text())
  } catch {
    return refuse(400, 'cuerpo ilegible')
  }
  if (!isPlainObject(body)) return refuse(400, 'el cuerpo no es un objeto')
  const payload = cleanJson(body, 0)
  if (payload === TOO_DEEP || !isPlainObject(payload)) return refuse(400, 'cuerpo demasiado anidado')
  return { body, payload }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const TOO_DEEP = Symbol('too deep')

/** A parsed JSON value with every string and key cleaned; `TOO_DEEP` past `MAX_DEPTH` levels. */
function cleanJson(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return cleanText(value)
  if (typeof value !== 'object' || value === null) return value
  if (depth >= MAX_DEPTH) return TOO_DEEP
  if (Array.isArray(value)) {
    const items = value.map((item) => cleanJson(item, depth + 1))
    return items.includes(TOO_DEEP) ? TOO_DEEP : items
  }
  const cleaned: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const inner = cleanJson(item, depth + 1)
    if (inner === TOO_DEEP) return TOO_DEEP
    cleaned[cleanText(key)] = inner
  }
  return cleaned
}

/** Wompi's transaction ids: "{merchant}-{unix time}-{sequence}". */
const WOMPI_TRANSACTION_ID = /^[\w-]{1,64}$/

/**
 * One Wompi event: its checksum checked with the events secret (constant time), remembered once
 * and answered at once; a job reads the transaction from Wompi's API before settling anything, so
 * the event is only a hint. A replay is the same event (its transaction, status and timestamp) and
 * does nothing; an event older than another changes nothing either, since the job reads the
 * transaction as it stands now.
 */
export async function receiveWompiEvent(
  deps: Pick<PaymentDeps, 'db' | 'jobs'>,
  eventsSecret: string | null,
  request: Request,
): Promise<WebhookAnswer> {
  const read = await readNotificationBody(request)
  if ('status' in read) return read
  const { body, payload } = read
  if (typeof body.event === 'string' && body.event !== 'transaction.updated') {
    return { status: 200, body: { ok: true, outcome: 'ignored' } }
  }
  const event = eventsSecret ? verifiedWompiEvent(body, eventsSecret) : null
  if (!event) return refuse(401, 'firma inválida')
  if (!WOMPI_TRANSACTION_ID.test(event.transactionId)) return refuse(400, 'id de transacción no válido')
  const outcome = await receivePaymentNotification(deps, {
    provider: 'wompi',
    eventId: `wompi:${event.transactionId}:${event.status}:${event.timestamp}`,
    topic: 'transaction.updated',
    resourceId: event.transactionId,
    payload,
  })
  return { status: 200, body: { ok: true, outcome } }
}
