import { asc, eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { Database } from '#app/db/client.server.ts'
import { clickCounts, pageViews } from '#app/modules/analytics/schema.ts'
import { getProductDetail } from '#app/modules/catalog/catalog.server.ts'
import { categories, media, missingMedia, productCategories, products } from '#app/modules/catalog/schema.ts'
import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
import { remoteFiles, UNREACHABLE_REASON } from '#app/modules/media/remote-file.server.ts'
import { orderEvents, orderItems, orders } from '#app/modules/order/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { generateOriginalExport, type Fixture } from '#tests/import-fixture.ts'
import { memoryStorage, MP4_BYTES, pngUpload } from '#tests/media.ts'
import { listen, refusedUrl, type RecordedRequest } from '#tests/stand-ins/http.ts'
import { importOriginalShop, MISSING_FILE_OUTCOME } from './import.server.ts'
import { COST_ROUNDING_CENTAVOS } from './plan.ts'
import { importRecords } from './schema.ts'

/** The original's storage: a handful of the product files answer, the rest are gone (404). */
let origin: string
let closeOrigin: () => Promise<void>
const requests: RecordedRequest[] = []
const SERVED = 5
let fixture: Fixture
/** The first 60 products of the same shop (same SKUs and files), for the tests that need fewer. */
let small: Fixture
let served: Set<string>

beforeAll(async () => {
  const png = (await pngUpload()).bytes
  const stand = await listen(requests, (request, response) => {
    if (request.path === '/o/productos/roto.png') {
      response.writeHead(200, { 'Content-Type': 'image/png' }).end('esto no es una imagen')
      return
    }
    if (!served.has(request.path)) {
      response.writeHead(404).end()
      return
    }
    const body = request.path.endsWith('.mp4') ? MP4_BYTES : png
    response.writeHead(200, { 'Content-Length': body.length }).end(body)
  })
  origin = stand.origin
  closeOrigin = stand.close
  fixture = generateOriginalExport({ products: 500, orders: 240, mediaBase: `${origin}/o` })
  small = generateOriginalExport({ products: 60, orders: 30, mediaBase: `${origin}/o` })
  const products = fixture.expected.products
  served = new Set([
    ...products.slice(0, SERVED).flatMap((product) => product.urls.map((url) => new URL(url).pathname)),
    // The one product with a video among the files that answer.
    ...products[7]!.urls.map((url) => new URL(url).pathname),
  ])
})
afterAll(() => closeOrigin())

const deps = (database: Database, storage = memoryStorage()) => ({
  db: database.db,
  storage,
  // The stand-in on 127.0.0.1 plays the original shop's (public) storage.
  remote: remoteFiles({ timeoutMs: 5_000, standInAddresses: ['127.0.0.1'] }),
})

/** Everything an import writes, summed: two equal snapshots mean nothing changed. */
async function snapshot(database: Database) {
  const { db } = database
  const one = async <T>(query: Promise<T[]>) => (await query)[0]
  return {
    categories: await db.$count(categories),
    products: await one(
      db
        .select({
          count: sql<number>`count(*)::int`,
          stock: sql<number>`coalesce(sum(stock), 0)::int`,
          reserved: sql<number>`coalesce(sum(reserved), 0)::int`,
          cost: sql<number>`coalesce(sum(cost), 0)::bigint`.mapWith(Number),
          unitsIn: sql<number>`coalesce(sum(units_in), 0)::int`,
          unitsOut: sql<number>`coalesce(sum(units_out), 0)::int`,
        })
        .from(products),
    ),
    links: await db.$count(productCategories),
    media: await db.$count(media),
    movements: await db.$count(stockMovements),
    locations: await one(
      db
        .select({ count: sql<number>`count(*)::int`, stock: sql<number>`coalesce(sum(stock), 0)::int` })
        .from(productLocations),
    ),
    orders: await db.$count(orders),
    items: await db.$count(orderItems),
    events: await db.$count(orderEvents),
    clicks: await one(db.select({ sum: sql<number>`coalesce(sum(click_count), 0)::int` }).from(clickCounts)),
    views: await one(
      db
        .select({
          visits: sql<number>`coalesce(sum(visits), 0)::int`,
          seconds: sql<number>`coalesce(sum(total_time_seconds), 0)::bigint`.mapWith(Number),
        })
        .from(pageViews),
    ),
    records: await db.$count(importRecords),
  }
}

describe('importing the original shop', () => {
  let database: Database
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database.close())

  test('500 products with their ledgers, orders and analytics come over whole; a second run changes nothing', async () => {
    const storage = memoryStorage()
    const report = await importOriginalShop(deps(database, storage), fixture.source)
    const expected = fixture.expected
    expect(report.refused).toEqual([])
    expect(report.imported).toMatchObject({
      categories: expected.categories,
      products: 500,
      movements: expected.products.reduce((sum, product) => sum + product.movements, 0),
      orders: expected.orders.length,
      clickMonths: 3,
      pageViewMonths: 3,
      mediaStored: SERVED + 2,
    })
    const urls = expected.products.reduce((sum, product) => sum + product.urls.length, 0)
    expect(report.imported).toMatchObject({ mediaFiles: urls, mediaMissing: urls - SERVED - 2 })
    // Every warning is a file that could not be brought (404), named with its address.
    expect(report.warnings.every((w) => w.reason.includes('HTTP 404') && w.reason.includes(origin))).toBe(
      true,
    )

    const { db } = database
    const productRows = new Map((await db.select().from(products)).map((row) => [row.sku, row]))
    const ledger = await db
      .select()
      .from(stockMovements)
      .orderBy(asc(stockMovements.productSku), asc(stockMovements.id))
    const locationRows = await db.select().from(productLocations)
    for (const want of expected.products) {
      const row = productRows.get(want.sku)!
      const rows = ledger.filter((movement) => movement.productSku === want.sku)
      const inUnits = rows.filter((m) => m.type === 'in').reduce((sum, m) => sum + m.quantity, 0)
      const outUnits = rows.filter((m) => m.type === 'out').reduce((sum, m) => sum + m.quantity, 0)
      const located = Object.fromEntries(
        locationRows.filter((l) => l.productSku === want.sku).map((l) => [l.code, l.stock]),
      )
      expect({ sku: want.sku, stock: row.stock, ledger: inUnits - outUnits, located }).toEqual({
        sku: want.sku,
        stock: want.stock,
        ledger: want.stock,
        located: want.locations,
      })
      expect([row.unitsIn, row.unitsOut]).toEqual([want.unitsIn, want.unitsOut])
      // The original's float average against ours rounded to the centavo at each step.
      expect(Math.abs(row.cost - want.costPesos * 100), want.sku).toBeLessThanOrEqual(COST_ROUNDING_CENTAVOS)
      expect(rows.at(-1)?.stockAfter ?? 0).toBe(want.stock)
      expect(rows.at(-1)?.averageCostAfter ?? row.cost).toBe(row.cost)
    }
    // Every movement kept its date, receipt and note.
    const first = expected.products.find((product) => product.movements > 0)!
    const firstRows = ledger.filter((movement) => movement.productSku === first.sku)
    expect(firstRows[0]).toMatchObject({ type: 'in', note: 'Compra inicial', createdBy: 'importación' })
    expect(firstRows[0]!.receipt).toMatch(/^FAC-/)

    const orderRows = new Map((await db.select().from(orders)).map((row) => [row.id, row]))
    const itemRows = await db.select().from(orderItems)
    const held = new Map<string, number>()
    for (const want of expected.orders) {
      const row = orderRows.get(want.id)!
      expect({
        status: row.status,
        shipped: Boolean(row.shippedAt),
        method: row.paymentMethod,
        total: row.total,
      }).toEqual({
        status: want.status,
        shipped: want.shipped,
        method: want.paymentMethod,
        total: Math.round(want.totalPesos * 100),
      })
      const items = itemRows.filter((item) => item.orderId === want.id)
      expect(items.map((item) => [item.productSku, item.quantity, item.unitPrice]).sort()).toEqual(
        want.items.map((item) => [item.sku, item.quantity, Math.round(item.unitPricePesos * 100)]).sort(),
      )
      const open = !want.shipped && (want.status === 'pendiente de pago' || want.status === 'pagado')
      expect(row.reservationHeld).toBe(open)
      if (open) for (const item of want.items) held.set(item.sku, (held.get(item.sku) ?? 0) + item.quantity)
    }
    for (const [sku, reserved] of held) expect(productRows.get(sku)!.reserved).toBe(reserved)
    expect(report.imported.ordersHoldingUnits).toBe(
      [...orderRows.values()].filter((o) => o.reservationHeld).length,
    )

    const totals = await snapshot(database)
    expect(totals.clicks!.sum).toBe(expected.clicks)
    expect(totals.views).toEqual({ visits: expected.visits, seconds: expected.seconds })

    // Files that answered are in storage; the others are listed for the owner, not shown.
    const servedProduct = expected.products[0]!
    const [stored] = await db.select().from(media).where(eq(media.productSku, servedProduct.sku))
    expect(storage.files.has(stored!.path)).toBe(true)
    const gone = expected.products[SERVED]!
    expect(await db.$count(media, eq(media.productSku, gone.sku))).toBe(0)
    const [missing] = await db.select().from(missingMedia).where(eq(missingMedia.productSku, gone.sku))
    expect(missing).toMatchObject({
      url: gone.urls[0],
      kind: 'image',
      reason: 'el servidor respondió HTTP 404',
    })
    expect(await db.$count(missingMedia)).toBe(urls - SERVED - 2)
    const page = await getProductDetail({ db, publicBase: '/media/' }, gone.sku)
    expect(page!.media).toEqual([])
    expect(JSON.stringify(page)).not.toContain(origin)
    const video = await db.select().from(media).where(eq(media.productSku, expected.products[7]!.sku))
    expect(video.map((row) => row.kind).sort()).toEqual(['image', 'video'])

    const again = await importOriginalShop(deps(database, storage), fixture.source)
    expect(await snapshot(database)).toEqual(totals)
    expect(again.imported).toMatchObject({
      categories: 0,
      products: 0,
      movements: 0,
      orders: 0,
      clickMonths: 0,
    })
    expect(again.alreadyImported).toMatchObject({
      products: 500,
      orders: expected.orders.length,
      clickMonths: 3,
    })
    expect(again.refused).toEqual([])
  })
})

