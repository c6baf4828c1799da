import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openDatabase, type Database } from '#app/db/client.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { CHECKOUT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { NEW_ORDER_TEMPLATE } from '#app/modules/order/new-order-notice.server.ts'
import { orderEvents, orderItems, orders } from '#app/modules/order/schema.ts'
import { usingPostgres } from '#tests/db.ts'
import { stockedProduct } from '#tests/orders.ts'
import {
  SHOPIFY_VERSION,
  STAND_IN_LOCATION,
  STAND_IN_SHOPIFY_TOKEN,
  startShopifyStandIn,
  type ShopifyStandIn,
} from '#tests/stand-ins/shopify.ts'
import { startWhatsAppStandIn, type WhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { createScratchDatabase } from '../../scripts/scratch-database.js'
import {
  ensureBuild,
  freePort,
  phoneFor,
  postAdminForm,
  postCheckout,
  signInOverHttp,
  startBalancer,
  startShop,
  type ShopProcess,
} from './shop-process.ts'

/**
 * Two instances of the shop on one PostgreSQL database behind a round-robin balancer, as a
 * scaled-out deployment runs: stock, jobs and sessions live in the database, so any instance answers
 * any request. PostgreSQL only: the embedded database is one process.
 */

const NOTIFY_NUMBERS = ['573001112233', '573004445566']
const SESSION_SECRET = 'secreto-compartido-de-las-instancias-0123456789'

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>
let database: Database
let whatsapp: WhatsAppStandIn
let shopify: ShopifyStandIn
let balancer: Awaited<ReturnType<typeof startBalancer>>
const shops: ShopProcess[] = []
let dataDir: string

beforeAll(async () => {
  if (!usingPostgres()) return
  await ensureBuild()
  scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'vitrina_reliability')
  whatsapp = await startWhatsAppStandIn()
  shopify = await startShopifyStandIn()
  const ports = [await freePort(), await freePort()]
  balancer = await startBalancer(ports.map((port) => `http://127.0.0.1:${port}`))
  // One DATA_DIR, as instances sharing a volume have: the local sign-in provider's keys are read
  // from it, so every instance signs and checks the same tokens.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-reliability-'))
  const env = {
    DATABASE_URL: scratch.url,
    DATA_DIR: dataDir,
    PUBLIC_URL: balancer.base,
    SESSION_SECRET,
    WHATSAPP_TOKEN: whatsapp.token,
    WHATSAPP_PHONE_NUMBER_ID: whatsapp.phoneNumberId,
    WHATSAPP_API_URL: whatsapp.url,
    WHATSAPP_NOTIFY_NUMBERS: NOTIFY_NUMBERS.join(','),
    SHOPIFY_API_URL: shopify.url,
    SHOPIFY_ADMIN_TOKEN: STAND_IN_SHOPIFY_TOKEN,
    SHOPIFY_LOCATION_ID: STAND_IN_LOCATION,
    SHOPIFY_API_VERSION: SHOPIFY_VERSION,
  }
  // Both at once on an empty database: migrations and the job queue's schema are set up by one.
  // Settled, not raced: one failing to start must not leave the other running unseen by afterAll.
  const started = await Promise.allSettled(ports.map((port) => startShop(env, { port })))
  for (const result of started) if (result.status === 'fulfilled') shops.push(result.value)
  for (const result of started) if (result.status === 'rejected') throw result.reason
  database = await openDatabase({ url: scratch.url, poolSize: 4 })
}, 180_000)

afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()))
  await database?.close()
  await balancer?.close()
  await whatsapp?.stop()
  await shopify?.stop()
  await scratch?.drop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
}, 60_000)

const jobLogLines = (shop: ShopProcess, name: string) =>
  shop
    .output()
    .split('\n')
    .filter((line) => line.includes(`"job":"${name}"`))
    .map((line) => JSON.parse(line) as { jobId: string })

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

