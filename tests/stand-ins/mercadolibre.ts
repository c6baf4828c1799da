import type { ServerResponse } from 'node:http'
import { bearerToken, listen, sendJson, type RecordedRequest } from './http.ts'

/**
 * A local MercadoLibre for the stock mirror's tests: `GET /users/{seller}/items/search?seller_sku=`,
 * the `/items?ids=` multiget (`[{code, body}]`, variation attributes only with
 * `include_attributes=all`), `PUT /items/{id}` (a variations array that leaves one out deletes
 * it, as integrators report), and `POST /oauth/token` whose refresh tokens work once. Errors use
 * MercadoLibre's `{message, error, status, cause}`.
 */

export const STAND_IN_SELLER_ID = '1234567890'
export const STAND_IN_CLIENT_ID = '4934588586838432'
export const STAND_IN_CLIENT_SECRET = 'standin-client-secret'
export const FIRST_REFRESH_TOKEN = 'TG-standin-refresh-0'

export type Attribute = { id: string; name?: string; value_name: string | null }
export type StandInVariation = { id: number; available_quantity: number; attributes: Attribute[] }
export type StandInItem = {
  id: string
  title: string
  status: 'active' | 'paused' | 'closed' | 'under_review'
  /** Why a paused item is paused: `out_of_stock` when MercadoLibre paused it at 0 units. */
  sub_status: string[]
  available_quantity: number
  attributes: Attribute[]
  variations: StandInVariation[]
}

export const sellerSku = (sku: string): Attribute => ({ id: 'SELLER_SKU', name: 'SKU', value_name: sku })

const mlError = (status: number, error: string, message: string) => ({ message, error, status, cause: [] })

type Failure = { status: number; retryAfter?: string }

export type MercadoLibreStandIn = Awaited<ReturnType<typeof startMercadoLibreStandIn>>

