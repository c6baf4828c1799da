import { expect, test } from 'vitest'
import { eq } from 'drizzle-orm'
import { products } from '#app/modules/catalog/schema.ts'
import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
import { STOCK_FORM_MESSAGES, STOCK_MESSAGES } from '#app/modules/inventory/validators.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { signedInAdminRoutes } from '#tests/admin-routes.ts'
import { ADMIN_EMAIL } from '#tests/auth.ts'
import * as entry from './stock/entry.tsx'
import * as exit from './stock/exit.tsx'
import * as kardex from './stock/kardex.tsx'
import * as kardexCsv from './stock/kardex-csv.ts'

/**
 * The entry, exit and kardex routes on a real database: refusals answer the spec's Spanish texts
 * beside their fields, keep what was typed and change nothing; movements land in the kardex and its CSV.
 */

const BASE = 'http://127.0.0.1:5557'
const LOCATION = 'P1-C1-A1-E1-X1-Y1-Z1'
const t = setupTestDatabase()
const { call } = signedInAdminRoutes(BASE, t)

async function stateOf(sku: string) {
  const [product] = await t.db
    .select({
      stock: products.stock,
      cost: products.cost,
      unitsIn: products.unitsIn,
      unitsOut: products.unitsOut,
    })
    .from(products)
    .where(eq(products.sku, sku))
  const locations = await t.db
    .select({ code: productLocations.code, stock: productLocations.stock })
    .from(productLocations)
    .where(eq(productLocations.productSku, sku))
  const movements = await t.db.$count(stockMovements, eq(stockMovements.productSku, sku))
  return { ...product, locations, movements }
}

test('the pages find products by name or SKU and preselect one with ?sku=', async () => {
  const product = await createProduct(t.db, { name: 'Collar Perla Única', stock: 0, reserved: 0, cost: 0 })
  const byName = await call(entry.loader, '/admin/productos/entrada?q=perla%20unica')
  expect(byName.options.map((o) => o.sku)).toContain(product.sku)
  const bySku = await call(exit.loader, `/admin/productos/salida?q=${product.sku.slice(-6).toLowerCase()}`)
  expect(bySku.options.map((o) => o.sku)).toEqual([product.sku])
  const chosen = await call(exit.loader, `/admin/productos/salida?sku=${product.sku}`)
  expect(chosen.product).toMatchObject({ sku: product.sku, stock: 0, available: 0, locations: [] })
  const unknown = await call(entry.loader, '/admin/productos/entrada?sku=NO-EXISTE')
  expect(unknown).toMatchObject({ product: null, unknownSku: 'NO-EXISTE' })
  // Found by the fuzz suite: a NUL in the search or the sku made PostgreSQL refuse the query (500).
  const withNul = await call(entry.loader, '/admin/productos/entrada?q=perla%00%20unica')
  expect(withNul.options.map((o) => o.sku)).toContain(product.sku)
  expect(await call(exit.loader, '/admin/productos/salida?sku=%00')).toMatchObject({ product: null })
})

test('missing fields and bad values are answered beside the fields, keep the typed values and change nothing', async () => {
  const product = await createProduct(t.db, { stock: 0, reserved: 0, cost: 0 })
  const before = await stateOf(product.sku)
  const missing = await call(
    entry.action,
    '/admin/productos/entrada',
    {},
    {
      sku: product.sku,
      quantity: '',
      unitPrice: '1000',
      location: LOCATION,
      receipt: 'F-9',
      note: 'se queda',
    },
  )
  expect(missing).toMatchObject({
    status: 400,
    ok: false,
    message: 'Por favor, completa todos los campos antes de enviar.',
    fieldErrors: { quantity: STOCK_FORM_MESSAGES.required },
    values: { sku: product.sku, unitPrice: '1000', receipt: 'F-9', note: 'se queda' },
  })
  const badLocation = await call(
    exit.action,
    '/admin/productos/salida',
    {},
    {
      sku: product.sku,
      quantity: '1',
      location: 'bodega',
    },
  )
  expect(badLocation).toMatchObject({
    status: 400,
    message: STOCK_FORM_MESSAGES.locationFormat,
    fieldErrors: { location: STOCK_FORM_MESSAGES.locationFormat },
  })
  expect(await stateOf(product.sku)).toEqual(before)
})

