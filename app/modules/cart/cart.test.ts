import { describe, expect, test } from 'vitest'
import { addToLines, cartLinesOf, cleanLines, removeLine, setLineQuantity, totalQuantity } from './cart.ts'

const collar = { sku: 'COL-CAT-AAAA1111', name: 'Collar Luna', available: 3 }

describe('adding (spec §4, §8)', () => {
  test('adds one unit with the success message', () => {
    const change = addToLines([], collar)
    expect(change).toEqual({
      ok: true,
      lines: [{ sku: collar.sku, quantity: 1 }],
      message: 'Collar Luna agregado al carrito.',
      tone: 'success',
    })
  })

  test('adds to an existing line', () => {
    const change = addToLines([{ sku: collar.sku, quantity: 2 }], collar)
    expect(change.lines).toEqual([{ sku: collar.sku, quantity: 3 }])
  })

  test('refuses to go above the available units', () => {
    const lines = [{ sku: collar.sku, quantity: 3 }]
    const change = addToLines(lines, collar)
    expect(change).toEqual({
      ok: false,
      lines,
      message: 'No hay suficiente stock para agregar 1 unidad(es).',
      tone: 'error',
    })
  })

  test('an unknown product is refused', () => {
    expect(addToLines([], null)).toMatchObject({
      ok: false,
      message: 'El producto no existe.',
      tone: 'error',
    })
  })
})

describe('setting a quantity', () => {
  const lines = [{ sku: collar.sku, quantity: 1 }]

  test('updates with the spec message', () => {
    expect(setLineQuantity(lines, collar, 3)).toMatchObject({
      ok: true,
      lines: [{ sku: collar.sku, quantity: 3 }],
      message: 'Cantidad de Collar Luna actualizada.',
    })
  })

  test('refuses more than available', () => {
    expect(setLineQuantity(lines, collar, 4)).toMatchObject({
      ok: false,
      lines,
      message: 'No hay suficiente stock para establecer la cantidad a 4.',
    })
  })

  test('allows 0 (blocked later at checkout) and clamps negatives and junk to 0', () => {
    expect(setLineQuantity(lines, collar, 0).lines).toEqual([{ sku: collar.sku, quantity: 0 }])
    expect(setLineQuantity(lines, collar, -2).lines).toEqual([{ sku: collar.sku, quantity: 0 }])
    expect(setLineQuantity(lines, collar, Number.NaN).lines).toEqual([{ sku: collar.sku, quantity: 0 }])
  })
})

test('removing warns with the spec message', () => {
  expect(removeLine([{ sku: collar.sku, quantity: 1 }], collar.sku)).toEqual({
    ok: true,
    lines: [],
    message: 'Eliminado del carrito.',
    tone: 'warning',
  })
})

test('the badge counts units, not lines', () => {
  expect(
    totalQuantity([
      { sku: 'A', quantity: 2 },
      { sku: 'B', quantity: 3 },
    ]),
  ).toBe(5)
})

describe('lines read from the cookie', () => {
  test('keeps valid lines and merges duplicates', () => {
    const header = `other=1; vitrina_carrito=A:1|A:2|${encodeURIComponent('B|x:')}:1; more=2`
    expect(cartLinesOf(header)).toEqual([
      { sku: 'A', quantity: 3 },
      { sku: 'B|x:', quantity: 1 },
    ])
  })

  test('drops anything malformed', () => {
    expect(cartLinesOf(undefined)).toEqual([])
    expect(cartLinesOf('vitrina_carrito=junk')).toEqual([])
    expect(cartLinesOf('vitrina_carrito=A:x|:1|%E0%A4%A:1')).toEqual([])
    expect(
      cleanLines([{ sku: 5, quantity: 1 }, null, { sku: 'C', quantity: 'x' }, { sku: 'D', quantity: -2 }]),
    ).toEqual([{ sku: 'D', quantity: 0 }])
  })
})

describe('a cart that must fit in its cookie', () => {
  test('a 101st product is refused with a clear message, more units of one already in are not', () => {
    const lines = Array.from({ length: 100 }, (_, index) => ({ sku: `SKU-${index}`, quantity: 1 }))
    const refused = addToLines(lines, collar)
    expect(refused).toMatchObject({ ok: false, tone: 'error', lines })
    expect(refused.message).toBe(
      'Tu carrito está lleno. Finaliza este pedido o quita algún producto para agregar otro.',
    )
    expect(addToLines(lines, { sku: 'SKU-3', name: 'Otro', available: 5 }).ok).toBe(true)
  })

  test('long skus fill the cookie before 100 products', () => {
    const lines = Array.from({ length: 60 }, (_, index) => ({
      sku: `${'X'.repeat(60)}${index}`,
      quantity: 1,
    }))
    expect(addToLines(lines, collar).ok).toBe(false)
  })
})
