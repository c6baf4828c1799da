import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { stringify } from 'safe-stable-stringify'
import { describe, expect, test } from 'vitest'
import { formatCOP } from '#app/utils/money.ts'
import { contentHash, planImport } from './plan.ts'

const NOW = new Date('2026-11-24T12:00:00Z')
const SAMPLE = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/import/sample-export.json'), 'utf8'),
) as Record<string, unknown>

const product = (overrides: Record<string, unknown> = {}) => ({
  sku: 'COL-GEN-AAAA1111',
  name: 'Collar',
  description: 'Un collar',
  cost: 1000,
  priceLevels: { level1: 5000 },
  categorias: [],
  imageUrls: ['https://cdn.example/o/a.jpg'],
  mainImageUrl: 'https://cdn.example/o/a.jpg',
  stock: 3,
  ubicaciones: [{ ubicacion: 'P1-C1-A1-E1-X1-Y1-Z1', stock: 3 }],
  ...overrides,
})
const entry = (cantidad: number, extra: Record<string, unknown> = {}) => ({
  cantidad,
  precioUnitario: 1000,
  tipo: 'Entrada',
  createdAt: '2025-01-01T00:00:00Z',
  ...extra,
})
const shop = (
  products: unknown[],
  ledgers: Record<string, unknown[]> = {},
  extra: Record<string, unknown> = {},
) => ({
  'productos/productos_bloque_1': { productos: products },
  ...Object.fromEntries(
    Object.entries(ledgers).map(([sku, movimientos]) => [`movimientos/${sku}`, { movimientos }]),
  ),
  ...extra,
})

