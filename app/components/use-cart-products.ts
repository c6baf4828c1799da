import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { toast } from '#app/components/toast.tsx'
import { cart } from '#app/modules/cart/cart-store.ts'
import { CART_MESSAGES, type CartLine } from '#app/modules/cart/cart.ts'
import { cartTotals, type ShippingRules } from '#app/modules/cart/shipping.ts'
import type { ProductCard } from '#app/modules/catalog/catalog.server.ts'
import { cartApiPath } from '#app/utils/paths.ts'

/** The cart as the server drew the page: its lines and their products' data then. */
export type RenderedCart = { lines: CartLine[]; products: ProductCard[] }

const skusOf = (lines: CartLine[]) =>
  lines
    .map((line) => line.sku)
    .sort()
    .join(',')

/**
 * The current data of the cart's products: the server's, while the cart holds the skus it drew the
 * page with, else loaded; forgets products that are no longer sold. Only an answer for exactly the
 * current skus may drop a line: another tab may have just added one.
 */
export function useCartProducts(lines: CartLine[], rendered?: RenderedCart) {
  const fetcher = useFetcher<{ products: ProductCard[] }>()
  const requested = useRef('')
  const skus = skusOf(lines)
  const renderedSkus = rendered ? skusOf(rendered.lines) : null
  useEffect(() => {
    requested.current = skus
    if (skus && skus !== renderedSkus) fetcher.load(cartApiPath(skus))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload only when the set of skus changes
  }, [skus])
  const fetched = Boolean(fetcher.data) && fetcher.state === 'idle' && requested.current === skus
  const loaded = skus === renderedSkus || fetched
  // While another set of skus loads, the data at hand keeps the lines on screen.
  const known =
    skus === renderedSkus
      ? (rendered?.products ?? [])
      : fetched
        ? (fetcher.data?.products ?? [])
        : [...(rendered?.products ?? []), ...(fetcher.data?.products ?? [])]
  const products = new Map(known.map((product) => [product.sku, product]))
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
export function usePricedCart(lines: CartLine[], shipping: ShippingRules, rendered?: RenderedCart) {
  const { products, loaded } = useCartProducts(lines, rendered)
  const priced = lines.flatMap((line) => {
    const product = products.get(line.sku)
    return product ? [{ line, product, unitPrice: product.finalPrice, quantity: line.quantity }] : []
  })
  const totals = cartTotals(priced, shipping)
  return { priced, totals, loaded }
}
