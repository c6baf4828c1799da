import { getDb } from '#app/db/client.server.ts'
import { getCartProducts } from '#app/modules/catalog/catalog.server.ts'
import type { Route } from './+types/cart'

/**
 * Current name, price, stock and image of the skus in a shopper's cart. `skus` echoes the question,
 * so the page knows which cart an answer is about.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const asked = new URL(request.url).searchParams.get('skus') ?? ''
  const skus = asked
    .split(',')
    .map((sku) => sku.trim())
    .filter(Boolean)
  return { skus: asked, products: await getCartProducts(getDb(), skus) }
}
