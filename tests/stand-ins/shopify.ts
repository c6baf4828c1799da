import type { ServerResponse } from 'node:http'
import { listen, sendJson, type RecordedRequest } from './http.ts'

/**
 * A local Shopify Admin GraphQL endpoint for the stock mirror's tests:
 * `POST /admin/api/{version}/graphql.json` with `X-Shopify-Access-Token`, answering the three
 * operations the adapter sends, recognised by their root field: `productVariants(query: "sku:…")`
 * (search terms matched as prefixes, as a search would), `inventoryItem { inventoryLevel }` and
 * `inventorySetQuantities`, which requires `@idempotent(key:)` and `changeFromQuantity` (2026-04+),
 * answers `CHANGE_FROM_QUANTITY_STALE` when the level moved, and replays a repeated key's answer.
 */

export const STAND_IN_SHOPIFY_TOKEN = 'shpat_standin00000000000000000000'
export const STAND_IN_LOCATION = 'gid://shopify/Location/655441491'
export const SHOPIFY_VERSION = '2026-10'

type Variant = { id: string; sku: string; title: string; inventoryItemId: string }

export type SetMutation = {
  key: string
  input: {
    name: string
    reason: string
    referenceDocumentUri?: string
    quantities: {
      inventoryItemId: string
      locationId: string
      quantity: number
      changeFromQuantity: number | null
    }[]
  }
}

export type ShopifyStandIn = Awaited<ReturnType<typeof startShopifyStandIn>>

const userError = (code: string, message: string, field: string[]) => ({ code, message, field })

