import { expect, test } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { bogotaDayRange } from '#app/utils/bogota-days.ts'
import { kardexCsv, locationsOf, readKardex } from './kardex.server.ts'
import { productLocations, stockMovements } from './schema.ts'
import { kardexRangeMessage, STOCK_MESSAGES } from './validators.ts'

const t = setupTestDatabase()

const LOCATION = 'P1-C1-A1-E1-X1-Y1-Z1'

/** Ledger rows as movements would write them, at chosen instants (UTC). */
async function ledger(sku: string) {
  const row = (
    type: 'in' | 'out',
    at: string,
    quantity: number,
    unitPrice: number,
    stockAfter: number,
    averageCostAfter: number,
    extra: { receipt?: string; note?: string; location?: string } = {},
  ) => ({
    productSku: sku,
    type,
    quantity,
    unitPrice,
    total: quantity * unitPrice,
    location: extra.location ?? LOCATION,
    receipt: extra.receipt ?? '',
    note: extra.note ?? '',
    stockAfter,
    averageCostAfter,
    createdBy: 'duena@vitrina.test',
    createdAt: new Date(at),
  })
  await t.db.insert(stockMovements).values([
    // 23:30 in Bogotá on 31 October is already 1 November in UTC.
    row('in', '2026-11-01T04:30:00Z', 10, 1_000_00, 10, 1_000_00, {
      receipt: 'F-1',
      note: 'Compra, "inicial"',
    }),
    row('out', '2026-11-01T05:30:00Z', 4, 1_000_00, 6, 1_000_00, { receipt: '=HYPERLINK("x")' }),
    row('in', '2026-11-15T15:00:00Z', 6, 1_500_50, 12, 1_250_25, { note: 'Ñandú, café' }),
    // 23:59 in Bogotá on 30 November.
    row('out', '2026-12-01T04:59:00Z', 2, 1_250_25, 10, 1_250_25),
  ])
}

test('Bogotá days: desde starts at local midnight, hasta ends at the next one', () => {
  expect(bogotaDayRange({ from: '2026-11-01', to: '2026-11-30' })).toEqual({
    start: new Date('2026-11-01T05:00:00Z'),
    end: new Date('2026-12-01T05:00:00Z'),
  })
  expect(bogotaDayRange({})).toEqual({ start: undefined, end: undefined })
})

test('kardex lists every ledger row of the product in order, filtered by Bogotá days, paged', async () => {
  const product = await createProduct(t.db, { stock: 10, cost: 1_250_25 })
  const other = await createProduct(t.db)
  await ledger(product.sku)
  await ledger(other.sku)

  const all = await readKardex(t.db, product.sku, { page: 1 })
  expect(all?.product).toMatchObject({ sku: product.sku, name: product.name, stock: 10, reserved: 0 })
  expect(all?.rows.map((row) => [row.typeLabel, row.quantity, row.stockAfter])).toEqual([
    ['Entrada', 10, 10],
    ['Salida', 4, 6],
    ['Entrada', 6, 12],
    ['Salida', 2, 10],
  ])
  expect(all?.rows[0]).toMatchObject({
    unitPrice: 1_000_00,
    total: 10_000_00,
    receipt: 'F-1',
    location: LOCATION,
    by: 'duena@vitrina.test',
    at: '2026-11-01T04:30:00.000Z',
  })
  expect(all?.rows[0]?.when).toBe('31/10/2026, 11:30 p. m.')
  expect(all?.hasMore).toBe(false)

  const november = await readKardex(t.db, product.sku, { from: '2026-11-01', to: '2026-11-30', page: 1 })
  expect(november?.rows.map((row) => row.quantity)).toEqual([4, 6, 2])
  const october = await readKardex(t.db, product.sku, { to: '2026-10-31', page: 1 })
  expect(october?.rows.map((row) => row.quantity)).toEqual([10])
  const midMonth = await readKardex(t.db, product.sku, { from: '2026-11-15', to: '2026-11-15', page: 1 })
  expect(midMonth?.rows.map((row) => row.quantity)).toEqual([6])

  const first = await readKardex(t.db, product.sku, { page: 1 }, 3)
  expect(first?.rows).toHaveLength(3)
  expect(first?.hasMore).toBe(true)
  const second = await readKardex(t.db, product.sku, { page: 2 }, 3)
  expect(second?.rows.map((row) => row.quantity)).toEqual([2])
  expect(second?.hasMore).toBe(false)

  expect(await readKardex(t.db, 'NO-EXISTE', { page: 1 })).toBeNull()
})

