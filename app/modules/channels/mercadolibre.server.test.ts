import { describe, expect, test } from 'vitest'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import {
  FIRST_REFRESH_TOKEN,
  STAND_IN_CLIENT_ID,
  STAND_IN_CLIENT_SECRET,
  STAND_IN_SELLER_ID,
  startMercadoLibreStandIn,
} from '#tests/stand-ins/mercadolibre.ts'
import { ChannelError } from './channel.server.ts'
import { mercadoLibreClient, mercadoLibreOAuth } from './mercadolibre.server.ts'
import type { TokenSource } from './mercadolibre-tokens.server.ts'

const standIn = standInForFile(startMercadoLibreStandIn)
const FAST = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 }

const oauth = (clientSecret = STAND_IN_CLIENT_SECRET) =>
  mercadoLibreOAuth({ baseUrl: standIn().url, clientId: STAND_IN_CLIENT_ID, clientSecret })

/** Tokens kept in memory (the database store has its own tests): renews with the real exchange. */
function memoryTokens(): TokenSource & { renewals: number } {
  let access = standIn().grantAccessToken()
  let refresh = FIRST_REFRESH_TOKEN
  const exchange = oauth()
  return {
    renewals: 0,
    accessToken: async () => access,
    async renew() {
      this.renewals++
      const pair = await exchange(refresh)
      access = pair.accessToken
      refresh = pair.refreshToken
      return access
    },
  }
}

const client = (tokens: TokenSource = memoryTokens()) =>
  mercadoLibreClient({ baseUrl: standIn().url, sellerId: STAND_IN_SELLER_ID, tokens, retry: FAST })

const puts = () => standIn().requests.filter((request) => request.method === 'PUT')

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ChannelError)
  return error as ChannelError
}

