import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import {
  backgroundHue,
  cop,
  DESKTOP,
  gotoHydrated,
  plain,
  startWithCart,
  setupBrowser,
  storedCart,
  toastWith,
  WIDTHS,
} from './browser.ts'
import { FIXTURES, STORE } from './fixtures.ts'

const browser = setupBrowser()
const { discounted, single } = FIXTURES

/** Opens the cart page holding exactly these lines, once their product data has loaded. */
async function openCart(page: Page, lines: { sku: string; quantity: number }[]) {
  await startWithCart(page, lines)
  await gotoHydrated(page, '/carrito')
  if (lines.length) await expect.poll(() => page.getByTestId('cart-line').count()).toBe(lines.length)
}

const summary = async (page: Page) => ({
  subtotal: plain(await page.getByTestId('cart-subtotal').textContent()),
  shipping: plain(await page.getByTestId('cart-shipping').textContent()),
  total: plain(await page.getByTestId('cart-total').textContent()),
})

const expectToast = (page: Page, message: string) =>
  expect.poll(() => toastWith(page, message).count(), { timeout: 5000 }).toBeGreaterThan(0)

describe.each(WIDTHS)('cart on a $name', ({ viewport }) => {
  test('quantity editor, stock limits, subtotal, shipping and total', async () => {
    const page = await browser.page(viewport)
    await openCart(page, [{ sku: discounted.sku, quantity: 1 }])
    const line = page.locator(`[data-testid="cart-line"][data-sku="${discounted.sku}"]`)
    expect(plain(await line.textContent())).toContain(discounted.name)
    const input = line.getByRole('spinbutton', { name: `Cantidad de ${discounted.name}` })
    expect(await input.getAttribute('min')).toBe('0')
    expect(await input.inputValue()).toBe('1')
    // 64.000 is not above 100.000: the configured shipping applies.
    expect(await summary(page)).toEqual({
      subtotal: cop(64000),
      shipping: cop(STORE.shippingCost),
      total: cop(64000 + STORE.shippingCost),
    })

    await line.getByRole('button', { name: 'Aumentar cantidad' }).click()
    await expectToast(page, `Cantidad de ${discounted.name} actualizada.`)
    await expect.poll(() => input.inputValue()).toBe('2')
    // 128.000 exceeds 100.000: free shipping.
    await expect
      .poll(() => summary(page))
      .toEqual({
        subtotal: cop(128000),
        shipping: 'Gratis',
        total: cop(128000),
      })
    expect(await page.getByTestId('cart-count').textContent()).toBe('2')

    await input.fill('5')
    await input.press('Enter')
    await expectToast(page, 'No hay suficiente stock para establecer la cantidad a 5.')
    await expect.poll(() => input.inputValue()).toBe('2')
    expect(await storedCart(page)).toEqual([{ sku: discounted.sku, quantity: 2 }])

    await input.fill('3')
    await input.press('Enter')
    await expect.poll(() => storedCart(page)).toEqual([{ sku: discounted.sku, quantity: 3 }])
    await line.getByRole('button', { name: 'Aumentar cantidad' }).click()
    await expectToast(page, 'No hay suficiente stock para establecer la cantidad a 4.')
    expect(await input.inputValue()).toBe('3')

    await line.getByRole('button', { name: 'Disminuir cantidad' }).click()
    await expect.poll(() => input.inputValue()).toBe('2')
    await expect.poll(() => storedCart(page)).toEqual([{ sku: discounted.sku, quantity: 2 }])
    await page.close()
  })

  test('a line at 0 blocks "Finalizar pedido"', async () => {
    const page = await browser.page(viewport)
    await openCart(page, [
      { sku: discounted.sku, quantity: 1 },
      { sku: FIXTURES.shortName.sku, quantity: 1 },
    ])
    const line = page.locator(`[data-testid="cart-line"][data-sku="${FIXTURES.shortName.sku}"]`)
    await line.getByRole('button', { name: 'Disminuir cantidad' }).click()
    await expect.poll(() => line.getByRole('spinbutton').inputValue()).toBe('0')
    await page.getByRole('link', { name: 'Finalizar pedido' }).click()
    await expectToast(page, 'Hay productos con cantidad igual a 0. Por favor, revisa tu carrito.')
    expect(new URL(page.url()).pathname).toBe('/carrito')
    await page.close()
  })

  test('removing asks first, then says "Eliminado del carrito."', async () => {
    const page = await browser.page(viewport)
    await openCart(page, [
      { sku: discounted.sku, quantity: 1 },
      { sku: FIXTURES.shortName.sku, quantity: 2 },
    ])
    const remove = page.getByRole('button', { name: `Eliminar ${discounted.name}` })
    const messages: string[] = []
    page.once('dialog', (dialog) => {
      messages.push(dialog.message())
      void dialog.dismiss()
    })
    await remove.click()
    await expect.poll(() => messages).toEqual(['¿Está seguro de querer eliminar el producto?'])
    expect(await page.getByTestId('cart-line').count()).toBe(2)

    page.once('dialog', (dialog) => {
      messages.push(dialog.message())
      void dialog.accept()
    })
    await remove.click()
    await expectToast(page, 'Eliminado del carrito.')
    expect(messages).toHaveLength(2)
    await expect.poll(() => page.getByTestId('cart-line').count()).toBe(1)
    expect(await storedCart(page)).toEqual([{ sku: FIXTURES.shortName.sku, quantity: 2 }])
    expect(await page.getByTestId('cart-count').textContent()).toBe('2')
    await page.close()
  })

  test('a product no longer sold leaves the cart with "El producto no existe."', async () => {
    const page = await browser.page(viewport)
    await startWithCart(page, [
      { sku: 'NOE-XIS-TE000000', quantity: 1 },
      { sku: FIXTURES.hidden.sku, quantity: 1 },
      { sku: discounted.sku, quantity: 1 },
    ])
    await gotoHydrated(page, '/carrito')
    await expectToast(page, 'El producto no existe.')
    await expect.poll(() => storedCart(page)).toEqual([{ sku: discounted.sku, quantity: 1 }])
    expect(await page.getByTestId('cart-line').count()).toBe(1)
    await page.close()
  })

  test('adding beyond the stock is refused', async () => {
    const page = await browser.page(viewport)
    await startWithCart(page, [])
    await gotoHydrated(page, `/producto/${single.sku}`)
    const add = page.getByRole('button', { name: 'Agregar al carrito' })
    await add.click()
    await expectToast(page, `${single.name} agregado al carrito.`)
    await add.click()
    await expectToast(page, 'No hay suficiente stock para agregar 1 unidad(es).')
    expect(await storedCart(page)).toEqual([{ sku: single.sku, quantity: 1 }])
    await page.close()
  })
})

