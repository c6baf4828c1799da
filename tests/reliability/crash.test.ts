import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openDatabase, type Database, type DatabaseOptions } from '#app/db/client.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
import { NEW_ORDER_TEMPLATE } from '#app/modules/order/new-order-notice.server.ts'
import { orderItems, orders } from '#app/modules/order/schema.ts'
import { usingPostgres } from '#tests/db.ts'
import { stockedProduct } from '#tests/orders.ts'
import { startWhatsAppStandIn, type WhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { startWompiStandIn, type WompiStandIn } from '#tests/stand-ins/wompi.ts'
import { payments } from '#app/modules/payment/schema.ts'
import { createScratchDatabase } from '../../scripts/scratch-database.js'
import {
  ensureBuild,
  freePort,
  phoneFor,
  postAdminForm,
  postCheckout,
  signInOverHttp,
  startShop,
  type AdminSession,
  type ShopProcess,
} from './shop-process.ts'

/**
 * `kill -9` of the shop in the middle of a burst of orders, stock entries and exits, order state
 * changes, Wompi orders and Wompi's payment events, then a restart on the same data: whatever the
 * shop answered as done is there, the stock columns agree with the ledger, the locations and the
 * open reservations, and the jobs those writes enqueued run (an acknowledged Wompi event pays its
 * order after the restart). On PostgreSQL, and on the embedded database with a data directory (reopened after
 * the kill, as `npm start` would).
 */

const LOCATION = 'P1-C1-A1-E1-X1-Y1-Z1'
const NOTIFY_NUMBER = '573001112233'
const PRODUCTS = 5
const UNITS_EACH = 40

let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined
let dataDir: string
let whatsapp: WhatsAppStandIn
let wompi: WompiStandIn
let shop: ShopProcess | undefined
let databaseOptions: DatabaseOptions
let env: Record<string, string>
let port: number
const skus: string[] = []

beforeAll(async () => {
  await ensureBuild()
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-crash-'))
  if (usingPostgres()) {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'vitrina_crash')
    databaseOptions = { url: scratch.url, poolSize: 2 }
  } else {
    databaseOptions = { directory: path.join(dataDir, 'db') }
  }
  // The shop's stock, entered the way the shop enters it (the embedded database is closed again
  // before the server opens it: one process at a time).
  const database = await openDatabase(databaseOptions)
  for (let i = 0; i < PRODUCTS; i++) skus.push((await stockedProduct(database.db, UNITS_EACH)).sku)
  await database.close()
  whatsapp = await startWhatsAppStandIn()
  wompi = await startWompiStandIn()
  port = await freePort()
  env = {
    DATA_DIR: dataDir,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    SESSION_SECRET: 'secreto-de-la-prueba-de-caida-0123456789',
    WHATSAPP_TOKEN: whatsapp.token,
    WHATSAPP_PHONE_NUMBER_ID: whatsapp.phoneNumberId,
    WHATSAPP_API_URL: whatsapp.url,
    WHATSAPP_NOTIFY_NUMBERS: NOTIFY_NUMBER,
    WOMPI_PUBLIC_KEY: wompi.keys.publicKey,
    WOMPI_PRIVATE_KEY: wompi.keys.privateKey,
    WOMPI_INTEGRITY_SECRET: wompi.keys.integritySecret,
    WOMPI_EVENTS_SECRET: wompi.keys.eventsSecret,
    WOMPI_API_URL: wompi.url,
    WOMPI_CHECKOUT_URL: wompi.checkoutUrl,
  }
}, 180_000)

afterAll(async () => {
  await shop?.stop()
  await whatsapp?.stop()
  await wompi?.stop()
  await scratch?.drop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
}, 60_000)

type Operation =
  | { kind: 'order'; phone: string; lines: { sku: string; quantity: number }[] }
  | { kind: 'wompi-order'; phone: string; sku: string }
  | { kind: 'wompi-event'; orderId: string }
  | { kind: 'entry' | 'exit'; sku: string; quantity: number; receipt: string }
  | { kind: 'ship' | 'cancel'; orderId: string }

/** Wompi orders placed (id → the signed link the shop sent the shopper to). */
const wompiLinks = new Map<string, string>()

