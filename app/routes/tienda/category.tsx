import { data } from 'react-router'
import { cardImagePreloads, FIRST_ROW_CARDS, ProductGrid, Sentinel } from '#app/components/product-grid.tsx'
import { useMoreProducts } from '#app/components/use-more-products.ts'
import { getCategory } from '#app/modules/catalog/catalog.server.ts'
import { categoryPage } from '#app/modules/catalog/pages.server.ts'
import { CATEGORY_FIRST_PAGE, pageOffset } from '#app/modules/catalog/paging.ts'
import { errorMeta } from '#app/components/not-found.tsx'
import { seo } from '#app/utils/seo.ts'
import { categoryDescription } from '#app/utils/seo-defaults.ts'
import { redirectToCanonical } from '#app/utils/canonical.server.ts'
import { breadcrumbJsonLd, jsonLdText } from '#app/modules/catalog/structured-data.ts'
import { slugOf } from '#app/utils/slug.ts'
import { withShelfPage } from '#app/modules/promotions/shelf.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/category'

export { StoreErrorBoundary as ErrorBoundary } from '#app/components/not-found.tsx'
import { categoryPath } from '#app/utils/paths.ts'

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const reads = servicesOf(context).reads
  const category = await getCategory(reads.db, params.id)
  if (!category) throw data(null, { status: 404 })
  const slug = slugOf(category)
  // The id is the key: a missing or old slug (the name it had) is a 301 to the canonical URL.
  redirectToCanonical(params.slug, slug, categoryPath({ id: category.id, slug }), url)
  const offset = pageOffset(url.searchParams.get('desde'))
  const { env } = servicesOf(context)
  const shop = { storeName: env.STORE_NAME, origin: env.publicUrl }
  return {
    category: {
      id: category.id,
      name: category.name,
      slug,
      seoTitle: category.seoTitle,
      // "SEO": the description the owner wrote, else the default (worded here, not in the scripts).
      description: category.seoDescription ?? categoryDescription(category.name),
    },
    breadcrumb: jsonLdText(
      breadcrumbJsonLd([{ name: category.name, path: categoryPath({ id: category.id, slug }) }], shop),
    ),
    // Cards carry the running automatic promotions' prices and badges.
    page: await withShelfPage(reads.db, await categoryPage(reads, category.id, offset, CATEGORY_FIRST_PAGE)),
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData, error, matches }) =>
  loaderData && !error
    ? seo(matches, {
        title: loaderData.category.seoTitle ?? loaderData.category.name,
        fullTitle: loaderData.category.seoTitle,
        description: loaderData.category.description,
        path: categoryPath(loaderData.category),
        image: loaderData.page.items[0]?.image?.src,
        extra: cardImagePreloads(loaderData.page.items, FIRST_ROW_CARDS),
      })
    : errorMeta(error)

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, page, breadcrumb } = loaderData
  const more = useMoreProducts(page)
  return (
    <section aria-labelledby="categoria">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: breadcrumb }} />
      <h1 id="categoria" className="mb-4 text-2xl font-semibold">
        {category.name}
      </h1>
      {more.items.length ? (
        <>
          {/* The cards' names are h3 (as under the home page's h2 sections): no level skipped. */}
          <h2 className="sr-only">Productos de {category.name}</h2>
          <ProductGrid products={more.items} images="first-row-first" />
        </>
      ) : (
        <p className="py-10 text-center text-gray-600">No hay productos</p>
      )}
      {more.next ? <Sentinel href={`?${more.next}`} onVisible={more.loadMore} busy={more.busy} /> : null}
    </section>
  )
}