describe('pushStock', () => {
  test('finds the listing by seller SKU, reads it by multiget and PUTs available_quantity', async () => {
    standIn().addItem('MCO111', 'COL-ABC-1', 2)
    const tokens = memoryTokens()
    const outcome = await client(tokens).pushStock('COL-ABC-1', 7)

    expect(outcome).toEqual({ status: 'ok', quantity: 7, message: 'MCO111' })
    expect(standIn().items.get('MCO111')!.available_quantity).toBe(7)
    const [search, multiget, put] = standIn().requests
    expect(search!.path).toBe(`/users/${STAND_IN_SELLER_ID}/items/search`)
    expect(search!.query.get('seller_sku')).toBe('COL-ABC-1')
    expect(search!.headers.authorization).toBe(`Bearer ${await tokens.accessToken()}`)
    expect(multiget!.path).toBe('/items')
    expect(multiget!.query.get('ids')).toBe('MCO111')
    expect(put).toMatchObject({ method: 'PUT', path: '/items/MCO111', body: { available_quantity: 7 } })
  })

  test('with variations: sets the one whose SELLER_SKU matches and sends every variation id', async () => {
    standIn().addItemWithVariations('MCO222', [
      { id: 1001, sku: 'ARE-DOR-1', quantity: 5 },
      { id: 1002, sku: 'ARE-PLA-2', quantity: 8 },
      { id: 1003, sku: 'ARE-ROS-3', quantity: 1 },
    ])
    const outcome = await client().pushStock('ARE-PLA-2', 3)

    expect(outcome).toEqual({ status: 'ok', quantity: 3, message: 'MCO222 (variación 1002)' })
    const put = standIn().requests.find((request) => request.method === 'PUT')!
    expect(put.body).toEqual({
      variations: [{ id: 1001 }, { id: 1002, available_quantity: 3 }, { id: 1003 }],
    })
    // None deleted, the others unchanged.
    expect(
      standIn()
        .items.get('MCO222')!
        .variations.map((v) => [v.id, v.available_quantity]),
    ).toEqual([
      [1001, 5],
      [1002, 3],
      [1003, 1],
    ])
    const multiget = standIn().requests.find((request) => request.path === '/items')!
    expect(multiget.query.get('include_attributes')).toBe('all')
  })

  test('a closed listing is left out: the open one is set', async () => {
    standIn().addItem('MCO1', 'COL-ABC-1', 2)
    standIn().addItem('MCO3', 'COL-ABC-1', 2, 'closed')
    expect(await client().pushStock('COL-ABC-1', 4)).toEqual({ status: 'ok', quantity: 4, message: 'MCO1' })
    expect(puts().map((r) => r.path)).toEqual(['/items/MCO1'])
  })

  test('a SKU on two listings is a failure and nothing is written (each would offer every unit)', async () => {
    standIn().addItem('MCO1', 'COL-ABC-1', 2)
    standIn().addItem('MCO2', 'COL-ABC-1', 2)
    expect(await client().pushStock('COL-ABC-1', 4)).toEqual({
      status: 'failed',
      message:
        'el SKU COL-ABC-1 está en 2 publicaciones o variaciones (MCO1, MCO2): cada una ofrecería todas las unidades; déjalo en una sola',
    })
    expect(puts()).toEqual([])
  })

  test('a SKU on two variations of one listing is a failure too', async () => {
    standIn().addItemWithVariations('MCO222', [
      { id: 1001, sku: 'ARE-DOR-1', quantity: 5 },
      { id: 1002, sku: 'ARE-DOR-1', quantity: 8 },
    ])
    const outcome = await client().pushStock('ARE-DOR-1', 3)
    expect(outcome.status).toBe('failed')
    expect(outcome.message).toMatch(
      /2 publicaciones o variaciones \(MCO222 \(variación 1001\), MCO222 \(variación 1002\)\)/,
    )
    expect(puts()).toEqual([])
  })

  test('a listing MercadoLibre paused at 0 units takes the units and is back on sale', async () => {
    standIn().addItem('MCO1', 'COL-ABC-1', 0, 'paused', ['out_of_stock'])
    expect(await client().pushStock('COL-ABC-1', 4)).toEqual({ status: 'ok', quantity: 4, message: 'MCO1' })
    expect(standIn().items.get('MCO1')).toMatchObject({ status: 'active', available_quantity: 4 })
  })

  test('a listing the seller paused is left as it is and said so', async () => {
    standIn().addItem('MCO1', 'COL-ABC-1', 2, 'paused')
    expect(await client().pushStock('COL-ABC-1', 4)).toEqual({
      status: 'not-listed',
      message: 'sin publicación activa: MCO1 pausada',
    })
    expect(puts()).toEqual([])

    // Beside an active one, only the active one is set and does not count as a second place.
    standIn().addItem('MCO2', 'COL-ABC-1', 2)
    expect(await client().pushStock('COL-ABC-1', 4)).toEqual({
      status: 'ok',
      quantity: 4,
      message: 'MCO2; MCO1 pausada: no se cambia',
    })
    expect(puts().map((r) => r.path)).toEqual(['/items/MCO2'])
    expect(standIn().items.get('MCO1')).toMatchObject({ status: 'paused', available_quantity: 2 })
  })

  test('no listing: "sin publicación", nothing written, not an error', async () => {
    standIn().addItem('MCO1', 'OTHER-1', 2)
    expect(await client().pushStock('COL-ABC-1', 4)).toEqual({
      status: 'not-listed',
      message: 'sin publicación',
    })
    expect(standIn().requests.some((r) => r.method === 'PUT')).toBe(false)
  })

  test('429 and 5xx are repeated with backoff until they pass, honouring Retry-After', async () => {
    standIn().addItem('MCO1', 'COL-ABC-1', 2)
    standIn().failNext(1, 429, '0')
    standIn().failNext(1, 503)
    expect((await client().pushStock('COL-ABC-1', 4)).status).toBe('ok')
    expect(standIn().requests.map((r) => r.method + ' ' + r.path)).toEqual([
      `GET /users/${STAND_IN_SELLER_ID}/items/search`,
      `GET /users/${STAND_IN_SELLER_ID}/items/search`,
      `GET /users/${STAND_IN_SELLER_ID}/items/search`,
      'GET /items',
      'PUT /items/MCO1',
    ])
  })

  test('still 429 after every attempt: a retryable error for the job queue', async () => {
    standIn().addItem('MCO1', 'COL-ABC-1', 2)
    standIn().failNext(10, 429)
    const error = await failure(client().pushStock('COL-ABC-1', 4))
    expect(error.retryable).toBe(true)
    expect(error.message).toMatch(/429 \(demasiadas solicitudes\) tras 4 intentos/)
    expect(standIn().requests).toHaveLength(FAST.attempts)
  })

  test('a 401 renews the token once and repeats the call', async () => {
    standIn().addItem('MCO1', 'COL-ABC-1', 2)
    const tokens = memoryTokens()
    standIn().expireAccessTokens()
    expect((await client(tokens).pushStock('COL-ABC-1', 4)).status).toBe('ok')
    expect(tokens.renewals).toBe(1)
    expect(standIn().refreshes).toBe(1)
  })

  test('a validation error is not retried', async () => {
    standIn().addItem('MCO1', 'COL-ABC-1', 2)
    const error = await failure(client().pushStock('COL-ABC-1', -1))
    expect(error.retryable).toBe(false)
    expect(error.message).toMatch(/invalid available_quantity/)
  })
})

