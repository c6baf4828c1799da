import { data } from 'react-router'
import { searchProducts } from '#app/modules/catalog/catalog.server.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { withShelfPrices } from '#app/modules/promotions/shelf.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/search'

export const SEARCH_PANEL_LIMIT = 8

/**
 * The search box's suggestions. Past the client's search allowance: no suggestions and the
 * limit's message, 429 (returned, not thrown, so the page under the box stays as it is).
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const query = (url.searchParams.get('q') ?? '').trim().slice(0, 100)
  if (!query) return { query, items: [] }
  const { reads, rateLimits } = servicesOf(context)
  if (!(await rateLimits.take('search', clientAddressOf(context)))) {
    return data({ query, items: [], message: RATE_LIMITS.search.message }, { status: 429 })
  }
  return {
    query,
    items: await withShelfPrices(reads.db, await searchProducts(reads, query, SEARCH_PANEL_LIMIT)),
  }
}