export async function startMercadoLibreStandIn() {
  const requests: RecordedRequest[] = []
  const items = new Map<string, StandInItem>()
  const failures: Failure[] = []
  let validAccessTokens = new Set<string>()
  let refreshToken = FIRST_REFRESH_TOKEN
  let issued = 0
  let oauthDelayMs = 0

  const issuePair = () => {
    issued++
    const access = `APP_USR-${STAND_IN_CLIENT_ID}-standin-${issued}-${STAND_IN_SELLER_ID}`
    validAccessTokens.add(access)
    refreshToken = `TG-standin-refresh-${issued}`
    return { access, refresh: refreshToken }
  }

  const sellerSkuOf = (attributes: Attribute[]) =>
    attributes.find((attribute) => attribute.id === 'SELLER_SKU')?.value_name ?? null

  const carries = (item: StandInItem, sku: string) =>
    sellerSkuOf(item.attributes) === sku || item.variations.some((v) => sellerSkuOf(v.attributes) === sku)

  const shown = (item: StandInItem, allAttributes: boolean) => ({
    id: item.id,
    site_id: 'MCO',
    title: item.title,
    seller_id: Number(STAND_IN_SELLER_ID),
    status: item.status,
    sub_status: item.sub_status,
    available_quantity: item.variations.length
      ? item.variations.reduce((sum, v) => sum + v.available_quantity, 0)
      : item.available_quantity,
    attributes: item.attributes,
    variations: item.variations.map((v) => ({
      id: v.id,
      available_quantity: v.available_quantity,
      attribute_combinations: [{ id: 'COLOR', name: 'Color', value_name: `Color ${v.id}` }],
      ...(allAttributes ? { attributes: v.attributes } : {}),
    })),
  })

  function oauth(request: RecordedRequest, response: ServerResponse) {
    const form = new URLSearchParams(request.rawBody)
    if (!/application\/x-www-form-urlencoded/.test(request.headers['content-type'] ?? '')) {
      return sendJson(response, 400, mlError(400, 'invalid_request', 'unsupported content type'))
    }
    if (
      form.get('client_id') !== STAND_IN_CLIENT_ID ||
      form.get('client_secret') !== STAND_IN_CLIENT_SECRET
    ) {
      return sendJson(response, 400, mlError(400, 'invalid_client', 'invalid client_id or client_secret'))
    }
    if (form.get('grant_type') !== 'refresh_token') {
      return sendJson(response, 400, mlError(400, 'unsupported_grant_type', 'unsupported grant_type'))
    }
    const answer = () => {
      if (form.get('refresh_token') !== refreshToken) {
        return sendJson(
          response,
          400,
          mlError(
            400,
            'invalid_grant',
            'Error validating grant. Your authorization code or refresh token may be expired or it was already used',
          ),
        )
      }
      const pair = issuePair()
      sendJson(response, 200, {
        access_token: pair.access,
        token_type: 'Bearer',
        expires_in: 21600,
        scope: 'offline_access read write',
        user_id: Number(STAND_IN_SELLER_ID),
        refresh_token: pair.refresh,
      })
    }
    // The check happens when the answer is given, as on the real server: two refreshes in flight
    // with one token both pass the request and only the first one wins.
    if (oauthDelayMs > 0) setTimeout(answer, oauthDelayMs)
    else answer()
  }

  function updateItem(item: StandInItem, body: unknown, response: ServerResponse) {
    const update = (body ?? {}) as { available_quantity?: unknown; variations?: unknown }
    if (item.status === 'closed') {
      return sendJson(
        response,
        400,
        mlError(400, 'validation_error', 'Item in status closed can not be modified'),
      )
    }
    if (update.variations !== undefined) {
      if (!Array.isArray(update.variations)) {
        return sendJson(response, 400, mlError(400, 'validation_error', 'variations must be an array'))
      }
      const next: StandInVariation[] = []
      for (const entry of update.variations as { id?: unknown; available_quantity?: unknown }[]) {
        const existing = item.variations.find((v) => v.id === entry.id)
        if (!existing) {
          return sendJson(
            response,
            400,
            mlError(400, 'validation_error', `Variation ${String(entry.id)} not found`),
          )
        }
        if (entry.available_quantity !== undefined) {
          if (!Number.isInteger(entry.available_quantity) || (entry.available_quantity as number) < 0) {
            return sendJson(response, 400, mlError(400, 'validation_error', 'invalid available_quantity'))
          }
          existing.available_quantity = entry.available_quantity as number
        }
        next.push(existing)
      }
      // Variations left out of the array are deleted.
      item.variations = next
    } else if (update.available_quantity !== undefined) {
      if (item.variations.length) {
        return sendJson(
          response,
          400,
          mlError(
            400,
            'validation_error',
            'The item has variations: update available_quantity on each variation',
          ),
        )
      }
      if (!Number.isInteger(update.available_quantity) || (update.available_quantity as number) < 0) {
        return sendJson(response, 400, mlError(400, 'validation_error', 'invalid available_quantity'))
      }
      item.available_quantity = update.available_quantity as number
    }
    // An item MercadoLibre paused for running out of units comes back once it has some.
    const units = item.variations.length
      ? item.variations.reduce((sum, v) => sum + v.available_quantity, 0)
      : item.available_quantity
    if (item.status === 'paused' && item.sub_status.includes('out_of_stock') && units > 0) {
      item.status = 'active'
      item.sub_status = []
    }
    return sendJson(response, 200, shown(item, true))
  }

  const { origin, close } = await listen(requests, (request, response) => {
    if (request.method === 'POST' && request.path === '/oauth/token') return oauth(request, response)
    const failure = failures.shift()
    if (failure) {
      const body = JSON.stringify(
        failure.status === 429
          ? mlError(429, 'too_many_requests', 'Too Many Requests')
          : mlError(failure.status, 'internal_error', 'Internal server error'),
      )
      response.writeHead(failure.status, {
        'Content-Type': 'application/json',
        ...(failure.retryAfter !== undefined ? { 'Retry-After': failure.retryAfter } : {}),
      })
      return response.end(body)
    }
    const token = bearerToken(request.headers)
    if (!token || !validAccessTokens.has(token)) {
      return sendJson(response, 401, mlError(401, 'unauthorized', 'invalid access token'))
    }
    const search = /^\/users\/([^/]+)\/items\/search$/.exec(request.path)
    if (request.method === 'GET' && search) {
      if (decodeURIComponent(search[1]!) !== STAND_IN_SELLER_ID) {
        return sendJson(response, 403, mlError(403, 'forbidden', 'invalid caller.id'))
      }
      const sku = request.query.get('seller_sku')
      const results = [...items.values()].filter((item) => !sku || carries(item, sku)).map((item) => item.id)
      return sendJson(response, 200, {
        seller_id: STAND_IN_SELLER_ID,
        query: null,
        paging: { limit: 50, offset: 0, total: results.length },
        results,
        orders: [{ id: 'stop_time_asc', name: 'Order by stop time asc' }],
        available_orders: [],
      })
    }
    if (request.method === 'GET' && request.path === '/items') {
      const ids = (request.query.get('ids') ?? '').split(',').filter(Boolean)
      if (ids.length === 0 || ids.length > 20) {
        return sendJson(response, 400, mlError(400, 'bad_request', 'ids must contain between 1 and 20 ids'))
      }
      const all = request.query.get('include_attributes') === 'all'
      return sendJson(
        response,
        200,
        ids.map((id) => {
          const item = items.get(id)
          return item
            ? { code: 200, body: shown(item, all) }
            : { code: 404, body: mlError(404, 'not_found', `Item with id ${id} not found`) }
        }),
      )
    }
    const put = /^\/items\/([^/]+)$/.exec(request.path)
    if (request.method === 'PUT' && put) {
      const item = items.get(decodeURIComponent(put[1]!))
      if (!item) return sendJson(response, 404, mlError(404, 'not_found', 'Item not found'))
      return updateItem(item, request.body, response)
    }
    return sendJson(response, 404, mlError(404, 'not_found', `Resource ${request.path} not found`))
  })

  return {
    url: origin,
    requests,
    items,
    /** A listing with one SKU and no variations. */
    addItem(
      id: string,
      sku: string,
      quantity: number,
      status: StandInItem['status'] = 'active',
      subStatus: string[] = [],
    ) {
      items.set(id, {
        id,
        title: `Publicación ${id}`,
        status,
        sub_status: subStatus,
        available_quantity: quantity,
        attributes: [sellerSku(sku)],
        variations: [],
      })
    },
    /** A listing whose variations carry the given SKUs. */
    addItemWithVariations(id: string, variations: { id: number; sku: string; quantity: number }[]) {
      items.set(id, {
        id,
        title: `Publicación ${id}`,
        status: 'active',
        sub_status: [],
        available_quantity: 0,
        attributes: [],
        variations: variations.map((v) => ({
          id: v.id,
          available_quantity: v.quantity,
          attributes: [sellerSku(v.sku)],
        })),
      })
    },
    /** An access token as the seller's authorisation gives it (refresh token FIRST_REFRESH_TOKEN). */
    grantAccessToken() {
      const token = `APP_USR-${STAND_IN_CLIENT_ID}-initial-${STAND_IN_SELLER_ID}`
      validAccessTokens.add(token)
      return token
    },
    /** Every access token handed out stops working (six hours went by). */
    expireAccessTokens() {
      validAccessTokens = new Set()
    },
    /** The refresh token that works now. */
    get currentRefreshToken() {
      return refreshToken
    },
    /** Refreshes answered successfully. */
    get refreshes() {
      return issued
    },
    /** The token endpoint waits this long before answering. */
    delayOAuth(ms: number) {
      oauthDelayMs = ms
    },
    /** The next `count` API requests (not the token endpoint) answer `status`. */
    failNext(count: number, status: number, retryAfter?: string) {
      for (let i = 0; i < count; i++) failures.push({ status, retryAfter })
    },
    apiRequests() {
      return requests.filter((request) => request.path !== '/oauth/token')
    },
    reset() {
      requests.length = 0
      items.clear()
      failures.length = 0
      validAccessTokens = new Set()
      refreshToken = FIRST_REFRESH_TOKEN
      issued = 0
      oauthDelayMs = 0
    },
    stop: close,
  }
}
