import { and, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { products } from '#app/modules/catalog/schema.ts'
import { reserveUnits, releaseUnits } from '#app/modules/inventory/stock.server.ts'
import { stockSyncKey, type StockChannel } from '#app/jobs/stock-channels.ts'
import { setupTestDatabase, usingPostgres } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { clearJobs, queuedJobs, setupJobQueue } from '#tests/jobs.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { STAND_IN_SELLER_ID, startMercadoLibreStandIn } from '#tests/stand-ins/mercadolibre.ts'
import { SHOPIFY_VERSION, STAND_IN_SHOPIFY_TOKEN, startShopifyStandIn } from '#tests/stand-ins/shopify.ts'
import { ChannelError, type StockChannelClient } from './channel.server.ts'
import { mercadoLibreClient } from './mercadolibre.server.ts'
import { channelSyncs } from './schema.ts'
import { shopifyClient } from './shopify.server.ts'
import { syncChannelStock, type StockChannels } from './stock-sync.server.ts'

const t = setupTestDatabase()
const jobs = setupJobQueue(() => t.database)
const mercadoLibre = standInForFile(startMercadoLibreStandIn)
const shopify = standInForFile(startShopifyStandIn)
const FAST = { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 }

beforeEach(() => clearJobs(t.database))

function channels(): StockChannels {
  const token = mercadoLibre().grantAccessToken()
  return {
    mercadolibre: mercadoLibreClient({
      baseUrl: mercadoLibre().url,
      sellerId: STAND_IN_SELLER_ID,
      tokens: { accessToken: async () => token, renew: async () => token },
      retry: FAST,
    }),
    shopify: shopifyClient({
      origin: shopify().url,
      apiVersion: SHOPIFY_VERSION,
      token: STAND_IN_SHOPIFY_TOKEN,
      locationId: '655441491',
      retry: FAST,
    }),
  }
}

const lastSync = async (channel: StockChannel, sku: string) =>
  (
    await t.db
      .select()
      .from(channelSyncs)
      .where(and(eq(channelSyncs.channel, channel), eq(channelSyncs.sku, sku)))
  )[0]

const mlPuts = () => mercadoLibre().requests.filter((request) => request.method === 'PUT')

/** Runs every waiting stock-sync job as the worker would, and completes it. */
async function runWaitingJobs(deps: { channels: StockChannels }) {
  const fetched = await jobs.boss.fetch<{ channel: StockChannel; sku: string }>('channel-stock-sync', {
    batchSize: 50,
  })
  for (const job of fetched) {
    await syncChannelStock({ db: t.db, channels: deps.channels }, job.data)
    await jobs.boss.complete('channel-stock-sync', job.id)
  }
  return fetched.length
}

test('a channel that is not configured is skipped, and the page can say so', async () => {
  const product = await createProduct(t.db, { stock: 4 })
  const result = await syncChannelStock(
    { db: t.db, channels: {} },
    { channel: 'mercadolibre', sku: product.sku },
  )
  expect(result).toEqual({ status: 'skipped', quantity: null, message: 'MercadoLibre no está configurado' })
  expect(await lastSync('mercadolibre', product.sku)).toMatchObject({
    status: 'skipped',
    message: 'MercadoLibre no está configurado',
  })
  await syncChannelStock({ db: t.db, channels: {} }, { channel: 'shopify', sku: product.sku })
  expect((await lastSync('shopify', product.sku))!.message).toBe('Shopify no está configurado')
})

test('two stock changes coalesce into one job per channel, which pushes the units as they are when it runs', async () => {
  const product = await createProduct(t.db, { stock: 10, reserved: 0 })
  mercadoLibre().addItem('MCO1', product.sku, 10)
  const variant = shopify().addVariant(product.sku, 10)

  await t.db.transaction((tx) => reserveUnits(tx, jobs.queue, [{ sku: product.sku, quantity: 3 }]))
  await t.db.transaction((tx) => reserveUnits(tx, jobs.queue, [{ sku: product.sku, quantity: 2 }]))

  expect(await runWaitingJobs({ channels: channels() })).toBe(2)
  expect(mlPuts().map((request) => request.body)).toEqual([{ available_quantity: 5 }])
  expect(shopify().mutations.map((m) => m.input.quantities[0]!.quantity)).toEqual([5])
  expect(shopify().levels.get(variant.inventoryItemId)).toBe(5)
  expect(await lastSync('mercadolibre', product.sku)).toMatchObject({
    status: 'ok',
    quantity: 5,
    message: 'MCO1',
  })
  expect(await lastSync('shopify', product.sku)).toMatchObject({ status: 'ok', quantity: 5 })
})

test('running a job twice pushes the same current units; a later change pushes the new ones', async () => {
  const product = await createProduct(t.db, { stock: 6, reserved: 1 })
  mercadoLibre().addItem('MCO1', product.sku, 0)
  const deps = { db: t.db, channels: channels() }
  const job = { channel: 'mercadolibre', sku: product.sku } as const

  await syncChannelStock(deps, job)
  await syncChannelStock(deps, job)
  expect(mlPuts().map((request) => request.body)).toEqual([
    { available_quantity: 5 },
    { available_quantity: 5 },
  ])

  await t.db.transaction((tx) => releaseUnits(tx, jobs.queue, [{ sku: product.sku, quantity: 1 }]))
  await syncChannelStock(deps, job)
  expect(mlPuts().at(-1)!.body).toEqual({ available_quantity: 6 })
  expect(mercadoLibre().items.get('MCO1')!.available_quantity).toBe(6)
})

/** Resolves once another session waits on a row lock in this database (so a query is parked on it). */
async function someoneWaitsOnALock(): Promise<void> {
  for (;;) {
    const { rows } = await t.database.executeSql(
      `select count(*)::int as waiting from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where not l.granted and a.datname = current_database()`,
      [],
    )
    if ((rows[0] as { waiting: number }).waiting > 0) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

// PGlite runs one statement at a time, so the race needs two real sessions.
test.runIf(usingPostgres())(
  'a job picked while a stock change is still uncommitted waits for it and pushes the new units',
  async () => {
    const product = await createProduct(t.db, { stock: 10, reserved: 0 })
    mercadoLibre().addItem('MCO1', product.sku, 10)
    const job = { channel: 'mercadolibre', sku: product.sku } as const
    // A sync already waits for this channel and SKU: the change's own send is dropped below.
    await jobs.queue.send(t.db, 'channel-stock-sync', job, {
      singletonKey: stockSyncKey(job.channel, job.sku),
    })

    let commit!: () => void
    const held = new Promise<void>((resolve) => (commit = resolve))
    let changed!: () => void
    const changeMade = new Promise<void>((resolve) => (changed = resolve))
    const change = t.db.transaction(async (tx) => {
      await reserveUnits(tx, jobs.queue, [{ sku: product.sku, quantity: 3 }])
      changed()
      await held
    })
    await changeMade

    // The worker picks the waiting job before the change commits.
    const [picked] = await jobs.boss.fetch<typeof job>('channel-stock-sync')
    expect(picked!.data).toEqual(job)
    const run = syncChannelStock({ db: t.db, channels: channels() }, picked!.data)
    const finished = run.then(() => 'finished' as const)
    // Either the handler waits on the product row (the fix) or it already pushed the old units.
    await Promise.race([someoneWaitsOnALock(), finished])
    commit()
    await change
    await run

    // No MercadoLibre job is left for the change: the one that ran had to carry it.
    const left = await queuedJobs<typeof job>(t.database, 'channel-stock-sync')
    expect(left.filter((waiting) => waiting.channel === 'mercadolibre')).toEqual([])
    expect(mlPuts().map((request) => request.body)).toEqual([{ available_quantity: 7 }])
    expect(await lastSync('mercadolibre', product.sku)).toMatchObject({ status: 'ok', quantity: 7 })
  },
)

test('available units never go below zero', async () => {
  const product = await createProduct(t.db, { stock: 2, reserved: 2 })
  mercadoLibre().addItem('MCO1', product.sku, 4)
  await syncChannelStock({ db: t.db, channels: channels() }, { channel: 'mercadolibre', sku: product.sku })
  expect(mercadoLibre().items.get('MCO1')!.available_quantity).toBe(0)
})

test('a SKU without a listing is recorded as not listed and the job ends', async () => {
  const product = await createProduct(t.db, { stock: 3 })
  const result = await syncChannelStock(
    { db: t.db, channels: channels() },
    { channel: 'mercadolibre', sku: product.sku },
  )
  expect(result).toEqual({ status: 'not-listed', quantity: 3, message: 'sin publicación' })
  expect((await lastSync('mercadolibre', product.sku))!.status).toBe('not-listed')
})

describe('failures', () => {
  const failing = (error: Error): StockChannels => ({
    shopify: {
      channel: 'shopify',
      pushStock: async () => {
        throw error
      },
      readStock: async () => new Map(),
    } satisfies StockChannelClient,
  })

  test('one the queue can fix later is recorded and thrown, so pg-boss retries it', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const attempt = syncChannelStock(
      { db: t.db, channels: failing(new ChannelError('Shopify respondió 503 tras 4 intentos', true)) },
      { channel: 'shopify', sku: product.sku },
    )
    await expect(attempt).rejects.toThrow('503')
    expect(await lastSync('shopify', product.sku)).toMatchObject({
      status: 'failed',
      quantity: 3,
      message: 'Shopify respondió 503 tras 4 intentos',
    })
  })

  test('one a retry cannot fix is recorded and ends the job', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    const result = await syncChannelStock(
      { db: t.db, channels: failing(new ChannelError('invalid_grant', false)) },
      { channel: 'shopify', sku: product.sku },
    )
    expect(result).toEqual({ status: 'failed', quantity: 3, message: 'invalid_grant' })
  })

  test('a SKU on two Shopify variants is recorded as failed with the reason', async () => {
    const product = await createProduct(t.db, { stock: 3 })
    shopify().addVariant(product.sku, 1)
    shopify().addVariant(product.sku, 1)
    await syncChannelStock({ db: t.db, channels: channels() }, { channel: 'shopify', sku: product.sku })
    const row = (await lastSync('shopify', product.sku))!
    expect(row.status).toBe('failed')
    expect(row.message).toMatch(/2 variantes/)
  })
})

test('the handler only reads the product: its stock columns are untouched', async () => {
  const product = await createProduct(t.db, { stock: 7, reserved: 2 })
  mercadoLibre().addItem('MCO1', product.sku, 0)
  await syncChannelStock({ db: t.db, channels: channels() }, { channel: 'mercadolibre', sku: product.sku })
  const [row] = await t.db.select().from(products).where(eq(products.sku, product.sku))
  expect([row!.stock, row!.reserved]).toEqual([7, 2])
})