test('toasts are green, red or amber and vanish after about 3 seconds', async () => {
  const page = await browser.page(DESKTOP)
  await openCart(page, [{ sku: discounted.sku, quantity: 1 }])
  const line = page.getByTestId('cart-line')

  const success = toastWith(page, `Cantidad de ${discounted.name} actualizada.`)
  await line.getByRole('button', { name: 'Aumentar cantidad' }).click()
  await success.waitFor({ state: 'visible' })
  const shownAt = Date.now()
  const green = await backgroundHue(page, success)
  expect(green.hue, green.color).toBeGreaterThan(110)
  expect(green.hue, green.color).toBeLessThan(170)

  const error = toastWith(page, 'No hay suficiente stock para establecer la cantidad a 9.')
  await line.getByRole('spinbutton').fill('9')
  await line.getByRole('spinbutton').press('Enter')
  await error.waitFor({ state: 'visible' })
  const red = await backgroundHue(page, error)
  expect(red.hue >= 0 && (red.hue < 40 || red.hue > 340), red.color).toBe(true)

  const warning = toastWith(page, 'Eliminado del carrito.')
  page.once('dialog', (dialog) => void dialog.accept())
  await page.getByRole('button', { name: `Eliminar ${discounted.name}` }).click()
  await warning.waitFor({ state: 'visible' })
  const amber = await backgroundHue(page, warning)
  expect(amber.hue, amber.color).toBeGreaterThan(45)
  expect(amber.hue, amber.color).toBeLessThan(100)

  await success.waitFor({ state: 'detached', timeout: 6000 })
  const lasted = Date.now() - shownAt
  expect(lasted).toBeGreaterThan(2500)
  expect(lasted).toBeLessThan(4500)
  await page.close()
})