export async function startShopifyStandIn() {
  const requests: RecordedRequest[] = []
  const variants: Variant[] = []
  /** Available units per inventory item at the stand-in's one location. */
  const levels = new Map<string, number>()
  const idempotent = new Map<string, unknown>()
  const mutations: SetMutation[] = []
  const failures: ({ status: number } | { throttled: true })[] = []
  let moveBeforeNextSet: { inventoryItemId: string; to: number }[] = []
  let loseMutationAnswers = 0
  let nextId = 1

  const path = `/admin/api/${SHOPIFY_VERSION}/graphql.json`

  function setQuantities(document: string, variables: Record<string, unknown>) {
    const keyMatch = /@idempotent\(\s*key:\s*"([^"]+)"\s*\)/.exec(document)
    if (!keyMatch) {
      return {
        errors: [
          {
            message: 'The @idempotent directive is required for this mutation.',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      }
    }
    const key = keyMatch[1]!
    if (idempotent.has(key)) return idempotent.get(key)
    const input = variables.input as SetMutation['input']
    mutations.push({ key, input })
    const problems: ReturnType<typeof userError>[] = []
    if (input.name !== 'available' && input.name !== 'on_hand')
      problems.push(
        userError('INVALID_NAME', 'The quantity name must be available or on_hand.', ['input', 'name']),
      )
    if (
      !['correction', 'cycle_count_available', 'damaged', 'received', 'restock', 'other'].includes(
        input.reason,
      )
    )
      problems.push(userError('INVALID_REASON', 'The specified reason is invalid.', ['input', 'reason']))
    input.quantities.forEach((quantity, index) => {
      const field = ['input', 'quantities', String(index)]
      for (const move of moveBeforeNextSet) levels.set(move.inventoryItemId, move.to)
      moveBeforeNextSet = []
      if (!('changeFromQuantity' in quantity)) {
        problems.push(
          userError('INVALID_CHANGE_FROM_QUANTITY', 'changeFromQuantity is required.', [
            ...field,
            'changeFromQuantity',
          ]),
        )
        return
      }
      if (quantity.locationId !== STAND_IN_LOCATION || !levels.has(quantity.inventoryItemId)) {
        problems.push(
          userError('ITEM_NOT_STOCKED_AT_LOCATION', 'The item is not stocked at the location.', [
            ...field,
            'locationId',
          ]),
        )
        return
      }
      const current = levels.get(quantity.inventoryItemId)!
      if (quantity.changeFromQuantity !== null && quantity.changeFromQuantity !== current) {
        problems.push(
          userError(
            'CHANGE_FROM_QUANTITY_STALE',
            'The specified compare quantity does not match the current quantity.',
            [...field, 'changeFromQuantity'],
          ),
        )
      }
    })
    const answer = problems.length
      ? { data: { inventorySetQuantities: { inventoryAdjustmentGroup: null, userErrors: problems } } }
      : (() => {
          for (const quantity of input.quantities) levels.set(quantity.inventoryItemId, quantity.quantity)
          return {
            data: {
              inventorySetQuantities: {
                inventoryAdjustmentGroup: { id: `gid://shopify/InventoryAdjustmentGroup/${nextId++}` },
                userErrors: [],
              },
            },
          }
        })()
    idempotent.set(key, answer)
    return answer
  }

  const levelOf = (inventoryItemId: string, locationId: unknown) =>
    locationId === STAND_IN_LOCATION && levels.has(inventoryItemId)
      ? { quantities: [{ name: 'available', quantity: levels.get(inventoryItemId)! }] }
      : null

  function answer(document: string, variables: Record<string, unknown>, response: ServerResponse) {
    if (/\binventorySetQuantities\s*\(/.test(document)) {
      const result = setQuantities(document, variables)
      if (loseMutationAnswers > 0) {
        loseMutationAnswers--
        return sendJson(response, 502, { errors: 'Bad Gateway' })
      }
      return sendJson(response, 200, result)
    }
    if (/\bproductVariants\s*\(/.test(document)) {
      const terms = [...String(variables.query ?? '').matchAll(/sku:"((?:[^"\\]|\\.)*)"/g)].map((m) =>
        m[1]!.replace(/\\(.)/g, '$1'),
      )
      const first = Number(variables.first ?? /first:\s*(\d+)/.exec(document)?.[1] ?? 10)
      const withLevel = /inventoryLevel\s*\(/.test(document)
      const nodes = variants
        .filter((variant) => terms.some((term) => variant.sku.startsWith(term)))
        .slice(0, first)
        .map((variant) => ({
          id: variant.id,
          sku: variant.sku,
          product: { title: variant.title },
          inventoryItem: {
            id: variant.inventoryItemId,
            ...(withLevel ? { inventoryLevel: levelOf(variant.inventoryItemId, variables.location) } : {}),
          },
        }))
      return sendJson(response, 200, { data: { productVariants: { nodes } } })
    }
    if (/\binventoryItem\s*\(/.test(document)) {
      const id = String(variables.item)
      const known = variants.some((variant) => variant.inventoryItemId === id)
      return sendJson(response, 200, {
        data: { inventoryItem: known ? { inventoryLevel: levelOf(id, variables.location) } : null },
      })
    }
    return sendJson(response, 200, { errors: [{ message: 'Field is not defined on QueryRoot' }] })
  }

  const { origin, close } = await listen(requests, (request, response) => {
    if (request.method !== 'POST' || request.path !== path) {
      return sendJson(response, 404, { errors: 'Not Found' })
    }
    if (request.headers['x-shopify-access-token'] !== STAND_IN_SHOPIFY_TOKEN) {
      return sendJson(response, 401, {
        errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
      })
    }
    const failure = failures.shift()
    if (failure && 'status' in failure) return sendJson(response, failure.status, { errors: 'Throttled' })
    if (failure) {
      return sendJson(response, 200, {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: {
          cost: {
            requestedQueryCost: 10,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 },
          },
        },
      })
    }
    const body = request.body as { query?: unknown; variables?: unknown } | undefined
    if (typeof body?.query !== 'string')
      return sendJson(response, 400, { errors: { query: 'Required parameter missing' } })
    return answer(body.query, (body.variables ?? {}) as Record<string, unknown>, response)
  })

  return {
    /** The origin the adapter is given in place of https://{shop}. */
    url: origin,
    requests,
    /** inventorySetQuantities calls that reached the shop (repeats of a known key are not added). */
    mutations,
    levels,
    /** A variant carrying `sku`, stocked at the location with `available` units (null: not stocked). */
    addVariant(sku: string, available: number | null, title = `Producto ${sku}`) {
      const n = nextId++
      const variant = {
        id: `gid://shopify/ProductVariant/${n}`,
        sku,
        title,
        inventoryItemId: `gid://shopify/InventoryItem/${n}`,
      }
      variants.push(variant)
      if (available !== null) levels.set(variant.inventoryItemId, available)
      return variant
    },
    /** Someone else sets the item's level right before the next inventorySetQuantities. */
    moveBeforeNextSet(inventoryItemId: string, to: number) {
      moveBeforeNextSet.push({ inventoryItemId, to })
    },
    /** The next `count` requests are throttled: HTTP 429, or 200 with a THROTTLED error. */
    throttleNext(count: number, how: 'http' | 'graphql' = 'graphql') {
      for (let i = 0; i < count; i++) failures.push(how === 'http' ? { status: 429 } : { throttled: true })
    },
    /** The next inventorySetQuantities is carried out but its answer is lost (a 502 comes back). */
    loseNextMutationAnswer() {
      loseMutationAnswers++
    },
    failNext(count: number, status: number) {
      for (let i = 0; i < count; i++) failures.push({ status })
    },
    reset() {
      requests.length = 0
      variants.length = 0
      levels.clear()
      idempotent.clear()
      mutations.length = 0
      failures.length = 0
      moveBeforeNextSet = []
      loseMutationAnswers = 0
    },
    stop: close,
  }
}