/** One operation as the shop's forms post it; true when the shop answered that it was done. */
async function perform(base: string, admin: AdminSession, op: Operation, placed: Map<string, string>) {
  switch (op.kind) {
    case 'wompi-order': {
      const answer = await postCheckout(base, {
        lines: [{ sku: op.sku, quantity: 1 }],
        phone: op.phone,
        paymentMethod: 'wompi',
      })
      expect(answer.status, answer.body.slice(0, 500)).toBeLessThan(500)
      if (answer.status !== 302 || !answer.orderId || !answer.location?.startsWith(wompi.checkoutUrl))
        return false
      placed.set(answer.orderId, op.phone)
      wompiLinks.set(answer.orderId, answer.location)
      return true
    }
    case 'wompi-event': {
      // The shopper pays on Wompi's page; Wompi posts its signed event to the shop.
      const { transaction } = wompi.pay(wompiLinks.get(op.orderId)!, 'APPROVED')
      const answer = await fetch(`${base}/api/webhooks/wompi`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(wompi.eventFor(transaction)),
      })
      expect(answer.status).toBeLessThan(500)
      return answer.status === 200
    }
    case 'order': {
      const answer = await postCheckout(base, { lines: op.lines, phone: op.phone })
      expect(answer.status, answer.body.slice(0, 500)).toBeLessThan(500)
      if (answer.status !== 302 || !answer.orderId) return false
      placed.set(answer.orderId, op.phone)
      return true
    }
    case 'entry':
    case 'exit': {
      const answer = await postAdminForm(
        base,
        admin,
        op.kind === 'entry' ? '/admin/productos/entrada' : '/admin/productos/salida',
        {
          sku: op.sku,
          quantity: String(op.quantity),
          unitPrice: '21000',
          location: LOCATION,
          receipt: op.receipt,
          note: 'prueba de caída',
        },
      )
      expect(answer.status).toBeLessThan(500)
      return answer.status === 200
    }
    case 'ship':
    case 'cancel': {
      const answer = await postAdminForm(
        base,
        admin,
        `/admin/pedidos/detalle/${op.orderId}`,
        op.kind === 'ship'
          ? { intent: 'enviar', carrier: 'Servientrega', trackingNumber: 'G-1' }
          : { intent: 'cancelar', reason: 'El cliente no respondió' },
      )
      expect(answer.status).toBeLessThan(500)
      return answer.status === 200
    }
  }
}

/**
 * The operations in a fixed interleaving (orders, entries, exits, shipments, cancellations, and
 * Wompi's events for the Wompi orders placed before the burst).
 */
function burst(earlierOrders: string[], earlierWompi: string[]): Operation[] {
  const ops: Operation[] = []
  for (let i = 0; i < 40; i++) {
    ops.push({
      kind: 'order',
      phone: phoneFor(1000 + i),
      lines: [
        { sku: skus[i % PRODUCTS]!, quantity: 1 + (i % 2) },
        ...(i % 3 === 0 ? [{ sku: skus[(i + 1) % PRODUCTS]!, quantity: 1 }] : []),
      ],
    })
    if (i % 2 === 0)
      ops.push({ kind: 'entry', sku: skus[i % PRODUCTS]!, quantity: 1 + (i % 4), receipt: `E-${i}` })
    if (i % 3 === 1)
      ops.push({ kind: 'exit', sku: skus[(i + 2) % PRODUCTS]!, quantity: 1, receipt: `S-${i}` })
    const earlier = earlierOrders[i]
    if (earlier) ops.push({ kind: i % 4 === 3 ? 'cancel' : 'ship', orderId: earlier })
    const paying = earlierWompi[i]
    if (paying) ops.push({ kind: 'wompi-event', orderId: paying })
    if (i % 5 === 2) ops.push({ kind: 'wompi-order', phone: phoneFor(3000 + i), sku: skus[i % PRODUCTS]! })
  }
  return ops
}

async function waitFor(done: () => boolean) {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 200))
}

