import { describe, expect, test } from 'vitest'
import { isSpanishMessage } from '#tests/fuzz.ts'
import { ourWords } from '#tests/import-fixture.ts'
import { planImport } from './plan.ts'

/**
 * Issue 23: an import takes nothing the shop's own forms would refuse (the product and category
 * forms, the stock entry form, the checkout's customer fields, what the analytics module records),
 * and nothing its columns cannot hold. A record past a bound is refused, naming the field and the
 * bound; the others come over.
 */

const NOW = new Date('2026-11-24T12:00:00Z')
const long = (length: number, unit = 'a') => unit.repeat(length)

const product = (overrides: Record<string, unknown> = {}) => ({
  sku: 'COL-GEN-AAAA1111',
  name: 'Collar',
  description: 'Un collar',
  cost: 1000,
  priceLevels: { level1: 5000 },
  imageUrls: ['https://cdn.example/o/a.jpg'],
  stock: 0,
  ...overrides,
})
const movement = (overrides: Record<string, unknown> = {}) => ({
  cantidad: 2,
  precioUnitario: 1000,
  tipo: 'Entrada',
  createdAt: '2025-01-01T00:00:00Z',
  ...overrides,
})
const order = (overrides: Record<string, unknown> = {}, customer: Record<string, unknown> = {}) => ({
  status: 'Completado',
  enviado: 'enviado',
  customer_details: { name: 'Ana', phone: '3001234567', payment_method: 'acordar', ...customer },
  items: [{ id: 'COL-GEN-AAAA1111', title: 'Collar', quantity: 1, unit_price: 5000 }],
  total: 5000,
  createdAt: '2025-02-01T00:00:00Z',
  ...overrides,
})

/** Plans a product with this change and a good one beside it: the good one always comes. */
function planProduct(change: Record<string, unknown>, ledger?: unknown[]) {
  const plan = planImport(
    {
      'productos/productos_bloque_1': {
        productos: [product({ sku: 'MAL-GEN-00000001', ...change }), product({ sku: 'BIEN-GEN-0000001' })],
      },
      ...(ledger ? { 'movimientos/MAL-GEN-00000001': { movimientos: ledger } } : {}),
    },
    NOW,
  )
  expect(plan.products.map((p) => p.sku)).toEqual(['BIEN-GEN-0000001'])
  return plan
}

function expectSpanish(reasons: string[]) {
  for (const reason of reasons) expect(isSpanishMessage(ourWords(reason)), reason).toBe(true)
}

describe('products: the product form and the stock form', () => {
  test.each([
    ['a 121-character name', { name: long(121) }, 'name: tiene más de 120 caracteres'],
    ['a 100,000-character name', { name: long(100_000) }, 'name: tiene más de 120 caracteres'],
    [
      'a 5,001-character description',
      { description: long(5_001) },
      'description: tiene más de 5000 caracteres',
    ],
    ['a 2 MB description', { description: long(2_000_000) }, 'description: tiene más de 5000 caracteres'],
    ['a 61-character SKU', { sku: long(61, 'S') }, 'sku: tiene más de 60 caracteres'],
    [
      'a purchase link that is not a web address',
      { purchaseLink: 'javascript:alert(1)' },
      'purchaseLink: El link de compra debe ser una URL completa (https://…).',
    ],
    [
      'a 2,001-character purchase link',
      { purchaseLink: `https://proveedor.example/${long(2_000)}` },
      'purchaseLink: tiene más de 2000 caracteres',
    ],
    [
      'a 2,001-character supplier info',
      { supplierInfo: long(2_001) },
      'supplierInfo: tiene más de 2000 caracteres',
    ],
    [
      '21 categories',
      { categorias: Array.from({ length: 21 }, (_, i) => `Categoria_${i}`) },
      'categorias: tiene más de 20 elementos',
    ],
    ['a 129-character category id', { categorias: [long(129)] }, 'categorias.0: tiene más de 128 caracteres'],
    [
      'a 2,001-character image address',
      { imageUrls: [`https://cdn.example/${long(2_000)}`] },
      'imageUrls.0: tiene más de 2000 caracteres',
    ],
    ['a discount of 101 %', { descuento: 101 }, 'descuento: El descuento debe estar entre 0 y 100.'],
    [
      'a price over $ 20.000.000',
      { priceLevels: { level1: 20_000_001 } },
      'priceLevels.level1: es mayor que $ 20.000.000',
    ],
    [
      'a date in the year 275760',
      { createdAt: 8.64e15 },
      'createdAt: no es una fecha válida entre 2000 y 2100',
    ],
    [
      'a date of 1e20 milliseconds',
      { createdAt: 1e20 },
      'createdAt: no es una fecha válida entre 2000 y 2100',
    ],
    ['a date in 1970', { createdAt: 0 }, 'createdAt: no es una fecha válida entre 2000 y 2100'],
    [
      'a Firestore date of 1e300 seconds',
      { createdAt: { seconds: 1e300 } },
      'createdAt: no es una fecha válida entre 2000 y 2100',
    ],
  ])('%s is refused, naming the field and the bound', (_, change, reason) => {
    const plan = planProduct(change)
    const sku = 'sku' in change ? change.sku : 'MAL-GEN-00000001'
    expect(plan.refused).toEqual([{ kind: 'producto', key: sku, reason }])
    expectSpanish([reason])
  })

  test('within the bounds, a product comes whole (trimmed as the form trims it)', () => {
    const plan = planImport(
      {
        'productos/productos_bloque_1': {
          productos: [
            product({
              name: ` ${long(120)} `,
              description: long(5_000),
              purchaseLink: 'https://proveedor.example/x',
              supplierInfo: long(2_000),
              categorias: Array.from({ length: 20 }, (_, i) => `Categoria_${i}`),
            }),
          ],
        },
      },
      NOW,
    )
    expect(plan.refused).toEqual([])
    expect(plan.products[0]).toMatchObject({ name: long(120), purchaseLink: 'https://proveedor.example/x' })
  })

  test.each([
    ['a 201-character receipt', { recibo: long(201) }, 'recibo: tiene más de 200 caracteres'],
    ['a 1,001-character note', { nota: long(1_001) }, 'nota: tiene más de 1000 caracteres'],
    ['100,001 units', { cantidad: 100_001 }, 'cantidad: La cantidad no puede ser mayor que 100.000.'],
    [
      'a unit price over $ 20.000.000',
      { precioUnitario: 20_000_001 },
      'precioUnitario: es mayor que $ 20.000.000',
    ],
    [
      'a date in the year 275760',
      { createdAt: 8.64e15 },
      'createdAt: no es una fecha válida entre 2000 y 2100',
    ],
  ])('a movement with %s refuses its product', (_, change, reason) => {
    const plan = planProduct({ stock: 2 }, [movement(change)])
    expect(plan.refused).toEqual([
      {
        kind: 'producto',
        key: 'MAL-GEN-00000001',
        reason: `El movimiento 1 no es válido (${reason}); no se importó el producto.`,
      },
    ])
  })
})

