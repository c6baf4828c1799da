import { randomUUID } from 'node:crypto'
import {
  backoffDelay,
  ChannelError,
  DEFAULT_RETRY,
  retryAfterOf,
  sleep,
  type ChannelQuantity,
  type RetryPolicy,
  type StockChannelClient,
} from './channel.server.ts'

/**
 * Shopify stock mirror over the Admin GraphQL API (integrations.md): the variant by
 * `productVariants(query: "sku:…")`, its `available` level at the configured location, then
 * `inventorySetQuantities` with `changeFromQuantity` (compare-and-set) and an `@idempotent` key.
 */

const TIMEOUT_MS = 15_000
/** A stale compare-and-set is read again and retried this many times within one job run. */
const STALE_ATTEMPTS = 3
/** SKUs per query when reading many: `sku:A OR sku:B …` stays well inside the query cost limit. */
const READ_BATCH = 50

export type ShopifyOptions = {
  /** `https://{shop}.myshopify.com` or a stand-in's origin. */
  origin: string
  apiVersion: string
  token: string
  /** Numeric id or `gid://shopify/Location/…`. */
  locationId: string
  retry?: RetryPolicy
  fetch?: typeof fetch
}

type GraphQLError = { message: string; extensions?: { code?: string } }
type UserError = { field?: string[] | null; message: string; code?: string | null }

type VariantNode = {
  id: string
  sku: string | null
  product?: { title?: string } | null
  inventoryItem: {
    id: string
    inventoryLevel?: { quantities: { name: string; quantity: number }[] } | null
  }
}

export const locationGid = (id: string) => (id.startsWith('gid://') ? id : `gid://shopify/Location/${id}`)

/** A search term matching the SKU exactly as one value (quoted, so dashes are not operators). */
const skuTerm = (sku: string) => `sku:"${sku.replace(/(["\\])/g, '\\$1')}"`

const FIND_VARIANTS = `query FindVariants($query: String!) {
  productVariants(first: 5, query: $query) {
    nodes { id sku product { title } inventoryItem { id } }
  }
}`

const READ_LEVEL = `query ReadLevel($item: ID!, $location: ID!) {
  inventoryItem(id: $item) {
    inventoryLevel(locationId: $location) { quantities(names: ["available"]) { name quantity } }
  }
}`

const READ_MANY = `query ReadMany($query: String!, $first: Int!, $location: ID!) {
  productVariants(first: $first, query: $query) {
    nodes {
      id sku
      inventoryItem {
        id
        inventoryLevel(locationId: $location) { quantities(names: ["available"]) { name quantity } }
      }
    }
  }
}`

/** The key goes in the document: Shopify's examples give the directive a literal. */
const setAvailable = (key: string) => `mutation SetAvailable($input: InventorySetQuantitiesInput!) {
  inventorySetQuantities(input: $input) @idempotent(key: ${JSON.stringify(key)}) {
    inventoryAdjustmentGroup { id }
    userErrors { field message code }
  }
}`

const availableOf = (level: { quantities: { name: string; quantity: number }[] } | null | undefined) =>
  level ? (level.quantities.find((q) => q.name === 'available')?.quantity ?? null) : null

