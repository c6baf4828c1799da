import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { toast } from '#app/components/toast.tsx'
import { serializeCartCookieValue } from '#app/modules/cart/cart-cookie.ts'
import { cart } from '#app/modules/cart/cart-store.ts'
import { CART_MESSAGES, type CartLine } from '#app/modules/cart/cart.ts'
import { shippingFor, type ShippingRules } from '#app/modules/cart/shipping.ts'
import type { ProductCard } from '#app/modules/catalog/catalog.server.ts'
import { cartQuoteKey, type CartQuote } from '#app/modules/checkout/cart-quote.ts'
import { cartApiPath } from '#app/utils/paths.ts'

/**
 * The cart as the server drew the page: its lines, their products' data then, and what the
 * promotions took off it (with the code and shipping the page was drawn with).
 */
export type RenderedCart = { lines: CartLine[]; products: ProductCard[]; quote?: CartQuote | null }

const skusOf = (lines: CartLine[]) =>
  lines
    .map((line) => line.sku)
    .sort()
    .join(',')

/**
 * The cart as the cart and checkout pages show it: each line with its current product, the totals
 * with the shop's shipping rules, and each promotion's row as the server priced exactly these lines,
 * code and shipping (`CartQuote`; the order is priced again when it is placed, the same way).
 *
 * Products: the server's while the cart holds the skus it drew the page with, else loaded with the
 * quote (/api/carrito); products no longer sold are forgotten, but only on an answer for exactly
 * the current skus (another tab may have just added one). A quote for other lines, code or shipping
 * is never shown: while the right one loads, a cart with promotions in play says "Calculando…"
 * (`pending`) instead of a total.
 */
export function usePricedCart(
  lines: CartLine[],
  shipping: ShippingRules,
  rendered?: RenderedCart,
  code: string | null = null,
  given?: CartQuote | null,
) {
  const fetcher = useFetcher<{ products: ProductCard[]; quote: CartQuote | null }>()
  const requested = useRef({ skus: '', key: '' })
  const skus = skusOf(lines)
  const renderedSkus = rendered ? skusOf(rendered.lines) : null
  const fetched = Boolean(fetcher.data) && fetcher.state === 'idle' && requested.current.skus === skus
  const loaded = skus === renderedSkus || fetched
  // While another set of skus loads, the data at hand keeps the lines on screen.
  const known =
    skus === renderedSkus
      ? (rendered?.products ?? [])
      : fetched
        ? (fetcher.data?.products ?? [])
        : [...(rendered?.products ?? []), ...(fetcher.data?.products ?? [])]
  const products = new Map(known.map((product) => [product.sku, product]))
  const priced = lines.flatMap((line) => {
    const product = products.get(line.sku)
    return product ? [{ line, product, unitPrice: product.finalPrice, quantity: line.quantity }] : []
  })
  const subtotal = priced.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0)
  const shippingCost = shippingFor(subtotal, shipping)
  const key = cartQuoteKey(lines, code, shippingCost)
  const quote = [given, rendered?.quote, fetcher.data?.quote].find((candidate) => candidate?.key === key)
  const last = useRef(quote)
  if (quote) last.current = quote

  useEffect(() => {
    if (!skus || (quote && loaded) || requested.current.key === key) return
    requested.current = { skus, key }
    const more = new URLSearchParams({
      lineas: serializeCartCookieValue(lines),
      codigo: code ?? '',
      envio: String(shippingCost),
    })
    fetcher.load(`${cartApiPath(skus)}&${more}`)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load again only for other lines, code or shipping
  }, [key])
  useEffect(() => {
    if (!loaded) return
    const gone = lines.filter((line) => !products.has(line.sku)).map((line) => line.sku)
    if (gone.length) {
      cart.drop(gone)
      toast.error(CART_MESSAGES.productMissing)
    }
  })
  const discounts = quote?.rows ?? []
  const discount = discounts.reduce((sum, row) => sum + row.amount, 0)
  const inPlay = Boolean(code || last.current?.rows.length)
  return {
    priced,
    totals: { subtotal, shipping: shippingCost, discounts, total: subtotal + shippingCost - discount },
    /** The promotions' figures for these lines are on their way: the total is not known yet. */
    pending: Boolean(skus) && !quote && inPlay,
    /** The quote shown, or the last one while the next loads (what became of the code says so). */
    quote: quote ?? last.current ?? null,
    loaded: loaded || !skus,
  }
}
