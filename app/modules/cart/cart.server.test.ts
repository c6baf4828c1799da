import { beforeAll, describe, expect, test } from 'vitest'
import { createProduct } from '#tests/factories.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { cartOfRequest, changeCartByForm } from './cart.server.ts'

const t = setupTestDatabase()

const formOf = (fields: Record<string, string>) => {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return form
}

describe('a cart form that reached the server (sent before the scripts ran, or without them)', () => {
  let sku: string
  let name: string
  let other: string
  beforeAll(async () => {
    ;({ sku, name } = await createProduct(t.db, { stock: 3, name: 'Collar Servidor' }))
    other = (await createProduct(t.db, { stock: 5 })).sku
  })
  const change = (lines: { sku: string; quantity: number }[], fields: Record<string, string>) =>
    changeCartByForm(t.reads, lines, formOf(fields))

  test('"Agregar" adds one unit and comes back to the cart saying so', async () => {
    expect(await change([{ sku: other, quantity: 1 }], { intent: 'add', sku })).toEqual({
      lines: [
        { sku: other, quantity: 1 },
        { sku, quantity: 1 },
      ],
      notice: { message: `${name} agregado al carrito.`, tone: 'success' },
      redirectTo: '/carrito',
    })
  })

  test('past the stock, nothing changes and the cart says why', async () => {
    const lines = [{ sku, quantity: 3 }]
    expect(await change(lines, { intent: 'add', sku })).toEqual({
      lines,
      notice: { message: 'No hay suficiente stock para agregar 1 unidad(es).', tone: 'error' },
      redirectTo: '/carrito',
    })
    expect((await change(lines, { intent: 'increase', sku })).notice?.message).toBe(
      'No hay suficiente stock para establecer la cantidad a 4.',
    )
  })

  test('"COMPRAR AHORA" leaves one unit of this product alone in the cart and opens the checkout', async () => {
    expect(await change([{ sku: other, quantity: 2 }], { intent: 'buy-now', sku })).toEqual({
      lines: [{ sku, quantity: 1 }],
      notice: null,
      redirectTo: '/finalizar-pedido',
    })
  })

  test('plus, minus (never below 0) and a typed quantity', async () => {
    const lines = [{ sku, quantity: 1 }]
    expect((await change(lines, { intent: 'increase', sku })).lines).toEqual([{ sku, quantity: 2 }])
    expect((await change(lines, { intent: 'decrease', sku })).lines).toEqual([{ sku, quantity: 0 }])
    const zero = await change([{ sku, quantity: 0 }], { intent: 'decrease', sku })
    expect(zero).toEqual({ lines: [{ sku, quantity: 0 }], notice: null, redirectTo: '/carrito' })
    const typed = await change(lines, { intent: 'set', sku, quantity: '3' })
    expect(typed.lines).toEqual([{ sku, quantity: 3 }])
    expect(typed.notice).toEqual({ message: `Cantidad de ${name} actualizada.`, tone: 'success' })
  })

  test('removing asks first (a page of its own), then removes', async () => {
    const lines = [{ sku, quantity: 1 }]
    expect(await change(lines, { intent: 'ask-remove', sku })).toEqual({
      lines,
      notice: null,
      redirectTo: `/carrito?eliminar=${sku}`,
    })
    expect(await change(lines, { intent: 'remove', sku })).toEqual({
      lines: [],
      notice: { message: 'Eliminado del carrito.', tone: 'warning' },
      redirectTo: '/carrito',
    })
  })

  test('junk is answered with a clear message and changes nothing', async () => {
    const lines = [{ sku, quantity: 1 }]
    for (const fields of [
      {} as Record<string, string>,
      { intent: 'volar', sku },
      { intent: 'add' },
      { intent: 'add', sku: 'NO-EXISTE' },
      { intent: 'add', sku: 'a\u0000b' },
    ]) {
      const outcome = await change(lines, fields)
      expect(outcome.lines).toEqual(lines)
      expect(outcome.notice).toEqual({ message: 'El producto no existe.', tone: 'error' })
      expect(outcome.redirectTo).toBe('/carrito')
    }
    expect((await change(lines, { intent: 'increase', sku: other })).notice?.message).toBe(
      'Ese producto ya no está en tu carrito.',
    )
    // A typed quantity that is no number keeps the line as it was.
    expect((await change(lines, { intent: 'set', sku, quantity: 'muchos' })).lines).toEqual(lines)
  })

  test('the cart and checkout pages read the cart and its products from the cookie', async () => {
    const { lines, products } = await cartOfRequest(t.reads, `vitrina_carrito=${encodeURIComponent(sku)}:2`)
    expect(lines).toEqual([{ sku, quantity: 2 }])
    expect(products.map((product) => product.sku)).toEqual([sku])
    expect(await cartOfRequest(t.reads, null)).toEqual({ lines: [], products: [] })
  })
})
