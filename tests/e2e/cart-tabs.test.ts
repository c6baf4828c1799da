import { expect, test } from 'vitest'
import { gotoHydrated, homeSkusInStock, setStoredCart, setupBrowser, storedCart } from './browser.ts'

const browser = setupBrowser()

test('a cart open in another tab does not drop a product just added here', async () => {
  const shop = await browser.page()
  await setStoredCart(shop, [])
  // Two products in stock, by SKU (other files buy from the same shop, and the home list is
  // shuffled whenever its loader runs): each added from its own page once the scripts run.
  const [first, second] = await homeSkusInStock(shop, 5)
  const addFromItsPage = async (sku: string) => {
    await gotoHydrated(shop, `/producto/${sku}`)
    await shop.getByRole('button', { name: 'Agregar al carrito' }).click()
  }
  await addFromItsPage(first!)
  await expect.poll(() => shop.getByTestId('cart-count').innerText()).toBe('1')

  const cartTab = await browser.page()
  await gotoHydrated(cartTab, '/carrito')
  await expect.poll(() => cartTab.getByTestId('cart-line').count()).toBe(1)

  await addFromItsPage(second!)
  await expect.poll(() => shop.getByTestId('cart-count').innerText()).toBe('2')
  await expect.poll(() => cartTab.getByTestId('cart-line').count(), { timeout: 20_000 }).toBe(2)
  // Both tabs still hold both products once the other tab's data has arrived.
  await cartTab.waitForLoadState('networkidle')
  expect(await storedCart(shop)).toHaveLength(2)
  expect(await cartTab.getByTestId('cart-line').count()).toBe(2)
})
