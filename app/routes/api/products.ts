import { data } from 'react-router'
import { decodeShuffleCursor } from '#app/modules/catalog/catalog.server.ts'
import { categoryPage, searchPage, shuffledPage } from '#app/modules/catalog/pages.server.ts'
import {
  CATEGORY_NEXT_PAGE,
  HOME_NEXT_PAGE,
  pageOffset,
  SEARCH_NEXT_PAGE,
} from '#app/modules/catalog/paging.ts'
import type { ProductPage } from '#app/modules/catalog/pages.server.ts'
import { withShelfPage } from '#app/modules/promotions/shelf.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/products'

/** Next pages of the home ("Seguro te gusta"), category and search result lists. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const reads = servicesOf(context).reads
  // Cards carry the running automatic promotions' prices and badges.
  return withShelfPage(reads.db, await nextPage(url, reads))
}

async function nextPage(url: URL, reads: ReturnType<typeof servicesOf>['reads']): Promise<ProductPage> {
  const params = url.searchParams
  const offset = pageOffset(params.get('desde'))
  const categoryId = params.get('categoria')
  if (categoryId) return categoryPage(reads, categoryId, offset, CATEGORY_NEXT_PAGE)
  const query = params.get('q')?.trim().slice(0, 100)
  if (query) return searchPage(reads, query, offset, SEARCH_NEXT_PAGE)
  const cursor = decodeShuffleCursor(params.get('cursor'))
  if (!cursor) throw data({ ok: false, message: 'Parámetros de página no válidos.' }, { status: 400 })
  return shuffledPage(reads, cursor, HOME_NEXT_PAGE)
}
