import { describe, expect, test } from 'vitest'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import {
  SHOPIFY_VERSION,
  STAND_IN_LOCATION,
  STAND_IN_SHOPIFY_TOKEN,
  startShopifyStandIn,
  type SetMutation,
} from '#tests/stand-ins/shopify.ts'
import { ChannelError } from './channel.server.ts'
import { shopifyClient } from './shopify.server.ts'

const standIn = standInForFile(startShopifyStandIn)
const FAST = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 }

const client = (options: { token?: string; locationId?: string } = {}) =>
  shopifyClient({
    origin: standIn().url,
    apiVersion: SHOPIFY_VERSION,
    token: options.token ?? STAND_IN_SHOPIFY_TOKEN,
    locationId: options.locationId ?? '655441491',
    retry: FAST,
  })

const bodies = () =>
  standIn().requests.map((request) => request.body as { query: string; variables: Record<string, unknown> })
const keyOf = (query: string) => /@idempotent\(key: "([^"]+)"\)/.exec(query)?.[1]

describe('pushStock', () => {
  test('finds the variant by SKU, reads its level and sets "available" by compare-and-set with an idempotency key', async () => {
    const variant = standIn().addVariant('COL-ABC-12345678', 4)
    const outcome = await client().pushStock('COL-ABC-12345678', 9)

    expect(outcome).toEqual({ status: 'ok', quantity: 9, message: 'de 4 a 9' })
    expect(standIn().levels.get(variant.inventoryItemId)).toBe(9)
    const request = standIn().requests[0]!
    expect(request.path).toBe(`/admin/api/${SHOPIFY_VERSION}/graphql.json`)
    expect(request.headers['x-shopify-access-token']).toBe(STAND_IN_SHOPIFY_TOKEN)
    const [find, read, set] = bodies()
    expect(find!.query).toMatch(/productVariants\(first: 5, query: \$query\)/)
    expect(find!.variables).toEqual({ query: 'sku:"COL-ABC-12345678"' })
    expect(read!.variables).toEqual({ item: variant.inventoryItemId, location: STAND_IN_LOCATION })
    expect(keyOf(set!.query)).toMatch(/^[0-9a-f-]{36}$/)
    expect(standIn().mutations).toEqual<SetMutation[]>([
      {
        key: keyOf(set!.query)!,
        input: {
          name: 'available',
          reason: 'correction',
          referenceDocumentUri: 'gid://vitrina/StockSync/COL-ABC-12345678',
          quantities: [
            {
              inventoryItemId: variant.inventoryItemId,
              locationId: STAND_IN_LOCATION,
              quantity: 9,
              changeFromQuantity: 4,
            },
          ],
        },
      },
    ])
  })

  test('a SKU on two variants is reported, and nothing is set', async () => {
    const first = standIn().addVariant('COL-ABC-1', 4, 'Collar dorado')
    standIn().addVariant('COL-ABC-1', 2, 'Collar plateado')
    const outcome = await client().pushStock('COL-ABC-1', 9)

    expect(outcome.status).toBe('failed')
    expect(outcome.message).toMatch(/el SKU está en 2 variantes de Shopify \(Collar dorado .*Collar plateado/)
    expect(standIn().mutations).toEqual([])
    expect(standIn().levels.get(first.inventoryItemId)).toBe(4)
  })

  test('only the variant whose SKU is exactly ours is set (the search also finds longer SKUs)', async () => {
    const ours = standIn().addVariant('COL-ABC-1', 1)
    const longer = standIn().addVariant('COL-ABC-10', 1)
    expect((await client().pushStock('COL-ABC-1', 6)).status).toBe('ok')
    expect(standIn().levels.get(ours.inventoryItemId)).toBe(6)
    expect(standIn().levels.get(longer.inventoryItemId)).toBe(1)
  })

  test('no variant with the SKU: not listed, not an error', async () => {
    expect(await client().pushStock('NOT-THERE-1', 3)).toEqual({
      status: 'not-listed',
      message: 'sin variante con este SKU',
    })
  })

  test('a variant not stocked at the location fails without writing', async () => {
    standIn().addVariant('COL-ABC-1', null)
    const outcome = await client().pushStock('COL-ABC-1', 3)
    expect(outcome).toEqual({
      status: 'failed',
      message: 'la variante no tiene inventario en la ubicación configurada',
    })
    expect(standIn().mutations).toEqual([])
  })

  test('the level already right: nothing is written', async () => {
    standIn().addVariant('COL-ABC-1', 5)
    expect(await client().pushStock('COL-ABC-1', 5)).toEqual({
      status: 'ok',
      quantity: 5,
      message: 'ya tenía 5',
    })
    expect(standIn().mutations).toEqual([])
  })

  test('CHANGE_FROM_QUANTITY_STALE: the level is read again and set from the new value, with a new key', async () => {
    const variant = standIn().addVariant('COL-ABC-1', 4)
    standIn().moveBeforeNextSet(variant.inventoryItemId, 2)
    const outcome = await client().pushStock('COL-ABC-1', 9)

    expect(outcome).toEqual({ status: 'ok', quantity: 9, message: 'de 2 a 9' })
    expect(standIn().levels.get(variant.inventoryItemId)).toBe(9)
    const [stale, fresh] = standIn().mutations
    expect(stale!.input.quantities[0]!.changeFromQuantity).toBe(4)
    expect(fresh!.input.quantities[0]!.changeFromQuantity).toBe(2)
    expect(fresh!.key).not.toBe(stale!.key)
  })

  test('an answer lost after the write: the retry carries the same key and Shopify applies it once', async () => {
    const variant = standIn().addVariant('COL-ABC-1', 4)
    standIn().loseNextMutationAnswer()
    expect((await client().pushStock('COL-ABC-1', 9)).status).toBe('ok')

    const sets = bodies().filter((body) => body.query.includes('inventorySetQuantities'))
    expect(sets).toHaveLength(2)
    expect(keyOf(sets[1]!.query)).toBe(keyOf(sets[0]!.query))
    expect(standIn().mutations).toHaveLength(1)
    expect(standIn().levels.get(variant.inventoryItemId)).toBe(9)
  })

  test.each(['graphql', 'http'] as const)(
    'throttled (%s) requests are repeated after a backoff',
    async (how) => {
      standIn().addVariant('COL-ABC-1', 4)
      standIn().throttleNext(2, how)
      expect((await client().pushStock('COL-ABC-1', 7)).status).toBe('ok')
      expect(standIn().requests).toHaveLength(5)
    },
  )

  test('still throttled after every attempt: a retryable error for the job queue', async () => {
    standIn().addVariant('COL-ABC-1', 4)
    standIn().throttleNext(10)
    const error = await client()
      .pushStock('COL-ABC-1', 7)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChannelError)
    expect((error as ChannelError).retryable).toBe(true)
    expect(standIn().requests).toHaveLength(FAST.attempts)
  })

  test('a refused token is not retried', async () => {
    const error = await client({ token: 'shpat_wrong' })
      .pushStock('COL-ABC-1', 7)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChannelError)
    expect((error as ChannelError).retryable).toBe(false)
    expect((error as Error).message).toMatch(/SHOPIFY_ADMIN_TOKEN/)
    expect(standIn().requests).toHaveLength(1)
  })
})

test('readStock reads many SKUs in one query and says why a SKU has no quantity', async () => {
  standIn().addVariant('A-1', 3)
  standIn().addVariant('B-2', 0)
  standIn().addVariant('C-3', 1)
  standIn().addVariant('C-3', 1)
  standIn().addVariant('D-4', null)
  const quantities = await client().readStock(['A-1', 'B-2', 'C-3', 'D-4', 'E-5'])
  expect(Object.fromEntries(quantities)).toEqual({
    'A-1': { quantity: 3 },
    'B-2': { quantity: 0 },
    'C-3': { missing: 'el SKU está en 2 variantes' },
    'D-4': { missing: 'sin inventario en la ubicación' },
    'E-5': { missing: 'sin variante con este SKU' },
  })
  expect(standIn().requests).toHaveLength(1)
})
