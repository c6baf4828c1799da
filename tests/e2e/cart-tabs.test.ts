import { expect, test } from 'vitest'
import { gotoHydrated, setStoredCart, setupBrowser, storedCart } from './browser.ts'

const browser = setupBrowser()

test('a cart open in another tab does not drop a product just added here', async () => {
  const shop = await browser.page()
  await setStoredCart(shop, [])
  await gotoHydrated(shop, '/')
  const section = shop.getByTestId('you-may-like')
  await section.getByTestId('product-card').first().waitFor()
  // Two different products, by SKU: the list may come in another order after any reload.
  const first = await section.getByTestId('product-card').nth(0).getAttribute('data-sku')
  const card = (sku: string) => section.locator(`[data-testid="product-card"][data-sku="${sku}"]`)
  const other = () => section.locator(`[data-testid="product-card"]:not([data-sku="${first}"])`).first()
  const hydrated = () => shop.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await hydrated()
  await card(first!).getByRole('button').click()
  await expect.poll(() => shop.getByTestId('cart-count').innerText()).toBe('1')

  const cartTab = await browser.page()
  await gotoHydrated(cartTab, '/carrito')
  await expect.poll(() => cartTab.getByTestId('cart-line').count()).toBe(1)

  // Added with the page's scripts: the other tab hears of it at once.
  await hydrated()
  await other().getByRole('button').click()
  await expect.poll(() => shop.getByTestId('cart-count').innerText()).toBe('2')
  await expect.poll(() => cartTab.getByTestId('cart-line').count(), { timeout: 20_000 }).toBe(2)
  // Both tabs still hold both products once the other tab's data has arrived.
  await cartTab.waitForLoadState('networkidle')
  expect(await storedCart(shop)).toHaveLength(2)
  expect(await cartTab.getByTestId('cart-line').count()).toBe(2)
})