test('an entry and exits through the routes: refusals of spec §5, then the kardex and its CSV', async () => {
  const product = await createProduct(t.db, { stock: 0, reserved: 0, cost: 0 })
  const path = '/admin/productos/entrada'
  const entered = await call(
    entry.action,
    path,
    {},
    {
      sku: product.sku,
      quantity: '10',
      unitPrice: '1500.50',
      location: LOCATION.toLowerCase(),
      receipt: 'F-100',
      note: 'Compra inicial',
    },
  )
  expect(entered).toMatchObject({ ok: true, message: 'Entrada registrada con éxito.' })
  expect(await stateOf(product.sku)).toMatchObject({
    stock: 10,
    cost: 1500_50,
    unitsIn: 10,
    locations: [{ code: LOCATION, stock: 10 }],
    movements: 1,
  })

  const exitFields = { sku: product.sku, quantity: '3', location: LOCATION, receipt: 'V-1', note: '' }
  const refusals: [Record<string, string>, string, string][] = [
    [{ quantity: '11' }, STOCK_MESSAGES.notEnoughStock, 'quantity'],
    [
      { location: 'P9-C1-A1-E1-X1-Y1-Z1' },
      STOCK_MESSAGES.unknownLocation('P9-C1-A1-E1-X1-Y1-Z1'),
      'location',
    ],
  ]
  for (const [overrides, message, field] of refusals) {
    const answer = await call(exit.action, '/admin/productos/salida', {}, { ...exitFields, ...overrides })
    expect(answer).toMatchObject({ ok: false, message, fieldErrors: { [field]: message } })
    const { status } = answer as { status: number }
    expect(status).toBeGreaterThanOrEqual(400)
    expect(status).toBeLessThan(500)
  }
  // A second location with 2 units: taking 3 from it is "not enough at the location".
  await call(
    entry.action,
    path,
    {},
    { ...exitFields, quantity: '2', unitPrice: '1500.50', location: 'P2-C1-A1-E1-X1-Y1-Z1' },
  )
  const short = await call(
    exit.action,
    '/admin/productos/salida',
    {},
    {
      ...exitFields,
      location: 'P2-C1-A1-E1-X1-Y1-Z1',
    },
  )
  expect(short).toMatchObject({
    ok: false,
    message: STOCK_MESSAGES.notEnoughAtLocation('P2-C1-A1-E1-X1-Y1-Z1'),
    fieldErrors: { location: STOCK_MESSAGES.notEnoughAtLocation('P2-C1-A1-E1-X1-Y1-Z1') },
  })
  expect(await stateOf(product.sku)).toMatchObject({ stock: 12, movements: 2 })

  // Without "Editar Precio" the exit goes at the average cost, whatever the read-only field sent.
  const out = await call(exit.action, '/admin/productos/salida', {}, { ...exitFields, unitPrice: '1' })
  expect(out).toMatchObject({ ok: true, message: 'Salida registrada con éxito.' })
  const edited = await call(
    exit.action,
    '/admin/productos/salida',
    {},
    {
      ...exitFields,
      quantity: '1',
      editPrice: 'on',
      unitPrice: '2000',
    },
  )
  expect(edited).toMatchObject({ ok: true })
  expect(await stateOf(product.sku)).toMatchObject({ stock: 8, unitsOut: 4, movements: 4 })

  const page = await call(kardex.loader, `/admin/productos/movimientos/${product.sku}`, { sku: product.sku })
  expect(
    page.kardex?.rows.map((row) => [row.typeLabel, row.quantity, row.unitPrice, row.stockAfter, row.by]),
  ).toEqual([
    ['Entrada', 10, 1500_50, 10, ADMIN_EMAIL],
    ['Entrada', 2, 1500_50, 12, ADMIN_EMAIL],
    ['Salida', 3, 1500_50, 9, ADMIN_EMAIL],
    ['Salida', 1, 2000_00, 8, ADMIN_EMAIL],
  ])
  const missing = await call(kardex.loader, '/admin/productos/movimientos/NO-EXISTE', { sku: 'NO-EXISTE' })
  expect(missing).toMatchObject({ status: 404, kardex: null })

  const csv = (await call(kardexCsv.loader, `/admin/productos/movimientos/${product.sku}/csv`, {
    sku: product.sku,
  })) as Response
  expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
  expect(csv.headers.get('Content-Disposition')).toBe(`attachment; filename="kardex-${product.sku}.csv"`)
  const bytes = new Uint8Array(await csv.arrayBuffer())
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  const lines = new TextDecoder().decode(bytes).split('\r\n')
  expect(lines[0]).toBe(
    'Fecha;Tipo;Cantidad;Precio unitario;Total;Recibo;Nota;Ubicación;Stock después;Costo promedio después;Usuario',
  )
  expect(lines.slice(1, 5).map((line) => line.split(';').slice(1, 5))).toEqual([
    ['Entrada', '10', '1500,50', '15005,00'],
    ['Entrada', '2', '1500,50', '3001,00'],
    ['Salida', '3', '1500,50', '4501,50'],
    ['Salida', '1', '2000,00', '2000,00'],
  ])
  const none = (await call(kardexCsv.loader, '/admin/productos/movimientos/NO-EXISTE/csv', {
    sku: 'NO-EXISTE',
  })) as Response
  expect(none.status).toBe(404)
})

test('an exit may not take units that orders have reserved: refused beside the quantity, nothing changes', async () => {
  const product = await createProduct(t.db, { stock: 5, reserved: 4, cost: 1000_00 })
  const before = await stateOf(product.sku)
  const answer = await call(
    exit.action,
    '/admin/productos/salida',
    {},
    {
      sku: product.sku,
      quantity: '2',
      location: LOCATION,
    },
  )
  expect(answer).toMatchObject({
    ok: false,
    message: STOCK_MESSAGES.reservedUnits(1, 4),
    fieldErrors: { quantity: STOCK_MESSAGES.reservedUnits(1, 4) },
    status: 409,
  })
  expect(await stateOf(product.sku)).toEqual(before)
  const unknown = await call(
    exit.action,
    '/admin/productos/salida',
    {},
    {
      sku: 'NO-EXISTE',
      quantity: '1',
      location: LOCATION,
    },
  )
  expect(unknown).toMatchObject({
    ok: false,
    message: 'Producto no encontrado.',
    fieldErrors: { sku: 'Producto no encontrado.' },
    status: 404,
  })
})