describe('the token endpoint', () => {
  test('POSTs grant_type=refresh_token as a form and returns the new pair', async () => {
    const pair = await oauth()(FIRST_REFRESH_TOKEN)
    expect(pair).toEqual({
      accessToken: expect.stringMatching(/^APP_USR-/),
      refreshToken: standIn().currentRefreshToken,
      expiresInSeconds: 21600,
    })
    const request = standIn().requests[0]!
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(request.rawBody))).toEqual({
      grant_type: 'refresh_token',
      client_id: STAND_IN_CLIENT_ID,
      client_secret: STAND_IN_CLIENT_SECRET,
      refresh_token: FIRST_REFRESH_TOKEN,
    })
  })

  test('a spent refresh token gives invalid_grant, which says to authorise again and is not retried', async () => {
    await oauth()(FIRST_REFRESH_TOKEN)
    const error = await failure(oauth()(FIRST_REFRESH_TOKEN))
    expect(error.retryable).toBe(false)
    expect(error.message).toMatch(/invalid_grant.*ML_REFRESH_TOKEN/)
  })
})

test('readStock reads the listing or variation quantity of each SKU', async () => {
  standIn().addItem('MCO1', 'COL-ABC-1', 2)
  standIn().addItemWithVariations('MCO2', [
    { id: 1, sku: 'ARE-1', quantity: 5 },
    { id: 2, sku: 'ARE-2', quantity: 0 },
  ])
  standIn().addItem('MCO3', 'PUL-1', 1)
  standIn().addItem('MCO4', 'PUL-1', 3)
  const quantities = await client().readStock(['COL-ABC-1', 'ARE-2', 'PUL-1', 'NONE-1'])
  expect(Object.fromEntries(quantities)).toEqual({
    'COL-ABC-1': { quantity: 2 },
    'ARE-2': { quantity: 0 },
    'PUL-1': {
      missing:
        'el SKU PUL-1 está en 2 publicaciones o variaciones (MCO3, MCO4): cada una ofrecería todas las unidades; déjalo en una sola',
    },
    'NONE-1': { missing: 'sin publicación' },
  })
})

test('readStock looks up at most 4 SKUs at once, and one that fails is reported beside the others', async () => {
  const skus = Array.from({ length: 10 }, (_, i) => `SKU-${i}`)
  skus.forEach((sku, i) => standIn().addItem(`MCO${i}`, sku, i))
  let inFlight = 0
  let most = 0
  const counting: typeof fetch = async (input, init) => {
    inFlight++
    most = Math.max(most, inFlight)
    try {
      return await fetch(input, init)
    } finally {
      inFlight--
    }
  }
  const tokens = memoryTokens()
  const quantities = await mercadoLibreClient({
    baseUrl: standIn().url,
    sellerId: STAND_IN_SELLER_ID,
    tokens,
    retry: FAST,
    fetch: counting,
  }).readStock(skus)
  expect(skus.map((sku) => quantities.get(sku))).toEqual(skus.map((_, i) => ({ quantity: i })))
  expect(most).toBeGreaterThan(1)
  expect(most).toBeLessThanOrEqual(4)

  standIn().failNext(FAST.attempts, 503)
  const after = await client(tokens).readStock(['SKU-1'])
  expect(after.get('SKU-1')).toEqual({ missing: `MercadoLibre respondió 503 tras ${FAST.attempts} intentos` })
})
