/** Spec §9 list sizes. */
export const HOME_FIRST_PAGE = 16
export const HOME_NEXT_PAGE = 10
export const BEST_SELLERS = 4
export const CATEGORY_FIRST_PAGE = 20
export const CATEGORY_NEXT_PAGE = 10
/** The search results page pages like a category. */
export const SEARCH_FIRST_PAGE = 20
export const SEARCH_NEXT_PAGE = 10

/** Query string of a category page starting at `offset` (for links and `/api/productos`). */
export function categoryPageQuery(categoryId: string, offset: number) {
  return `categoria=${encodeURIComponent(categoryId)}&desde=${offset}`
}

/** Query string of search results starting at `offset`. */
export function searchPageQuery(query: string, offset: number) {
  return `q=${encodeURIComponent(query)}&desde=${offset}`
}

/** A list offset from the query string: a whole number from 0 to a million, anything else is 0. */
export function pageOffset(value: string | null): number {
  const offset = Math.floor(Number(value))
  return Number.isFinite(offset) ? Math.min(Math.max(0, offset), 1_000_000) : 0
}