describe('refusals and dry runs', () => {
  // Each test on its own database: neither sees what the other wrote.
  let database: Database
  beforeEach(async () => {
    database = await createTestDatabase()
  })
  afterEach(() => database.close())

  test('a dry run checks everything and writes nothing, not even files', async () => {
    const storage = memoryStorage()
    const before = await snapshot(database)
    const asked = requests.length
    const report = await importOriginalShop(deps(database, storage), fixture.source, { dryRun: true })
    // It downloads nothing, so it says how many files a run would download, not what would come.
    expect(report).toMatchObject({
      dryRun: true,
      imported: {
        products: 500,
        orders: fixture.expected.orders.length,
        mediaFiles: fixture.expected.products.reduce((sum, product) => sum + product.urls.length, 0),
        mediaStored: 0,
        mediaMissing: 0,
      },
    })
    expect(report.refused).toEqual([])
    expect(await snapshot(database)).toEqual(before)
    expect(storage.files.size).toBe(0)
    expect(requests.length).toBe(asked)
  })

  test('a failure while writing leaves nothing behind: no rows, no stored files', async () => {
    const storage = memoryStorage()
    const before = await snapshot(database)
    // The connection drops after everything was written, before the commit.
    const db = Object.create(database.db, {
      transaction: {
        value: (work: (tx: unknown) => Promise<unknown>) =>
          database.db.transaction(async (tx) => {
            await work(tx)
            throw new Error('se perdió la conexión')
          }),
      },
    }) as Database['db']
    await expect(importOriginalShop({ ...deps(database, storage), db }, small.source)).rejects.toThrow(
      'se perdió la conexión',
    )
    expect(await snapshot(database)).toEqual(before)
    expect(storage.state.puts).toBeGreaterThan(0)
    expect(storage.files.size).toBe(0)
  })

  test('a storage that fails stops the import before the database is touched; the files stored are deleted', async () => {
    const storage = memoryStorage()
    storage.state.failPutsAfter = 6
    const before = await snapshot(database)
    await expect(importOriginalShop(deps(database, storage), small.source)).rejects.toThrow(
      'No se pudo guardar un archivo en el almacenamiento (almacenamiento lleno): no se importó nada.',
    )
    expect(await snapshot(database)).toEqual(before)
    expect(storage.state.puts).toBeGreaterThan(6)
    expect(storage.files.size).toBe(0)
  })

  test('a ledger that disagrees with the stock, a bad order and a SKU already here are refused with the reason; the rest comes over', async () => {
    const unreachable = await refusedUrl()
    const source = structuredClone(small.source) as Record<string, { productos?: Record<string, unknown>[] }>
    const block = source['productos/productos_bloque_2']!.productos!
    const wrongStock = block[1]!
    const wrongSku = wrongStock.sku as string
    wrongStock.stock = (wrongStock.stock as number) + 2
    const unreachableProduct = block[2]!
    unreachableProduct.imageUrls = [`${unreachable}/o/foto.png`]
    unreachableProduct.mainImageUrl = `${unreachable}/o/foto.png`
    const broken = block[4]!
    broken.imageUrls = [`${origin}/o/productos/roto.png`]
    broken.mainImageUrl = `${origin}/o/productos/roto.png`
    const taken = block[3]!.sku as string
    await createProduct(database.db, { sku: taken })
    const pedidos = source.pedidos as unknown as Record<string, Record<string, unknown>>
    const [badOrder] = Object.keys(pedidos)
    pedidos[badOrder!]!.status = 'perdido'
    pedidos['sin-articulos'] = { status: 'pagado', customer_details: {}, items: [], total: 0 }

    const report = await importOriginalShop(deps(database), source)
    expect(report.refused).toEqual(
      expect.arrayContaining([
        {
          kind: 'producto',
          key: wrongSku,
          reason: expect.stringMatching(
            /^Sus movimientos no cuadran con el stock: .* y el producto tiene stock \d+\.$/,
          ),
        },
        {
          kind: 'producto',
          key: taken,
          reason: 'Ya hay un producto con este SKU en Vitrina que no vino de la tienda original.',
        },
        { kind: 'pedido', key: badOrder, reason: 'Estado desconocido "perdido".' },
        { kind: 'pedido', key: 'sin-articulos', reason: 'items: no tiene artículos' },
      ]),
    )
    expect(report.refused).toHaveLength(4)
    expect(report.imported.products).toBe(58)
    const { db } = database
    expect(await db.$count(products, eq(products.sku, wrongSku))).toBe(0)
    expect(await db.$count(stockMovements, eq(stockMovements.productSku, wrongSku))).toBe(0)
    // Nothing answers there: the file is listed for the owner, and the report says why.
    expect(await db.$count(media, eq(media.productSku, unreachableProduct.sku as string))).toBe(0)
    const [missing] = await db
      .select()
      .from(missingMedia)
      .where(eq(missingMedia.productSku, unreachableProduct.sku as string))
    expect(missing).toMatchObject({ url: `${unreachable}/o/foto.png`, reason: UNREACHABLE_REASON })
    expect(report.warnings).toContainEqual({
      kind: 'producto',
      key: unreachableProduct.sku,
      reason: `No se pudo traer ${unreachable}/o/foto.png (${UNREACHABLE_REASON}): ${MISSING_FILE_OUTCOME}`,
    })
    // An answer that is not an image or a video is not stored either.
    expect(report.warnings).toContainEqual({
      kind: 'producto',
      key: broken.sku,
      reason: `No se pudo traer ${origin}/o/productos/roto.png (El archivo «roto.png» no es una imagen válida ni un video MP4, WebM u Ogg.): ${MISSING_FILE_OUTCOME}`,
    })
  })
})

