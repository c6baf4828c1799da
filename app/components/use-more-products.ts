import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import type { ProductPage } from '#app/modules/catalog/pages.server.ts'
import { PRODUCTS_API_PATH } from '#app/utils/paths.ts'

/**
 * Appends further pages from `/api/productos`. `next` is the query string of the following page,
 * so the same value also works as a plain link for shoppers without JavaScript.
 */
export function useMoreProducts(first: ProductPage) {
  const fetcher = useFetcher<ProductPage>()
  // The loader data object can be replaced by an equal one after hydration, so reset only when the
  // first page itself changes (another category); resetting on identity could drop appended pages.
  const key = `${first.items.map((item) => item.sku).join(',')}|${first.next}`
  const [page, setPage] = useState({ key, ...first })
  if (page.key !== key) setPage({ key, ...first })
  useEffect(() => {
    const data = fetcher.data
    if (!data) return
    setPage((current) => {
      const known = new Set(current.items.map((item) => item.sku))
      return {
        key: current.key,
        items: [...current.items, ...data.items.filter((item) => !known.has(item.sku))],
        next: data.next,
      }
    })
  }, [fetcher.data])
  const busy = fetcher.state !== 'idle'
  // The sentinel's observer can call a loadMore from a render before `busy` turned true; a second
  // load of the same page would replace the first while the list stays the same, and the sentinel,
  // already in view, would never fire again. Refs see the request as soon as it starts.
  const requested = useRef<string | null>(null)
  useEffect(() => {
    if (fetcher.state === 'idle') requested.current = null
  }, [fetcher.state, fetcher.data])
  return {
    items: page.items,
    next: page.next,
    busy,
    loadMore() {
      if (!page.next || busy || requested.current !== null) return
      requested.current = page.next
      fetcher.load(`${PRODUCTS_API_PATH}?${page.next}`)
    },
  }
}
