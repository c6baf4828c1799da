import { randomBytes } from 'node:crypto'
import { listen, sendJson, type RecordedRequest } from './http.ts'

/**
 * A local Meta for tests: the Conversions API (`POST /{version}/{pixel-id}/events?access_token=…`
 * with the Graph API's success and error bodies) and a stand-in of the pixel script
 * (`GET /fbevents.js`), whose `fbq` records its calls in `window.__pixelCalls` and, like the real
 * one, reports each event with a GET to `/tr` (recorded here).
 */

export const STAND_IN_PIXEL_ID = '1234567890123456'
export const STAND_IN_CAPI_TOKEN = 'EAAMetaStandIn00000000000000000000000000'
export const META_GRAPH_VERSION = 'v21.0'

export type MetaGraphError = {
  error: {
    message: string
    type: string
    code: number
    error_subcode?: number
    is_transient?: boolean
    error_user_title?: string
    error_user_msg?: string
    fbtrace_id: string
  }
}

const fbtraceId = () => `A${randomBytes(8).toString('base64url')}`

export function metaError(
  code: number,
  message: string,
  extra: Partial<MetaGraphError['error']> = {},
): MetaGraphError {
  return { error: { message, type: 'OAuthException', code, fbtrace_id: fbtraceId(), ...extra } }
}

const SHA256 = /^[a-f0-9]{64}$/
const HASHED_FIELDS = ['em', 'ph', 'fn', 'ln', 'ct', 'st', 'zp', 'country', 'external_id']
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The first reason Meta would refuse the batch, as its error body; null when it takes it. */
function checkBatch(body: unknown, nowSeconds: number): MetaGraphError | null {
  const invalid = (userMessage: string, subcode = 2804001) =>
    metaError(100, 'Invalid parameter', {
      error_subcode: subcode,
      error_user_title: 'Invalid parameter',
      error_user_msg: userMessage,
    })
  if (!isObject(body) || !Array.isArray(body.data) || body.data.length === 0)
    return metaError(100, '(#100) The parameter data is required')
  if (body.data.length > 1000) return invalid('A batch holds at most 1000 events.')
  for (const event of body.data as unknown[]) {
    if (!isObject(event) || typeof event.event_name !== 'string' || !event.event_name)
      return invalid('event_name is required.')
    if (typeof event.event_time !== 'number' || !Number.isInteger(event.event_time))
      return invalid('event_time must be a Unix timestamp in seconds.')
    if (event.event_time < nowSeconds - 7 * 24 * 3600)
      return invalid(
        'The timestamp for this event is too far in the past. Events need to be sent from your server within 7 days of when they occurred.',
        2804004,
      )
    if (event.event_time > nowSeconds + 60) return invalid('event_time is in the future.', 2804005)
    if (event.action_source !== 'website') return invalid('action_source must be website here.')
    if (typeof event.event_source_url !== 'string')
      return invalid('event_source_url is required for website events.')
    if (!isObject(event.user_data)) return invalid('user_data is required.')
    for (const field of HASHED_FIELDS) {
      const value = event.user_data[field]
      if (value === undefined) continue
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && SHA256.test(v)))
        return invalid(`${field} must be SHA-256 hashed.`, 2804019)
    }
  }
  return null
}

/** The pixel script's stand-in: records `fbq` calls and reports events like the real one. */
function pixelScript(origin: string) {
  return `(function(){
  var calls = (window.__pixelCalls = window.__pixelCalls || []);
  var fbq = window.fbq;
  function run(args){
    args = Array.prototype.slice.call(args);
    calls.push(args);
    if (args[0] === 'track') {
      var q = 'ev=' + encodeURIComponent(args[1]) + '&eid=' + encodeURIComponent((args[3] && args[3].eventID) || '') +
        '&cd=' + encodeURIComponent(JSON.stringify(args[2] || {}));
      new Image().src = ${JSON.stringify(origin)} + '/tr?' + q;
    }
  }
  var queued = (fbq && fbq.queue) || [];
  if (fbq) { fbq.callMethod = function(){ run(arguments) }; }
  for (var i = 0; i < queued.length; i++) run(queued[i]);
  if (fbq) fbq.queue = [];
})();`
}