describe('categories, orders and analytics', () => {
  test('a category name past the category form’s 80 characters is refused', () => {
    const plan = planImport(
      {
        'productos/categorias': {
          categorias: [
            { id: 'Categoria_1', nombre: long(81) },
            { id: 'Categoria_2', nombre: 'Aretes' },
          ],
        },
      },
      NOW,
    )
    expect(plan.categories.map((c) => c.id)).toEqual(['Categoria_2'])
    expect(plan.refused).toEqual([
      { kind: 'categoría', key: 'Categoria_1', reason: 'nombre: tiene más de 80 caracteres' },
    ])
  })

  test.each([
    ['address', 200],
    ['name', 80],
    ['phone', 30],
    ['email', 120],
  ] as const)('an order whose customer %s passes the checkout’s %i characters is refused', (field, max) => {
    const plan = planImport(
      { pedidos: { mal: order({}, { [field]: long(max + 1, '9') }), bien: order() } },
      NOW,
    )
    expect(plan.orders.map((o) => o.id)).toEqual(['bien'])
    expect(plan.refused).toEqual([
      { kind: 'pedido', key: 'mal', reason: `customer_details.${field}: tiene más de ${max} caracteres` },
    ])
  })

  test('an order line titled past the product form’s 120 characters, or for a SKU past 60, is refused', () => {
    const line = { id: 'COL-GEN-AAAA1111', title: 'Collar', quantity: 1, unit_price: 5000 }
    const plan = planImport(
      {
        pedidos: {
          titulo: order({ items: [{ ...line, title: long(121) }] }),
          sku: order({ items: [{ ...line, id: long(61, 'S') }] }),
          bien: order(),
        },
      },
      NOW,
    )
    expect(plan.orders.map((o) => o.id)).toEqual(['bien'])
    expect(plan.refused).toEqual([
      { kind: 'pedido', key: 'titulo', reason: 'items.0.title: tiene más de 120 caracteres' },
      { kind: 'pedido', key: 'sku', reason: 'items.0.id: tiene más de 60 caracteres' },
    ])
  })

  test('a customer field is kept on one line, as the checkout keeps it', () => {
    const plan = planImport({ pedidos: { p: order({}, { address: ' Calle 1\n# 2-3\t apto 4 ' }) } }, NOW)
    expect(plan.orders[0]!.customer.address).toBe('Calle 1 # 2-3 apto 4')
  })

  test('a click element or page name past the 120 characters analytics records is refused with its month', () => {
    const plan = planImport(
      {
        'clickEvents/2025-01': { [long(100_000)]: { click_count: 1 }, whatsapp: { click_count: 2 } },
        'clickEvents/2025-02': { whatsapp: { click_count: 3 } },
        'pageViews/2025-01': { [`Collar ${long(120)}`]: { visits: 1, totalTime: 3 } },
        'pageViews/2025-02': { 'Collar ¡Nuevo! ❤️': { visits: 1, totalTime: 3 } },
      },
      NOW,
    )
    expect(plan.clicks.map((m) => m.month)).toEqual(['2025-02'])
    // A page title as the original recorded it (any sign, an emoji) is fine.
    expect(plan.pageViews.map((m) => m.month)).toEqual(['2025-02'])
    expect(plan.refused).toEqual([
      {
        kind: 'clics',
        key: 'clickEvents/2025-01',
        reason: `Elemento "${long(40)}…": el nombre tiene más de 120 caracteres.`,
      },
      {
        kind: 'visitas',
        key: 'pageViews/2025-01',
        reason: `Página "Collar ${long(33)}…": el nombre tiene más de 120 caracteres.`,
      },
    ])
  })
})
