import { Link } from 'react-router'
import type { ProductCard } from '#app/modules/catalog/catalog.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { productPath } from '#app/utils/paths.ts'
import { ListThumb } from './list-thumb.tsx'

/** The search box's results (spec §4), loaded lazily by search-box.tsx. */
export default function SearchResults({
  results,
  busy,
  onChoose,
}: {
  results: ProductCard[]
  busy: boolean
  onChoose: () => void
}) {
  return (
    <ul
      id="resultados-busqueda"
      data-testid="search-results"
      aria-busy={busy}
      className="absolute top-full right-0 left-0 z-50 mt-1 max-h-96 overflow-auto rounded-2xl border border-brand-100 bg-white p-1 shadow-lg"
    >
      {results.map((product) => (
        <li key={product.sku}>
          <Link
            to={productPath(product)}
            onClick={onChoose}
            className="flex items-center gap-3 rounded-xl p-2 hover:bg-brand-50"
          >
            {product.image ? <ListThumb src={product.image.thumb} /> : null}
            <span className="flex-1 text-sm">{product.name}</span>
            <span className="text-sm font-medium">{formatCOP(product.finalPrice)}</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
