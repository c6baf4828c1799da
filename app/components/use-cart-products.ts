import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { toast } from '#app/components/toast.tsx'
import { cart } from '#app/modules/cart/cart-store.ts'
import { CART_MESSAGES, type CartLine } from '#app/modules/cart/cart.ts'
import { cartTotals, type ShippingRules } from '#app/modules/cart/shipping.ts'
import type { ProductCard } from '#app/modules/catalog/catalog.server.ts'
import { cartApiPath } from '#app/utils/paths.ts'

/**
 * Loads the current data of the cart's products; forgets products that are no longer sold. Only an
 * answer for exactly the current skus may drop a line: another tab may have just added one.
 */
export function useCartProducts(lines: CartLine[]) {
  const fetcher = useFetcher<{ products: ProductCard[] }>()
  const requested = useRef('')
  const skus = lines
    .map((line) => line.sku)
    .sort()
    .join(',')
  useEffect(() => {
    requested.current = skus
    if (skus) fetcher.load(cartApiPath(skus))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload only when the set of skus changes
  }, [skus])
  const products = new Map((fetcher.data?.products ?? []).map((product) => [product.sku, product]))
  const loaded = Boolean(fetcher.data) && fetcher.state === 'idle' && requested.current === skus
  useEffect(() => {
    if (!loaded) return
    const gone = lines.filter((line) => !products.has(line.sku)).map((line) => line.sku)
    if (gone.length) {
      cart.drop(gone)
      toast.error(CART_MESSAGES.productMissing)
    }
  })
  return { products, loaded: loaded || !skus }
}

/**
 * The cart as the cart and checkout pages show it: each line with its current product, and the
 * totals with the shop's shipping rules (the server prices the order again when it is placed).
 */
export function usePricedCart(lines: CartLine[], shipping: ShippingRules) {
  const { products, loaded } = useCartProducts(lines)
  const priced = lines.flatMap((line) => {
    const product = products.get(line.sku)
    return product ? [{ line, product, unitPrice: product.finalPrice, quantity: line.quantity }] : []
  })
  const totals = cartTotals(priced, shipping)
  return { priced, totals, loaded }
}