describe('a later export', () => {
  let database: Database
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database.close())

  test('records it tells differently are reported, not updated; the same ones, in any field order, are unchanged', async () => {
    await importOriginalShop(deps(database), small.source)
    const before = await snapshot(database)
    const later = structuredClone(small.source) as Record<string, Record<string, unknown>>
    const block = later['productos/productos_bloque_1']!.productos as Record<string, unknown>[]
    const renamed = block[0]!
    renamed.name = `${renamed.name as string} (nuevo)`
    // The same product with its fields in another order is the same record.
    block[1] = Object.fromEntries(Object.entries(block[1]!).reverse())
    const pedidos = later.pedidos as Record<string, Record<string, unknown>>
    const [orderId] = Object.keys(pedidos)
    pedidos[orderId!]!.status = 'cancelado'
    const [clicksKey] = Object.keys(later).filter((key) => key.startsWith('clickEvents/'))
    const clicks = later[clicksKey!] as Record<string, { click_count: number }>
    Object.values(clicks)[0]!.click_count += 5

    const report = await importOriginalShop(deps(database), later)
    const reason =
      'Cambió desde la importación anterior: no se actualizó (Vitrina conserva lo que se importó entonces).'
    expect(report.refused).toEqual([
      { kind: 'producto', key: renamed.sku, reason },
      { kind: 'pedido', key: orderId, reason },
      { kind: 'clics', key: clicksKey, reason },
    ])
    expect(report.alreadyImported).toMatchObject({
      products: 59,
      orders: small.expected.orders.length - 1,
      clickMonths: small.expected.months.length - 1,
    })
    expect(report.imported).toMatchObject({ products: 0, orders: 0, clickMonths: 0 })
    expect(await snapshot(database)).toEqual(before)
    const [kept] = await database.db
      .select()
      .from(products)
      .where(eq(products.sku, renamed.sku as string))
    expect(kept!.name).not.toContain('(nuevo)')

    // The export as it was is still the same: nothing to report.
    const again = await importOriginalShop(deps(database), small.source)
    expect(again.refused).toEqual([])
    expect(again.alreadyImported).toMatchObject({ products: 60, orders: small.expected.orders.length })
  })
})