describe('planImport', () => {
  test('the README sample plans whole: nothing refused, nothing to warn about', () => {
    const plan = planImport(SAMPLE, NOW)
    expect(plan.refused).toEqual([])
    expect(plan.warnings).toEqual([])
    expect(plan.categories).toHaveLength(2)
    const [luna, perla] = plan.products
    expect(luna).toMatchObject({
      priceLevel1: 4_500_000,
      discountPercent: 10,
      openingCost: 1_525_000,
      sourceMovements: 3,
    })
    expect(luna!.final).toMatchObject({ stock: 8, cost: 1_525_000, unitsIn: 10, unitsOut: 2 })
    expect(luna!.media.map((m) => [m.kind, m.main])).toEqual([
      ['image', true],
      ['video', false],
    ])
    expect(perla).toMatchObject({ showWholesale: false, showRetail: true, history: [] })
    expect(plan.orders.map((o) => [o.status, Boolean(o.shippedAt), o.total])).toEqual([
      ['pagado', true, 5_250_000],
      ['pendiente de pago', false, 8_100_000],
    ])
    expect(plan.clicks[0]!.rows).toHaveLength(2)
    expect(plan.pageViews[0]!.rows[0]).toEqual({
      month: '2025-01',
      pageName: 'Inicio',
      visits: 310,
      totalTimeSeconds: 9300,
    })
  })

  test('numbers typed as text, Firestore timestamps and orders one per key are read', () => {
    const plan = planImport(
      shop(
        [product({ stock: '3', priceLevels: { level1: '5000.5' } })],
        {
          'COL-GEN-AAAA1111': [
            entry(3, { createdAt: { seconds: 1_736_000_000, nanoseconds: 0 }, recibo: 17 }),
          ],
        },
        {
          'pedidos/abc': {
            status: 'Pagado',
            customer_details: { name: 'Ana', phone: 3001234567, payment_method: 'acordar' },
            items: [{ id: 'COL-GEN-AAAA1111', title: 'Collar', quantity: 1, unit_price: '5000.5' }],
            total: 5000.5,
          },
        },
      ),
      NOW,
    )
    expect(plan.refused).toEqual([])
    expect(plan.products[0]).toMatchObject({ priceLevel1: 500_050, priceLevel5: 200_020 })
    expect(plan.products[0]!.history[0]).toMatchObject({ receipt: '17', at: new Date(1_736_000_000_000) })
    expect(plan.orders[0]).toMatchObject({
      id: 'abc',
      status: 'pagado',
      total: 500_050,
      customer: { phone: '3001234567' },
    })
    expect(plan.warnings).toEqual([
      { kind: 'pedido', key: 'abc', reason: 'No tenía fecha: se toma la de la importación.' },
    ])
  })

  test('records that cannot come over whole are refused with the reason, the rest goes on', () => {
    const plan = planImport(
      shop(
        [
          product({ sku: 'BIEN-1' }),
          product({ sku: 'MAL-STOCK' }),
          product({ sku: 'MAL-UBIC', ubicaciones: [{ ubicacion: 'Estante 3', stock: 3 }] }),
          product({ sku: 'MAL-SUMA', ubicaciones: [{ ubicacion: 'P1-C1-A1-E1-X1-Y1-Z1', stock: 2 }] }),
          product({ sku: 'MAL-ORDEN', stock: 0, ubicaciones: [] }),
          product({ sku: 'SIN-NOMBRE', name: '  ' }),
          product({ sku: 'BIEN-1' }),
        ],
        {
          'BIEN-1': [entry(3)],
          'MAL-STOCK': [entry(5)],
          'MAL-UBIC': [entry(3)],
          'MAL-SUMA': [entry(3)],
          'MAL-ORDEN': [{ ...entry(2), tipo: 'Salida' }, entry(2)],
          'SIN-NOMBRE': [entry(3)],
          HUERFANO: [entry(1)],
        },
        {
          pedidos: {
            p1: {
              status: 'pagado',
              customer_details: { payment_method: 'efectivo' },
              items: [{ id: 'BIEN-1', quantity: 1, unit_price: 5000 }],
              total: 5000,
            },
            p2: {
              status: 'pagado',
              customer_details: { payment_method: 'acordar' },
              items: [{ id: 'BIEN-1', quantity: 1, unit_price: 5000 }],
              total: 9000,
              shipping_cost: 1000,
            },
          },
          'clickEvents/2025-13': {},
          'pageViews/2025-02': { Inicio: { visits: 3, totalTime: -1 } },
          'ventas/2025': {},
        },
      ),
      NOW,
    )
    expect(plan.products.map((p) => p.sku)).toEqual(['BIEN-1'])
    expect(plan.refused).toEqual([
      { kind: 'clics', key: 'clickEvents/2025-13', reason: 'El mes debe tener la forma AAAA-MM.' },
      { kind: 'visitas', key: 'pageViews/2025-02', reason: '"Inicio".totalTime: no puede ser negativo' },
      { kind: 'documento', key: 'ventas/2025', reason: 'Documento desconocido: no se importó.' },
      {
        kind: 'producto',
        key: 'MAL-STOCK',
        reason:
          'Sus movimientos no cuadran con el stock: entradas 5 − salidas 0 = 5, y el producto tiene stock 3.',
      },
      {
        kind: 'producto',
        key: 'MAL-UBIC',
        reason: 'La ubicación "Estante 3" no tiene el formato P1-C1-A1-E1-X1-Y1-Z1.',
      },
      {
        kind: 'producto',
        key: 'MAL-SUMA',
        reason: 'Sus ubicaciones suman 2 unidades y el producto tiene stock 3.',
      },
      {
        kind: 'producto',
        key: 'MAL-ORDEN',
        reason: 'Sus movimientos sacan más unidades de las que había en algún momento.',
      },
      { kind: 'producto', key: 'SIN-NOMBRE', reason: 'name: falta el nombre' },
      { kind: 'producto', key: 'BIEN-1', reason: 'SKU repetido en la exportación: se importó el primero.' },
      { kind: 'movimientos', key: 'HUERFANO', reason: 'No hay un producto con este SKU en la exportación.' },
      { kind: 'pedido', key: 'p1', reason: 'Método de pago desconocido "efectivo".' },
      {
        kind: 'pedido',
        key: 'p2',
        reason:
          `Su total (${formatCOP(900_000)}) no es la suma de los artículos (${formatCOP(500_000)}) ` +
          `más el envío (${formatCOP(100_000)}).`,
      },
    ])
  })

  test('an order too large for the database is refused, not left to fail the whole import', () => {
    const plan = planImport(
      shop(
        [],
        {},
        {
          pedidos: {
            enorme: {
              status: 'pagado',
              customer_details: { payment_method: 'acordar' },
              items: [{ id: 'X', quantity: 1_000, unit_price: 20_000_000 }],
              total: 20_000_000,
            },
          },
        },
      ),
      NOW,
    )
    expect(plan.orders).toEqual([])
    expect(plan.refused).toEqual([
      {
        kind: 'pedido',
        key: 'enorme',
        reason: `Sus artículos suman ${formatCOP(2_000_000_000_000)}: más de lo que un pedido puede guardar.`,
      },
    ])
  })

  test('a ledger whose replayed figures overflow the database is refused with that product alone', () => {
    // The entry form's largest movement (100,000 units) in and out, 21,475 times: the stock stays
    // small, the units in do not.
    const ledger = Array.from({ length: 21_475 }, () => [
      entry(100_000),
      { ...entry(100_000), tipo: 'Salida' },
    ]).flat()
    const plan = planImport(
      shop([product({ sku: 'ENORME', stock: 0, ubicaciones: [] }), product()], {
        ENORME: ledger,
        'COL-GEN-AAAA1111': [entry(3)],
      }),
      NOW,
    )
    expect(plan.refused).toEqual([
      {
        kind: 'producto',
        key: 'ENORME',
        reason:
          'Sus movimientos llevan las entradas a 2147500000, más de lo que Vitrina puede guardar (2147483647).',
      },
    ])
    expect(plan.products.map((planned) => planned.sku)).toEqual(['COL-GEN-AAAA1111'])
  })

  test('stock without locations goes to the default location, with a warning', () => {
    const plan = planImport(shop([product({ ubicaciones: [] })], { 'COL-GEN-AAAA1111': [entry(3)] }), NOW)
    expect(plan.refused).toEqual([])
    expect(plan.products[0]!.history[0]!.location).toBe('P1-C1-A1-E1-X1-Y1-Z1')
    expect(plan.warnings).toEqual([
      {
        kind: 'producto',
        key: 'COL-GEN-AAAA1111',
        reason: 'No tenía ubicaciones: sus 3 unidades quedan en P1-C1-A1-E1-X1-Y1-Z1.',
      },
    ])
  })
})

