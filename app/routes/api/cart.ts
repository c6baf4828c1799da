import { parseCartCookieValue } from '#app/modules/cart/cart-cookie.ts'
import { cleanLines } from '#app/modules/cart/cart.ts'
import { getCartProducts } from '#app/modules/catalog/catalog.server.ts'
import { cartQuoteOf, quoteCart } from '#app/modules/checkout/cart-quote.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/cart'

/**
 * Current name, price, stock and image of the skus in a shopper's cart; with `lineas` (the cart's
 * lines in its cookie's words), `codigo` and `envio` (the shipping the page shows, centavos), also
 * what the promotions take off that cart (`quote`, for exactly those lines, code and shipping).
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const params = url.searchParams
  const { reads } = servicesOf(context)
  const lines = params.has('lineas') ? cleanLines(parseCartCookieValue(params.get('lineas') ?? '')) : null
  const skus = lines
    ? lines.map((line) => line.sku)
    : (params.get('skus') ?? '')
        .split(',')
        .map((sku) => sku.trim())
        .filter(Boolean)
  const products = await getCartProducts(reads, skus)
  if (!lines) return { products, quote: null }
  const shipping = Math.max(0, Math.trunc(Number(params.get('envio')) || 0))
  const quote = await quoteCart(reads.db, { lines, code: params.get('codigo'), shipping })
  return { products, quote: cartQuoteOf(quote) }
}
