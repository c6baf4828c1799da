import { searchProducts } from '#app/modules/catalog/catalog.server.ts'
import { getServices } from '#app/services.server.ts'
import type { Route } from './+types/search'

export const SEARCH_PANEL_LIMIT = 8

export async function loader({ url }: Route.LoaderArgs) {
  const query = (url.searchParams.get('q') ?? '').trim().slice(0, 100)
  return {
    query,
    items: query ? await searchProducts(getServices().reads, query, SEARCH_PANEL_LIMIT) : [],
  }
}
