import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { PHONE, plain, setStoredCart, setupBrowser, storedCart } from './browser.ts'
import { FIXTURES } from './fixtures.ts'

/**
 * Every storefront action with JavaScript off: the forms post to the cart, which applies them with
 * the same rules and texts as the page's scripts and says how it went.
 */
const browser = setupBrowser(PHONE, { javaScriptEnabled: false })
const { discounted, shortName, single } = FIXTURES

const notice = async (page: Page) => plain(await page.getByTestId('cart-notice').textContent())
const line = (page: Page, sku: string) => page.locator(`[data-testid="cart-line"][data-sku="${sku}"]`)
const atPath = (page: Page, pathname: string) => page.waitForURL((url) => url.pathname === pathname)

test('search from the header, then "Agregar" on a result card', async () => {
  const page = await browser.page()
  await setStoredCart(page, [])
  await page.goto('/politica-de-datos')
  await page.getByRole('combobox', { name: 'Buscar productos' }).fill('dije luna')
  await page.getByRole('combobox', { name: 'Buscar productos' }).press('Enter')
  await page.waitForURL((url) => url.pathname === '/buscar' && url.searchParams.get('q') === 'dije luna')
  const card = page.locator(`[data-testid="product-card"][data-sku="${shortName.sku}"]`)
  await card.getByRole('button', { name: `Agregar ${shortName.name} al carrito` }).click()
  await atPath(page, '/carrito')
  expect(await notice(page)).toBe(`${shortName.name} agregado al carrito.`)
  expect(await storedCart(page)).toEqual([{ sku: shortName.sku, quantity: 1 }])
  expect(plain(await line(page, shortName.sku).textContent())).toContain(shortName.name)
  // No script read the cart: the header shows no count rather than a wrong 0.
  expect(await page.getByTestId('cart-count').count()).toBe(0)
  expect(await page.getByTestId('header-cart').getAttribute('aria-label')).toBe('Carrito')
})

test('the product page: "Agregar al carrito", a refusal past the stock, and "COMPRAR AHORA"', async () => {
  const page = await browser.page()
  await setStoredCart(page, [{ sku: shortName.sku, quantity: 2 }])
  await page.goto(`/producto/${single.sku}`)
  await page.getByRole('button', { name: 'Agregar al carrito' }).click()
  await atPath(page, '/carrito')
  expect(await notice(page)).toBe(`${single.name} agregado al carrito.`)

  await page.goto(`/producto/${single.sku}`)
  await page.getByRole('button', { name: 'Agregar al carrito' }).click()
  await atPath(page, '/carrito')
  expect(await notice(page)).toBe('No hay suficiente stock para agregar 1 unidad(es).')
  expect(await page.getByTestId('cart-notice').getAttribute('role')).toBe('alert')
  expect(await storedCart(page)).toEqual([
    { sku: shortName.sku, quantity: 2 },
    { sku: single.sku, quantity: 1 },
  ])
  // Shown once: the notice is gone on the next visit.
  await page.reload()
  expect(await page.getByTestId('cart-notice').count()).toBe(0)

  await page.goto(`/producto/${discounted.sku}`)
  await page.getByRole('button', { name: 'COMPRAR AHORA' }).click()
  await atPath(page, '/finalizar-pedido')
  expect(await storedCart(page)).toEqual([{ sku: discounted.sku, quantity: 1 }])
  expect(plain(await page.getByTestId('checkout-summary').textContent())).toContain(`${discounted.name} × 1`)
})

test('the cart: plus, minus, a typed quantity, the stock limit, and removing after a yes', async () => {
  const page = await browser.page()
  await setStoredCart(page, [
    { sku: shortName.sku, quantity: 1 },
    { sku: discounted.sku, quantity: 1 },
  ])
  await page.goto('/carrito')
  const row = line(page, shortName.sku)
  const quantity = row.getByRole('spinbutton', { name: `Cantidad de ${shortName.name}` })

  await row.getByRole('button', { name: 'Aumentar cantidad' }).click()
  await atPath(page, '/carrito')
  expect(await notice(page)).toBe(`Cantidad de ${shortName.name} actualizada.`)
  expect(await quantity.inputValue()).toBe('2')
  await row.getByRole('button', { name: 'Disminuir cantidad' }).click()
  await expect.poll(() => quantity.inputValue()).toBe('1')

  await quantity.fill('4')
  await quantity.press('Enter')
  await expect.poll(() => quantity.inputValue()).toBe('4')
  await quantity.fill('9')
  await quantity.press('Enter')
  await expect.poll(() => notice(page)).toBe('No hay suficiente stock para establecer la cantidad a 9.')
  expect(await quantity.inputValue()).toBe('4')
  expect(await storedCart(page)).toEqual([
    { sku: shortName.sku, quantity: 4 },
    { sku: discounted.sku, quantity: 1 },
  ])

  // No script can ask in a dialog: the cart asks on the page, and "no" keeps the product.
  await row.getByRole('button', { name: `Eliminar ${shortName.name}` }).click()
  await page.waitForURL((url) => url.searchParams.get('eliminar') === shortName.sku)
  expect(plain(await row.getByRole('alert').textContent())).toBe(
    '¿Está seguro de querer eliminar el producto?',
  )
  await row.getByRole('link', { name: 'No, conservarlo' }).click()
  await page.waitForURL((url) => url.search === '')
  expect(await line(page, shortName.sku).count()).toBe(1)

  await row.getByRole('button', { name: `Eliminar ${shortName.name}` }).click()
  await row.getByRole('button', { name: 'Sí, eliminar' }).click()
  await page.waitForURL((url) => url.search === '')
  expect(await notice(page)).toBe('Eliminado del carrito.')
  expect(await line(page, shortName.sku).count()).toBe(0)
  expect(await storedCart(page)).toEqual([{ sku: discounted.sku, quantity: 1 }])

  await page.getByRole('link', { name: 'Finalizar pedido' }).click()
  await atPath(page, '/finalizar-pedido')
  expect(plain(await page.getByTestId('checkout-summary').textContent())).toContain(`${discounted.name} × 1`)
})

test('a cart form with junk in it comes back to the cart with a clear message, never an error page', async () => {
  const page = await browser.page()
  await setStoredCart(page, [{ sku: shortName.sku, quantity: 1 }])
  await page.goto('/carrito')
  for (const form of [
    { intent: 'add', sku: 'NOE-XIS-TE000000' },
    { intent: 'volar', sku: shortName.sku },
    { intent: 'increase', sku: discounted.sku },
  ]) {
    const response = await page.request.post('/carrito', { form, maxRedirects: 0 })
    expect(response.status()).toBe(302)
    expect(response.headers()['location']).toBe('/carrito')
  }
  await page.reload()
  expect(await notice(page)).toBe('Ese producto ya no está en tu carrito.')
  expect(await storedCart(page)).toEqual([{ sku: shortName.sku, quantity: 1 }])
})