test('CSV for Excel es-CO: BOM, ";" between fields, decimal comma, Spanish headers, Bogotá times, pesos, quoting and formulas kept as text', async () => {
  const product = await createProduct(t.db, { stock: 10 })
  await ledger(product.sku)
  const answer = await kardexCsv(t.db, product.sku, { from: '2026-10-31', to: '2026-11-15' })
  expect(answer?.sku).toBe(product.sku)
  const csv = answer!.csv
  expect(csv.charCodeAt(0)).toBe(0xfeff)
  const lines = csv.slice(1).split('\r\n')
  expect(lines).toEqual([
    'Fecha;Tipo;Cantidad;Precio unitario;Total;Recibo;Nota;Ubicación;Stock después;Costo promedio después;Usuario',
    `2026-10-31 23:30;Entrada;10;1000,00;10000,00;F-1;"Compra, ""inicial""";${LOCATION};10;1000,00;duena@vitrina.test`,
    `2026-11-01 00:30;Salida;4;1000,00;4000,00;"'=HYPERLINK(""x"")";;${LOCATION};6;1000,00;duena@vitrina.test`,
    `2026-11-15 10:00;Entrada;6;1500,50;9003,00;;Ñandú, café;${LOCATION};12;1250,25;duena@vitrina.test`,
    '',
  ])
  expect(await kardexCsv(t.db, 'NO-EXISTE', {})).toBeNull()
})

test('exit suggestions: the locations holding units, by code', async () => {
  const product = await createProduct(t.db, {
    stock: 10,
    locations: { 'P2-C1-A1-E1-X1-Y1-Z1': 3, [LOCATION]: 7 },
  })
  await t.db
    .insert(productLocations)
    .values({ productSku: product.sku, code: 'P3-C1-A1-E1-X1-Y1-Z1', stock: 0 })
  expect(await locationsOf(t.db, product.sku)).toEqual([
    { code: LOCATION, stock: 7 },
    { code: 'P2-C1-A1-E1-X1-Y1-Z1', stock: 3 },
  ])
})

test('rows follow their ids (the per-product lock order), not the instant their transaction began', async () => {
  const product = await createProduct(t.db, { stock: 205 })
  const base = {
    productSku: product.sku,
    location: LOCATION,
    averageCostAfter: 150_000_00,
    createdBy: 'duena@vitrina.test',
  }
  // The second movement's transaction began first (an earlier createdAt) but took the lock second.
  await t.db.insert(stockMovements).values([
    {
      ...base,
      type: 'in',
      quantity: 5,
      unitPrice: 150_000_00,
      total: 750_000_00,
      stockAfter: 5,
      createdAt: new Date('2026-11-20T15:00:01Z'),
    },
    {
      ...base,
      type: 'in',
      quantity: 200,
      unitPrice: 150_000_00,
      // 3.000.000.000 centavos: past a 32-bit integer.
      total: 30_000_000_00,
      stockAfter: 205,
      createdAt: new Date('2026-11-20T15:00:00Z'),
    },
  ])
  const kardex = await readKardex(t.db, product.sku, { page: 1 })
  expect(kardex?.rows.map((row) => [row.quantity, row.stockAfter, row.total])).toEqual([
    [5, 5, 750_000_00],
    [200, 205, 30_000_000_00],
  ])
  const lines = (await kardexCsv(t.db, product.sku, {}))!.csv.split('\r\n')
  expect(lines.slice(1, 3).map((line) => line.split(';').slice(2, 5))).toEqual([
    ['5', '150000,00', '750000,00'],
    ['200', '150000,00', '30000000,00'],
  ])
})

test('a range whose "desde" is after its "hasta" has its own message', () => {
  expect(kardexRangeMessage({ from: '2026-11-30', to: '2026-11-01' })).toBe(STOCK_MESSAGES.rangeReversed)
  expect(kardexRangeMessage({ from: '2026-11-01', to: '2026-11-01' })).toBeNull()
  expect(kardexRangeMessage({ from: '2026-11-30' })).toBeNull()
})