test('kill -9 mid-burst: every acknowledged write survives, stock invariants hold, pending jobs run', async () => {
  // The first process serves the web only, so every job its writes enqueue is still waiting at the
  // crash; the restarted one runs them. (A job running at the crash is offered again after
  // JOB_EXPIRY_SECONDS: app/jobs/jobs.server.test.ts.)
  shop = await startShop({ ...env, VITRINA_PROCESS_ROLE: 'web' }, { port })
  const admin = await signInOverHttp(shop.base)
  const placed = new Map<string, string>()
  const earlier: string[] = []
  for (let i = 0; i < 16; i++) {
    const op: Operation = {
      kind: 'order',
      phone: phoneFor(i),
      lines: [{ sku: skus[i % PRODUCTS]!, quantity: 1 }],
    }
    expect(await perform(shop.base, admin, op, placed)).toBe(true)
    earlier.push([...placed.keys()].at(-1)!)
  }
  const earlierWompi: string[] = []
  for (let i = 0; i < 8; i++) {
    const op: Operation = { kind: 'wompi-order', phone: phoneFor(2000 + i), sku: skus[i % PRODUCTS]! }
    expect(await perform(shop.base, admin, op, placed)).toBe(true)
    earlierWompi.push([...placed.keys()].at(-1)!)
  }
  const ops = burst(earlier, earlierWompi)
  const acknowledged: Operation[] = []
  const attempted: Operation[] = []
  const killAfter = Math.floor(ops.length / 2)
  let killed = false
  let next = 0
  const base = shop.base
  // Six clients at a time; the shop is killed once half the operations were answered as done.
  const client = async () => {
    while (!killed && next < ops.length) {
      const op = ops[next++]!
      attempted.push(op)
      try {
        if (await perform(base, admin, op, placed)) acknowledged.push(op)
      } catch (error) {
        if (!killed) throw error
      }
      if (acknowledged.length >= killAfter && !killed) {
        killed = true
        await shop!.kill()
      }
    }
  }
  await Promise.all(Array.from({ length: 6 }, client))
  expect(killed).toBe(true)
  // The crash came after writes of every kind were answered as done.
  expect(new Set(acknowledged.map((op) => op.kind))).toEqual(
    new Set(['order', 'entry', 'exit', 'ship', 'cancel', 'wompi-order', 'wompi-event']),
  )

  // Restarted on the same data (and port, so the admin's cookie and the public URL still match).
  shop = await startShop(env, { port })
  const cancelAttempted = new Set(attempted.flatMap((op) => (op.kind === 'cancel' ? [op.orderId] : [])))
  const mustNotify = [...placed].filter(([id]) => !cancelAttempted.has(id)).map(([, phone]) => phone)
  const notifiedPhones = () =>
    new Set(whatsapp.sent.filter((m) => m.name === NEW_ORDER_TEMPLATE).map((m) => m.parameters[1]))
  await waitFor(() => mustNotify.every((phone) => notifiedPhones().has(phone)))
  // Each acknowledged Wompi event's job ran after the restart: its order is paid.
  const paidByEvent = acknowledged.flatMap((op) => (op.kind === 'wompi-event' ? [op.orderId] : []))
  for (const orderId of paidByEvent) {
    await expect
      .poll(
        async () => {
          const desk = await fetch(`${shop!.base}/admin/pedidos/detalle/${orderId}`, {
            headers: { Cookie: admin.cookie },
          })
          return (await desk.text()).includes('Pago aprobado en Wompi')
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true)
  }
  // The session made before the crash still serves.
  const page = await fetch(`${shop.base}/admin`, { redirect: 'manual', headers: { Cookie: admin.cookie } })
  expect(page.status).toBe(200)
  await shop.stop()
  shop = undefined
  const database = await openDatabase(databaseOptions)
  try {
    await expectAcknowledgedWrites(database, placed, acknowledged)
    await expectStockInvariants(database)
    // Jobs were enqueued in their orders' transactions: one notice per order the database has.
    const { rows: jobs } = await database.executeSql(
      `select data->>'orderId' as "orderId" from pgboss.job where name = 'order-new-notice'`,
    )
    const allOrders = await database.db.select({ id: orders.id }).from(orders)
    expect((jobs as { orderId: string }[]).map((job) => job.orderId).sort()).toEqual(
      allOrders.map((order) => order.id).sort(),
    )
    const notices = whatsapp.sent.map((message) => message.parameters[1])
    expect(new Set(notices).size).toBe(notices.length)
  } finally {
    await database.close()
  }
}, 120_000)

async function expectAcknowledgedWrites(
  database: Database,
  placed: Map<string, string>,
  acknowledged: Operation[],
) {
  const ids = [...placed.keys()]
  const found = await database.db
    .select({ id: orders.id, phone: orders.customerPhone })
    .from(orders)
    .where(inArray(orders.id, ids))
  expect(new Map(found.map((row) => [row.id, row.phone]))).toEqual(placed)
  const items = await database.db
    .select({ orderId: orderItems.orderId })
    .from(orderItems)
    .where(inArray(orderItems.orderId, ids))
  expect(new Set(items.map((item) => item.orderId)).size).toBe(ids.length)

  const movements = await database.db
    .select({
      type: stockMovements.type,
      sku: stockMovements.productSku,
      quantity: stockMovements.quantity,
      receipt: stockMovements.receipt,
      orderId: stockMovements.orderId,
    })
    .from(stockMovements)
  for (const op of acknowledged) {
    if (op.kind === 'entry' || op.kind === 'exit') {
      expect(movements).toContainEqual({
        type: op.kind === 'entry' ? 'in' : 'out',
        sku: op.sku,
        quantity: op.quantity,
        receipt: op.receipt,
        orderId: null,
      })
    }
    if (op.kind === 'wompi-event') {
      const [order] = await database.db
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, op.orderId))
      expect(order!.status).toBe('pagado')
      const ledger = await database.db.select().from(payments).where(eq(payments.orderId, op.orderId))
      expect(ledger).toMatchObject([{ provider: 'wompi', status: 'approved' }])
    }
    if (op.kind === 'ship' || op.kind === 'cancel') {
      const [order] = await database.db
        .select({ status: orders.status, shippedAt: orders.shippedAt, held: orders.reservationHeld })
        .from(orders)
        .where(eq(orders.id, op.orderId))
      if (op.kind === 'ship') {
        expect(order!.shippedAt).not.toBeNull()
        expect(movements.some((m) => m.orderId === op.orderId && m.type === 'out')).toBe(true)
      } else {
        expect(order!.status).toBe('cancelado')
      }
      expect(order!.held).toBe(false)
    }
  }
}

