import {
  backoffDelay,
  ChannelError,
  DEFAULT_RETRY,
  retryAfterOf,
  sleep,
  type ChannelQuantity,
  type PushOutcome,
  type RetryPolicy,
  type StockChannelClient,
} from './channel.server.ts'
import type { TokenPair, TokenSource } from './mercadolibre-tokens.server.ts'

/**
 * MercadoLibre stock mirror (integrations.md): the seller's listings for a SKU by
 * `GET /users/{seller}/items/search?seller_sku=`, the items by multiget, then
 * `PUT /items/{id}` with `available_quantity` (on the variation whose SELLER_SKU matches).
 */

const TIMEOUT_MS = 15_000
/** `/items?ids=` takes at most 20 ids. */
const MULTIGET_SIZE = 20
/** Listings that can no longer be changed. */
const FINAL_STATUSES = new Set(['closed'])

type Attribute = { id: string; value_name?: string | null }
type Variation = { id: number; available_quantity?: number; attributes?: Attribute[] }
type Item = {
  id: string
  status?: string
  available_quantity?: number
  attributes?: Attribute[]
  variations?: Variation[]
}
type ErrorBody = { message?: string; error?: string; status?: number }

const sellerSkuOf = (attributes: Attribute[] | undefined) =>
  attributes?.find((attribute) => attribute.id === 'SELLER_SKU')?.value_name ?? null

/** Where the SKU's units live in one listing: the item itself, or some of its variations. */
type Placement = { item: Item; variationIds: number[] | null }

function placementOf(item: Item, sku: string): Placement | { item: Item; problem: string } {
  const variations = item.variations ?? []
  if (variations.length === 0) return { item, variationIds: null }
  const matching = variations.filter((variation) => sellerSkuOf(variation.attributes) === sku)
  if (matching.length === 0) {
    return {
      item,
      problem: `la publicación ${item.id} tiene variaciones y ninguna lleva el SELLER_SKU ${sku}`,
    }
  }
  return { item, variationIds: matching.map((variation) => variation.id) }
}

function quantityOf(placement: Placement): number {
  if (placement.variationIds === null) return placement.item.available_quantity ?? 0
  const ids = new Set(placement.variationIds)
  return (placement.item.variations ?? [])
    .filter((variation) => ids.has(variation.id))
    .reduce((sum, variation) => sum + (variation.available_quantity ?? 0), 0)
}

const describe = (body: unknown, status: number) => {
  const error = (body ?? {}) as ErrorBody
  return error.message || error.error || `HTTP ${status}`
}

/**
 * `POST /oauth/token` with `grant_type=refresh_token`: a new pair. invalid_grant (the refresh token
 * was spent, revoked or expired) cannot be retried: the seller must authorise the app again.
 */
export function mercadoLibreOAuth(options: {
  baseUrl: string
  clientId: string
  clientSecret: string
  fetch?: typeof fetch
}): (refreshToken: string) => Promise<TokenPair> {
  const doFetch = options.fetch ?? fetch
  const url = `${options.baseUrl.replace(/\/$/, '')}/oauth/token`
  return async (refreshToken) => {
    let response: Response
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: options.clientId,
          client_secret: options.clientSecret,
          refresh_token: refreshToken,
        }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch (error) {
      throw new ChannelError(
        `MercadoLibre no respondió al renovar el token: ${error instanceof Error ? error.message : String(error)}`,
        true,
      )
    }
    const body = (await response.json().catch(() => null)) as
      ({ access_token?: string; refresh_token?: string; expires_in?: number } & ErrorBody) | null
    if (response.ok && body?.access_token && body.refresh_token) {
      return {
        accessToken: body.access_token,
        refreshToken: body.refresh_token,
        expiresInSeconds: body.expires_in ?? 21_600,
      }
    }
    if (body?.error === 'invalid_grant' || body?.error === 'invalid_client') {
      throw new ChannelError(
        `MercadoLibre rechazó la renovación del token (${body.error}): autoriza de nuevo la aplicación y actualiza ML_REFRESH_TOKEN`,
        false,
      )
    }
    throw new ChannelError(
      `MercadoLibre no renovó el token: ${describe(body, response.status)}`,
      response.status === 429 || response.status >= 500,
    )
  }
}

export type MercadoLibreOptions = {
  baseUrl: string
  sellerId: string
  tokens: TokenSource
  retry?: RetryPolicy
  fetch?: typeof fetch
}

