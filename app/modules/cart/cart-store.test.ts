import { afterAll, expect, test, vi } from 'vitest'
import { CART_COOKIE } from './cart-cookie.ts'

// The store runs in the browser: a document with the cart cookie, and the tabs' channel (Node has
// BroadcastChannel too, delivering between instances as a browser does between tabs).
const page = { cookie: '', visibilityState: 'visible', addEventListener() {}, removeEventListener() {} }
vi.stubGlobal('document', page)
vi.stubGlobal('window', { addEventListener() {}, removeEventListener() {}, location: { protocol: 'http:' } })
const { cart, subscribeToCart } = await import('./cart-store.ts')
const otherTab = new BroadcastChannel('vitrina-carrito')
afterAll(() => {
  otherTab.close()
  vi.unstubAllGlobals()
})

test('a cart changed in another tab shows here even when its message comes before its cookie', async () => {
  page.cookie = `${CART_COOKIE}=COL-CAT-AAAA1111:1`
  const linesSeen: number[] = []
  const unsubscribe = subscribeToCart(() => linesSeen.push(cart.lines().length))
  await vi.waitFor(() => expect(linesSeen).toEqual([1]))

  otherTab.postMessage('COL-CAT-AAAA1111:1|COL-CAT-BBBB2222:1')
  await new Promise((resolve) => setTimeout(resolve, 150))
  page.cookie = `${CART_COOKIE}=COL-CAT-AAAA1111:1|COL-CAT-BBBB2222:1`
  await vi.waitFor(() => expect(linesSeen.at(-1)).toBe(2))
  unsubscribe()
})