async function expectStockInvariants(database: Database) {
  const [rows, ledger, locations, held] = await Promise.all([
    database.db
      .select({
        sku: products.sku,
        stock: products.stock,
        reserved: products.reserved,
        unitsIn: products.unitsIn,
        unitsOut: products.unitsOut,
      })
      .from(products),
    database.db
      .select({
        sku: stockMovements.productSku,
        type: stockMovements.type,
        quantity: stockMovements.quantity,
      })
      .from(stockMovements),
    database.db
      .select({ sku: productLocations.productSku, stock: productLocations.stock })
      .from(productLocations),
    database.db
      .select({ sku: orderItems.productSku, quantity: orderItems.quantity })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(eq(orders.reservationHeld, true)),
  ])
  const sum = <T extends { sku: string }>(list: T[], sku: string, amount: (row: T) => number) =>
    list.filter((row) => row.sku === sku).reduce((total, row) => total + amount(row), 0)
  for (const product of rows) {
    const unitsIn = sum(ledger, product.sku, (m) => (m.type === 'in' ? m.quantity : 0))
    const unitsOut = sum(ledger, product.sku, (m) => (m.type === 'out' ? m.quantity : 0))
    expect({
      sku: product.sku,
      stock: product.stock,
      unitsIn: product.unitsIn,
      unitsOut: product.unitsOut,
      atLocations: product.stock,
      reserved: product.reserved,
    }).toEqual({
      sku: product.sku,
      stock: unitsIn - unitsOut,
      unitsIn,
      unitsOut,
      atLocations: sum(locations, product.sku, (l) => l.stock),
      reserved: sum(held, product.sku, (h) => h.quantity),
    })
  }
}
