import { getCartProducts } from '#app/modules/catalog/catalog.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/cart'

/** Current name, price, stock and image of the skus in a shopper's cart. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const skus = (url.searchParams.get('skus') ?? '')
    .split(',')
    .map((sku) => sku.trim())
    .filter(Boolean)
  return { products: await getCartProducts(servicesOf(context).reads, skus) }
}