export function mercadoLibreClient(options: MercadoLibreOptions): StockChannelClient {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl.replace(/\/$/, '')
  const retry = options.retry ?? DEFAULT_RETRY

  /**
   * One call with the Bearer token: a 401 renews the token once and repeats; 429, 5xx and lost
   * connections are repeated with backoff, then thrown as retryable for the job queue.
   */
  async function call(method: 'GET' | 'PUT', path: string, body?: unknown) {
    let token = await options.tokens.accessToken()
    let renewed = false
    for (let attempt = 0; ;) {
      let response: Response
      try {
        response = await doFetch(`${base}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        })
      } catch (error) {
        attempt++
        if (attempt < retry.attempts) {
          await sleep(backoffDelay(retry, attempt - 1))
          continue
        }
        throw new ChannelError(
          `MercadoLibre no respondió: ${error instanceof Error ? error.message : String(error)}`,
          true,
        )
      }
      if (response.status === 401 && !renewed) {
        await response.body?.cancel()
        renewed = true
        token = await options.tokens.renew(token)
        continue
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel()
        attempt++
        if (attempt < retry.attempts) {
          await sleep(backoffDelay(retry, attempt - 1, retryAfterOf(response)))
          continue
        }
        const reason = response.status === 429 ? ' (demasiadas solicitudes)' : ''
        throw new ChannelError(
          `MercadoLibre respondió ${response.status}${reason} tras ${retry.attempts} intentos`,
          true,
        )
      }
      const data: unknown = await response.json().catch(() => null)
      if (!response.ok) {
        throw new ChannelError(
          `MercadoLibre rechazó ${method} ${path.split('?')[0]}: ${describe(data, response.status)}`,
          false,
        )
      }
      return data
    }
  }

  async function listingIds(sku: string): Promise<string[]> {
    const query = new URLSearchParams({ seller_sku: sku })
    const data = (await call(
      'GET',
      `/users/${encodeURIComponent(options.sellerId)}/items/search?${query}`,
    )) as { results?: string[] } | null
    return data?.results ?? []
  }

  async function items(ids: string[]): Promise<Item[]> {
    const found: Item[] = []
    for (let i = 0; i < ids.length; i += MULTIGET_SIZE) {
      const query = new URLSearchParams({
        ids: ids.slice(i, i + MULTIGET_SIZE).join(','),
        // Variations carry their attributes (SELLER_SKU among them) only when asked for.
        include_attributes: 'all',
      })
      const answers = (await call('GET', `/items?${query}`)) as { code: number; body: Item }[] | null
      for (const answer of answers ?? []) if (answer.code === 200 && answer.body?.id) found.push(answer.body)
    }
    return found
  }

  /** The SKU's listings that can still change, with where the SKU sits in each, or why none. */
  async function placements(sku: string): Promise<{ found: Placement[]; problems: string[] } | null> {
    const ids = await listingIds(sku)
    if (ids.length === 0) return null
    const open = (await items(ids)).filter((item) => !FINAL_STATUSES.has(item.status ?? ''))
    if (open.length === 0) return null
    const found: Placement[] = []
    const problems: string[] = []
    for (const item of open) {
      const placement = placementOf(item, sku)
      if ('problem' in placement) problems.push(placement.problem)
      else found.push(placement)
    }
    return { found, problems }
  }

  return {
    channel: 'mercadolibre',

    async pushStock(sku, quantity) {
      const located = await placements(sku)
      if (!located) return { status: 'not-listed', message: 'sin publicación' }
      if (located.found.length === 0) return { status: 'failed', message: located.problems.join('; ') }
      const done: string[] = []
      for (const { item, variationIds } of located.found) {
        if (variationIds === null) {
          await call('PUT', `/items/${encodeURIComponent(item.id)}`, { available_quantity: quantity })
          done.push(item.id)
          continue
        }
        // Every variation goes in the body: one left out would be deleted with its sales history.
        const chosen = new Set(variationIds)
        await call('PUT', `/items/${encodeURIComponent(item.id)}`, {
          variations: (item.variations ?? []).map((variation) =>
            chosen.has(variation.id)
              ? { id: variation.id, available_quantity: quantity }
              : { id: variation.id },
          ),
        })
        done.push(`${item.id} (variación ${variationIds.join(', ')})`)
      }
      const outcome: PushOutcome = { status: 'ok', quantity, message: done.join(', ') }
      if (located.problems.length) outcome.message += `; ${located.problems.join('; ')}`
      return outcome
    },

    async readStock(skus) {
      const quantities = new Map<string, ChannelQuantity>()
      for (const sku of skus) {
        const located = await placements(sku)
        if (!located || located.found.length === 0) {
          quantities.set(sku, { missing: located?.problems.join('; ') || 'sin publicación' })
          continue
        }
        const values = located.found.map(quantityOf)
        quantities.set(
          sku,
          values.every((value) => value === values[0])
            ? { quantity: values[0]! }
            : {
                missing: `publicaciones con cantidades distintas: ${located.found
                  .map((placement, i) => `${placement.item.id}=${values[i]}`)
                  .join(', ')}`,
              },
        )
      }
      return quantities
    },
  }
}
