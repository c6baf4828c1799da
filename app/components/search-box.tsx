import { Search } from '#app/components/icons.tsx'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Form, useFetcher } from 'react-router'
import type { ProductCard } from '#app/modules/catalog/catalog.server.ts'
import { SEARCH_PATH, searchApiPath } from '#app/utils/paths.ts'
import type { TrackedElement } from '#app/modules/analytics/track-names.ts'

// The results panel loads when the box is first used (its focus starts the download), not with
// the page: most visits never search.
const loadResults = () => import('./search-results.tsx')
const SearchResults = lazy(loadResults)

/**
 * Spec §4: results show while the box has text and matches; a mousedown outside hides them. While
 * the answer for new text is on its way the previous results stay, so the panel does not blink on
 * every keystroke.
 */
export function SearchBox() {
  const fetcher = useFetcher<{ query: string; items: ProductCard[] }>()
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const wrapper = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const text = query.trim()
    if (!text) return
    const timer = setTimeout(() => fetcher.load(searchApiPath(text)), 120)
    return () => clearTimeout(timer)
    // fetcher.load is stable enough for this purpose; re-running on it would refetch in a loop
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query])

  useEffect(() => {
    const onMouseDown = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', onMouseDown)
    return () => document.removeEventListener('mousedown', onMouseDown)
  }, [])

  const text = query.trim()
  const fresh = text && fetcher.data?.query === text ? fetcher.data.items : null
  // The results last answered for the text in the box; emptied when the box is cleared, so old
  // matches never flash when typing starts again.
  const [shown, setShown] = useState<ProductCard[]>([])
  if (!text && shown.length) setShown([])
  else if (fresh && fresh !== shown) setShown(fresh)
  const results = text ? (fresh ?? shown) : []
  const showResults = open && results.length > 0
  const close = () => {
    setOpen(false)
    setQuery('')
  }

  return (
    <div ref={wrapper} className="relative w-full">
      <Form method="get" action={SEARCH_PATH} role="search" onSubmit={() => setOpen(false)}>
        <label htmlFor="buscar" className="sr-only">
          Buscar productos
        </label>
        <input
          id="buscar"
          name="q"
          type="search"
          data-track={'buscar' satisfies TrackedElement}
          autoComplete="off"
          placeholder="Collares..."
          value={query}
          onChange={(event) => {
            setQuery(event.target.value)
            setOpen(true)
          }}
          onFocus={() => {
            setOpen(true)
            void loadResults()
          }}
          // A combobox, not a plain searchbox: only that role may say whether its list is open.
          role="combobox"
          aria-autocomplete="list"
          aria-controls={showResults ? 'resultados-busqueda' : undefined}
          aria-expanded={showResults}
          className="w-full rounded-full border border-brand-100 bg-brand-50 py-2 pr-10 pl-4 text-sm outline-none focus:border-brand-500 focus:bg-white"
        />
        <button
          type="submit"
          // 32 px: a finger's target (WCAG 2.5.8), inside the input's right padding.
          className="absolute top-1/2 right-1 flex size-8 -translate-y-1/2 items-center justify-center rounded-full text-brand-600"
          aria-label="Buscar"
        >
          <Search className="size-4" aria-hidden="true" />
        </button>
      </Form>
      {showResults ? (
        <Suspense fallback={null}>
          <SearchResults results={results} busy={fresh === null} onChoose={close} />
        </Suspense>
      ) : null}
    </div>
  )
}
