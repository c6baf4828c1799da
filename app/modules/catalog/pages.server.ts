import type { MediaReads } from '#app/modules/media/image-source.ts'
import {
  listCategoryProducts,
  listShuffledProducts,
  searchProducts,
  type ProductCard,
  type ShuffleCursor,
} from './catalog.server.ts'
import { categoryPageQuery, searchPageQuery } from './paging.ts'

/**
 * One page of a product list and the query string of the next one (null at the end). The same
 * string serves `/api/productos` and, as a plain link, shoppers without JavaScript.
 */
export type ProductPage = { items: ProductCard[]; next: string | null }

export async function shuffledPage(
  reads: MediaReads,
  cursor: ShuffleCursor,
  limit: number,
): Promise<ProductPage> {
  const { items, next } = await listShuffledProducts(reads, cursor, limit)
  return { items, next: next ? `cursor=${next}` : null }
}

export async function categoryPage(
  reads: MediaReads,
  categoryId: string,
  offset: number,
  limit: number,
): Promise<ProductPage> {
  const { items, hasMore } = await listCategoryProducts(reads, categoryId, offset, limit)
  return { items, next: hasMore ? categoryPageQuery(categoryId, offset + items.length) : null }
}

export async function searchPage(
  reads: MediaReads,
  query: string,
  offset: number,
  limit: number,
): Promise<ProductPage> {
  if (!query) return { items: [], next: null }
  const found = await searchProducts(reads, query, limit + 1, offset)
  const items = found.slice(0, limit)
  return { items, next: found.length > limit ? searchPageQuery(query, offset + items.length) : null }
}
