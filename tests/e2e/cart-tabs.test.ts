import { expect, test } from 'vitest'
import { gotoHydrated, setStoredCart, setupBrowser, storedCart } from './browser.ts'

const browser = setupBrowser()

test('a cart open in another tab does not drop a product just added here', async () => {
  const shop = await browser.page()
  await setStoredCart(shop, [])
  await gotoHydrated(shop, '/')
  const cards = shop.getByTestId('you-may-like').getByTestId('product-card')
  await cards.nth(0).getByRole('button').click()
  await expect.poll(() => shop.getByTestId('cart-count').innerText()).toBe('1')

  const cartTab = await browser.page()
  await gotoHydrated(cartTab, '/carrito')
  await expect.poll(() => cartTab.getByTestId('cart-line').count()).toBe(1)

  await cards.nth(1).getByRole('button').click()
  await expect.poll(() => shop.getByTestId('cart-count').innerText()).toBe('2')
  // The shopper looks at the cart tab again. (A card not hydrated yet adds by a plain form post,
  // which tells no other tab: the cart tab then shows it once it is looked at, as here.)
  await cartTab.bringToFront()
  // The new line shows once its product's data is fetched: slow on a machine running the whole
  // suite, so this waits longer than the default.
  await expect.poll(() => cartTab.getByTestId('cart-line').count(), { timeout: 20_000 }).toBe(2)
  // Both tabs still hold both products once the other tab's data has arrived.
  await cartTab.waitForLoadState('networkidle')
  expect(await storedCart(shop)).toHaveLength(2)
  expect(await cartTab.getByTestId('cart-line').count()).toBe(2)
})