export type MetaStandIn = Awaited<ReturnType<typeof startMetaStandIn>>

export async function startMetaStandIn(
  options: { pixelId?: string; token?: string; version?: string; now?: () => number } = {},
) {
  const pixelId = options.pixelId ?? STAND_IN_PIXEL_ID
  const token = options.token ?? STAND_IN_CAPI_TOKEN
  const version = options.version ?? META_GRAPH_VERSION
  const now = options.now ?? (() => Math.floor(Date.now() / 1000))
  const requests: RecordedRequest[] = []
  /** Events Meta took, with the batch's test_event_code. */
  const received: { event: Record<string, unknown>; testEventCode?: string }[] = []
  /** What the pixel script reported (`/tr`): event name, eventID and custom data. */
  const pixelHits: { event: string; eventId: string; customData: unknown }[] = []
  const failures: ({ status: number; body: unknown } | { drop: true })[] = []
  const eventsPath = new RegExp(`^/${version.replace(/\./g, '\\.')}/([^/]+)/events$`)
  let origin = ''

  const server = await listen(requests, (request, response) => {
    if (request.method === 'GET' && request.path === '/fbevents.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript', 'Access-Control-Allow-Origin': '*' })
      return response.end(pixelScript(origin))
    }
    if (request.method === 'GET' && request.path === '/tr') {
      let customData: unknown
      try {
        customData = JSON.parse(request.query.get('cd') ?? 'null')
      } catch {
        customData = null
      }
      pixelHits.push({
        event: request.query.get('ev') ?? '',
        eventId: request.query.get('eid') ?? '',
        customData,
      })
      response.writeHead(200, { 'Content-Type': 'image/gif' })
      return response.end()
    }
    if (request.method === 'GET' && request.path === '/__seen') {
      return sendJson(response, 200, { received, pixelHits })
    }
    const failure = failures.shift()
    if (failure) {
      if ('drop' in failure) return response.socket?.destroy()
      return sendJson(response, failure.status, failure.body)
    }
    const match = eventsPath.exec(request.path)
    if (request.method !== 'POST' || !match)
      return sendJson(response, 400, metaError(100, 'Unknown path components', { error_subcode: 2500 }))
    if (request.query.get('access_token') !== token)
      return sendJson(response, 400, metaError(190, 'Invalid OAuth access token - Cannot parse access token'))
    if (decodeURIComponent(match[1]!) !== pixelId)
      return sendJson(
        response,
        400,
        metaError(
          100,
          `Unsupported post request. Object with ID '${match[1]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          { type: 'GraphMethodException', error_subcode: 33 },
        ),
      )
    const refusal = checkBatch(request.body, now())
    if (refusal) return sendJson(response, 400, refusal)
    const body = request.body as { data: Record<string, unknown>[]; test_event_code?: string }
    for (const event of body.data) received.push({ event, testEventCode: body.test_event_code })
    return sendJson(response, 200, {
      events_received: body.data.length,
      messages: [],
      fbtrace_id: fbtraceId(),
    })
  })
  origin = server.origin

  return {
    /** META_API_URL for the app: `http://127.0.0.1:port/v21.0`. */
    url: `${server.origin}/${version}`,
    /** META_PIXEL_SCRIPT_URL for the app. */
    scriptUrl: `${server.origin}/fbevents.js`,
    origin: server.origin,
    pixelId,
    token,
    requests,
    received,
    pixelHits,
    /** The next `count` event posts answer HTTP `status` with `body`. */
    failNext(count: number, status: number, body: unknown) {
      for (let i = 0; i < count; i++) failures.push({ status, body })
    },
    dropNext(count: number) {
      for (let i = 0; i < count; i++) failures.push({ drop: true })
    },
    reset() {
      requests.length = 0
      received.length = 0
      pixelHits.length = 0
      failures.length = 0
    },
    stop: server.close,
  }
}