describe('contentHash', () => {
  // The digests earlier runs kept in import_records were SHA-256 of safe-stable-stringify's text:
  // the one fed piece by piece must stay byte for byte the same, or every record would read as
  // changed on the next run.
  const before = (...parts: unknown[]) =>
    createHash('sha256')
      .update(stringify(parts) ?? '')
      .digest('hex')

  test('is the digest of safe-stable-stringify’s text, for any JSON', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 3 }),
        fc.string({ unit: 'binary' }),
        (parts, text) => {
          expect(contentHash(...parts)).toBe(before(...parts))
          expect(contentHash({ [text]: text, b: [text, null] })).toBe(
            before({ [text]: text, b: [text, null] }),
          )
        },
      ),
      { seed: 23, numRuns: 300 },
    )
  })

  test('is the same for a large month, keys in any order', () => {
    const month = Object.fromEntries(
      Array.from({ length: 5_000 }, (_, i) => [
        `elemento-${(i * 7919) % 5_000}-ñ\ud83d\ude00"\\`,
        { click_count: i },
      ]),
    )
    expect(contentHash(month)).toBe(before(month))
    expect(contentHash(Object.fromEntries(Object.entries(month).reverse()))).toBe(before(month))
    expect(contentHash(SAMPLE, [undefined, { a: undefined }], 'x'.repeat(70_000))).toBe(
      before(SAMPLE, [undefined, { a: undefined }], 'x'.repeat(70_000)),
    )
  })
})