test.skipIf(!usingPostgres())(
  '200 checkouts at once for 10 units across two instances: 10 orders, 190 Spanish refusals, each job run once',
  async () => {
    const product = await stockedProduct(database.db, 10)
    const variant = shopify.addVariant(product.sku, 10)
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        postCheckout(balancer.base, {
          lines: [{ sku: product.sku, quantity: 1 }],
          phone: phoneFor(i),
          forwardedFor: `181.50.${Math.floor(i / 250)}.${(i % 250) + 1}`,
        }),
      ),
    )

    const placed = answers.filter((answer) => answer.status === 302)
    const refused = answers.filter((answer) => answer.status !== 302)
    expect(placed).toHaveLength(10)
    expect(placed.every((answer) => answer.orderId)).toBe(true)
    expect(refused).toHaveLength(190)
    for (const answer of refused) {
      expect(answer.status).toBe(400)
      expect(answer.body).toContain(CHECKOUT_MESSAGES.overStock)
    }

    const [stock] = await database.db
      .select({ stock: products.stock, reserved: products.reserved })
      .from(products)
      .where(eq(products.sku, product.sku))
    expect(stock).toEqual({ stock: 10, reserved: 10 })
    const rows = await database.db
      .select({
        id: orders.id,
        number: orders.number,
        phone: orders.customerPhone,
        units: orderItems.quantity,
      })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    expect(rows.map((row) => row.id).sort()).toEqual(placed.map((answer) => answer.orderId).sort())
    expect(new Set(rows.map((row) => row.number)).size).toBe(10)
    expect(rows.reduce((sum, row) => sum + row.units, 0)).toBe(10)

    // Each order enqueued one notice per business number; both instances work the queue.
    const expected = rows.length * NOTIFY_NUMBERS.length
    await waitFor(
      () =>
        database.executeSql(
          `select count(*)::int as n from pgboss.job where name = 'order-new-notice' and state = 'completed'`,
        ),
      ({ rows: counted }) => (counted[0] as { n: number }).n >= expected,
    )
    const notices = whatsapp.sent.filter((message) => message.name === NEW_ORDER_TEMPLATE)
    expect(notices).toHaveLength(expected)
    const pairs = notices.map((message) => `${message.to} ${message.parameters[1]}`)
    expect(new Set(pairs).size).toBe(expected)
    for (const row of rows) {
      for (const to of NOTIFY_NUMBERS) expect(pairs).toContain(`${to} ${row.phone}`)
    }
    const processed = shops.flatMap((shop) => jobLogLines(shop, 'order-new-notice').map((line) => line.jobId))
    expect(processed).toHaveLength(expected)
    expect(new Set(processed).size).toBe(expected)
    // Every reservation enqueued a Shopify stock sync (a burst coalesces per SKU); each ran once,
    // and the last one left Shopify with what the shop can sell now: nothing.
    await waitFor(
      () =>
        database.executeSql(
          `select count(*)::int as "all", count(*) filter (where state in ('created', 'retry', 'active'))::int as pending
             from pgboss.job where name = 'channel-stock-sync'`,
        ),
      ({ rows: counted }) => {
        const { all, pending } = counted[0] as { all: number; pending: number }
        return all > 0 && pending === 0
      },
    )
    expect(shopify.levels.get(variant.inventoryItemId)).toBe(0)
    const syncs = shops.flatMap((shop) => jobLogLines(shop, 'channel-stock-sync').map((line) => line.jobId))
    expect(syncs.length).toBeGreaterThan(0)
    expect(new Set(syncs).size).toBe(syncs.length)
    const [sentEvents] = await database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(orderEvents)
      .where(eq(orderEvents.type, 'notice-sent'))
    expect(sentEvents!.n).toBe(expected)
  },
  120_000,
)

test.skipIf(!usingPostgres())('an admin session made through one instance serves the other', async () => {
  // Through the balancer, so the sign-in's own steps (provider pages, callback) land on both.
  const session = await signInOverHttp(balancer.base)
  for (const shop of shops) {
    const page = await fetch(`${shop.base}/admin`, {
      redirect: 'manual',
      headers: { Cookie: session.cookie },
    })
    expect(page.status).toBe(200)
  }
  const product = await stockedProduct(database.db, 1)
  for (const [i, shop] of shops.entries()) {
    const entry = await postAdminForm(shop.base, session, '/admin/productos/entrada', {
      sku: product.sku,
      quantity: '2',
      unitPrice: '15000',
      location: 'P1-C1-A1-E1-X1-Y1-Z1',
      receipt: `INSTANCIA-${i}`,
      note: '',
    })
    expect(entry.status).toBe(200)
  }
  const [row] = await database.db
    .select({ stock: products.stock })
    .from(products)
    .where(eq(products.sku, product.sku))
  expect(row!.stock).toBe(5)
})