export function shopifyClient(options: ShopifyOptions): StockChannelClient {
  const doFetch = options.fetch ?? fetch
  const retry = options.retry ?? DEFAULT_RETRY
  const endpoint = `${options.origin.replace(/\/$/, '')}/admin/api/${options.apiVersion}/graphql.json`
  const location = locationGid(options.locationId)

  /**
   * One GraphQL request. Throttling (HTTP 429 or a THROTTLED error), 5xx and lost connections are
   * repeated with backoff (the same body, so a mutation keeps its idempotency key), then thrown as
   * retryable; anything else Shopify refuses is not retryable.
   */
  async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let response: Response
      const again = async (retryAfter?: number) => {
        if (attempt >= retry.attempts) return false
        await sleep(backoffDelay(retry, attempt - 1, retryAfter))
        return true
      }
      try {
        response = await doFetch(endpoint, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json',
            'X-Shopify-Access-Token': options.token,
          },
          body: JSON.stringify({ query, variables }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        })
      } catch (error) {
        if (await again()) continue
        throw new ChannelError(
          `Shopify no respondió: ${error instanceof Error ? error.message : String(error)}`,
          true,
        )
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel()
        if (await again(retryAfterOf(response))) continue
        throw new ChannelError(`Shopify respondió ${response.status} tras ${retry.attempts} intentos`, true)
      }
      const body = (await response.json().catch(() => null)) as {
        data?: T
        errors?: GraphQLError[] | string
      } | null
      if (response.status === 401 || response.status === 403) {
        throw new ChannelError(
          `Shopify rechazó el token (${response.status}): revisa SHOPIFY_ADMIN_TOKEN y sus permisos de inventario`,
          false,
        )
      }
      const errors = typeof body?.errors === 'string' ? [{ message: body.errors }] : (body?.errors ?? [])
      if (errors.some((error) => error.extensions?.code === 'THROTTLED')) {
        if (await again()) continue
        throw new ChannelError('Shopify limitó las solicitudes (THROTTLED)', true)
      }
      if (!response.ok || errors.length || !body?.data) {
        const message = errors.map((error) => error.message).join('; ') || `HTTP ${response.status}`
        throw new ChannelError(`Shopify rechazó la consulta: ${message}`, false)
      }
      return body.data
    }
  }

  async function readLevel(inventoryItemId: string): Promise<number | null> {
    const data = await graphql<{
      inventoryItem: { inventoryLevel: VariantNode['inventoryItem']['inventoryLevel'] } | null
    }>(READ_LEVEL, { item: inventoryItemId, location })
    return availableOf(data.inventoryItem?.inventoryLevel)
  }

  return {
    channel: 'shopify',

    async pushStock(sku, quantity) {
      const found = await graphql<{ productVariants: { nodes: VariantNode[] } }>(FIND_VARIANTS, {
        query: skuTerm(sku),
      })
      // The search is not an exact match: keep the variants whose SKU is exactly ours.
      const variants = found.productVariants.nodes.filter((node) => node.sku === sku)
      if (variants.length === 0) return { status: 'not-listed', message: 'sin variante con este SKU' }
      if (variants.length > 1) {
        const which = variants.map((v) => `${v.product?.title ?? 'producto'} (${v.id})`).join(', ')
        return {
          status: 'failed',
          message: `el SKU está en ${variants.length} variantes de Shopify (${which}): deja uno solo para sincronizarlo`,
        }
      }
      const inventoryItemId = variants[0]!.inventoryItem.id
      for (let attempt = 1; attempt <= STALE_ATTEMPTS; attempt++) {
        const current = await readLevel(inventoryItemId)
        if (current === null) {
          return { status: 'failed', message: 'la variante no tiene inventario en la ubicación configurada' }
        }
        if (current === quantity) return { status: 'ok', quantity, message: `ya tenía ${quantity}` }
        const result = await graphql<{
          inventorySetQuantities: { userErrors: UserError[] } | null
        }>(setAvailable(randomUUID()), {
          input: {
            name: 'available',
            reason: 'correction',
            referenceDocumentUri: `gid://vitrina/StockSync/${encodeURIComponent(sku)}`,
            quantities: [{ inventoryItemId, locationId: location, quantity, changeFromQuantity: current }],
          },
        })
        const userErrors = result.inventorySetQuantities?.userErrors ?? []
        if (userErrors.length === 0) {
          return { status: 'ok', quantity, message: `de ${current} a ${quantity}` }
        }
        // Someone changed the level between our read and write: read it again.
        if (userErrors.some((error) => error.code === 'CHANGE_FROM_QUANTITY_STALE')) continue
        return { status: 'failed', message: userErrors.map((error) => error.message).join('; ') }
      }
      throw new ChannelError(
        `el nivel de inventario cambió en Shopify en cada uno de ${STALE_ATTEMPTS} intentos`,
        true,
      )
    },

    async readStock(skus) {
      const quantities = new Map<string, ChannelQuantity>()
      for (let i = 0; i < skus.length; i += READ_BATCH) {
        const batch = skus.slice(i, i + READ_BATCH)
        const data = await graphql<{ productVariants: { nodes: VariantNode[] } }>(READ_MANY, {
          query: batch.map(skuTerm).join(' OR '),
          first: 250,
          location,
        })
        for (const sku of batch) {
          const variants = data.productVariants.nodes.filter((node) => node.sku === sku)
          if (variants.length === 0) quantities.set(sku, { missing: 'sin variante con este SKU' })
          else if (variants.length > 1)
            quantities.set(sku, { missing: `el SKU está en ${variants.length} variantes` })
          else {
            const available = availableOf(variants[0]!.inventoryItem.inventoryLevel)
            quantities.set(
              sku,
              available === null ? { missing: 'sin inventario en la ubicación' } : { quantity: available },
            )
          }
        }
      }
      return quantities
    },
  }
}
