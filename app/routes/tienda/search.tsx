import { ProductGrid, Sentinel } from '#app/components/product-grid.tsx'
import { useMoreProducts } from '#app/components/use-more-products.ts'
import { searchPage } from '#app/modules/catalog/pages.server.ts'
import { SEARCH_FIRST_PAGE, pageOffset } from '#app/modules/catalog/paging.ts'
import { seo } from '#app/utils/seo.ts'
import { withShelfPage } from '#app/modules/promotions/shelf.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { refusedRequest } from '#app/utils/answer.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/search'

/** Full results for a search submitted with Enter (or without JavaScript), 20 at a time. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const params = url.searchParams
  const query = (params.get('q') ?? '').trim().slice(0, 100)
  const offset = pageOffset(params.get('desde'))
  const { reads, rateLimits } = servicesOf(context)
  if (query && !(await rateLimits.take('search', clientAddressOf(context))))
    throw refusedRequest(RATE_LIMITS.search.message, 429)
  // Cards carry the running automatic promotions' prices and badges.
  return {
    query,
    page: await withShelfPage(reads.db, await searchPage(reads, query, offset, SEARCH_FIRST_PAGE)),
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => [
  ...seo(matches, {
    title: loaderData?.query ? `Resultados para "${loaderData.query}"` : 'Buscar',
    description: 'Busca collares, aretes, pulseras y más accesorios.',
  }),
  { name: 'robots', content: 'noindex' },
]

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, page } = loaderData
  const more = useMoreProducts(page)
  return (
    <section aria-labelledby="resultados">
      <h1 id="resultados" className="mb-4 text-2xl font-semibold">
        {query ? `Resultados para "${query}"` : 'Buscar'}
      </h1>
      {more.items.length ? (
        <>
          {/* The cards' names are h3 (as under the home page's h2 sections): no level skipped. */}
          <h2 className="sr-only">Productos encontrados</h2>
          <ProductGrid products={more.items} />
        </>
      ) : (
        <p className="py-10 text-center text-gray-600">No hay productos</p>
      )}
      {more.next ? <Sentinel href={`?${more.next}`} onVisible={more.loadMore} busy={more.busy} /> : null}
    </section>
  )
}
