import pLimit from 'p-limit'
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
/** SKUs "Revisar diferencias" looks up at once (each is a search and a multiget). */
const READ_CONCURRENCY = 4
/** Listings that can no longer be changed: left out as if they did not exist. */
const FINAL_STATUSES = new Set(['closed'])

type Attribute = { id: string; value_name?: string | null }
type Variation = { id: number; available_quantity?: number; attributes?: Attribute[] }
type Item = {
  id: string
  status?: string
  sub_status?: string[]
  available_quantity?: number
  attributes?: Attribute[]
  variations?: Variation[]
}
type ErrorBody = { message?: string; error?: string; status?: number }

const sellerSkuOf = (attributes: Attribute[] | undefined) =>
  attributes?.find((attribute) => attribute.id === 'SELLER_SKU')?.value_name ?? null

/**
 * Whether our units go to the listing. integrations.md: the item must be active. MercadoLibre
 * itself pauses an item whose units reach 0 (sub_status `out_of_stock`) and puts it back on sale
 * when units are set again, so such an item takes the push too: skipping it would leave it paused
 * for ever once the shop has stock again. An item paused by the seller or by a moderation, or
 * under review, is left as it is and said so.
 */
const takesUnits = (item: Item) =>
  item.status === 'active' || (item.status === 'paused' && (item.sub_status ?? []).includes('out_of_stock'))

const STATUS_NAMES: Record<string, string> = {
  paused: 'pausada',
  under_review: 'en revisión',
  inactive: 'inactiva',
}
const idleNote = (item: Item) =>
  `${item.id} ${STATUS_NAMES[item.status ?? ''] ?? `en estado ${item.status ?? 'desconocido'}`}`

/** Where the SKU's units live in one listing: the item itself, or some of its variations. */
type Placement = { item: Item; variationIds: number[] | null }

type Located =
  | { kind: 'found'; placement: Placement; place: string; notes: string[] }
  | { kind: 'not-listed' | 'failed'; message: string }

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

  /**
   * Where the SKU's units go, or why they go nowhere. Exactly one item or variation may carry the
   * SKU among the listings that take units: each place shows buyers every unit it is given, so two
   * of them would offer the shop's units twice (reported, as Shopify's duplicate variants are).
   */
  async function locate(sku: string): Promise<Located> {
    const ids = await listingIds(sku)
    const open = ids.length ? (await items(ids)).filter((item) => !FINAL_STATUSES.has(item.status ?? '')) : []
    if (open.length === 0) return { kind: 'not-listed', message: 'sin publicación' }
    const idle = open.filter((item) => !takesUnits(item)).map(idleNote)
    const found: Placement[] = []
    const problems: string[] = []
    for (const item of open.filter(takesUnits)) {
      const placement = placementOf(item, sku)
      if ('problem' in placement) problems.push(placement.problem)
      else found.push(placement)
    }
    const places = found.flatMap((placement) =>
      placement.variationIds === null
        ? [placement.item.id]
        : placement.variationIds.map((id) => `${placement.item.id} (variación ${id})`),
    )
    if (places.length > 1) {
      return {
        kind: 'failed',
        message: `el SKU ${sku} está en ${places.length} publicaciones o variaciones (${places.join(', ')}): cada una ofrecería todas las unidades; déjalo en una sola`,
      }
    }
    const notes = [...problems, ...idle.map((note) => `${note}: no se cambia`)]
    if (places.length === 0) {
      return problems.length
        ? { kind: 'failed', message: notes.join('; ') }
        : { kind: 'not-listed', message: `sin publicación activa: ${idle.join(', ')}` }
    }
    return { kind: 'found', placement: found[0]!, place: places[0]!, notes }
  }

  return {
    channel: 'mercadolibre',

    async pushStock(sku, quantity) {
      const located = await locate(sku)
      if (located.kind !== 'found') return { status: located.kind, message: located.message }
      const { item, variationIds } = located.placement
      if (variationIds === null) {
        await call('PUT', `/items/${encodeURIComponent(item.id)}`, { available_quantity: quantity })
      } else {
        // Every variation goes in the body: one left out would be deleted with its sales history.
        const chosen = new Set(variationIds)
        await call('PUT', `/items/${encodeURIComponent(item.id)}`, {
          variations: (item.variations ?? []).map((variation) =>
            chosen.has(variation.id)
              ? { id: variation.id, available_quantity: quantity }
              : { id: variation.id },
          ),
        })
      }
      const outcome: PushOutcome = { status: 'ok', quantity, message: located.place }
      if (located.notes.length) outcome.message += `; ${located.notes.join('; ')}`
      return outcome
    },

    async readStock(skus) {
      const limit = pLimit(READ_CONCURRENCY)
      // One SKU the channel would not answer for is reported beside the others, not for the batch.
      const read = async (sku: string): Promise<ChannelQuantity> => {
        try {
          const located = await locate(sku)
          return located.kind === 'found'
            ? { quantity: quantityOf(located.placement) }
            : { missing: located.message }
        } catch (error) {
          if (!(error instanceof ChannelError)) throw error
          return { missing: error.message }
        }
      }
      const answers = await Promise.all(skus.map((sku) => limit(() => read(sku))))
      return new Map(skus.map((sku, i) => [sku, answers[i]!]))
    },
  }
}
