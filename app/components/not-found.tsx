import { isRouteErrorResponse, Link, useRouteError, type MetaDescriptor } from 'react-router'

/** Title and description of the not-found screen, for every route that can answer 404. */
export const notFoundMeta: MetaDescriptor[] = [
  { title: 'Página no encontrada' },
  { name: 'description', content: 'Esta página no existe.' },
  { name: 'robots', content: 'noindex' },
]

/** The title of a page that shows an error instead of its content. */
export function errorTitle(error: unknown): string {
  return isRouteErrorResponse(error) && error.status === 404 ? 'Página no encontrada' : 'Algo salió mal'
}

/** The head of a storefront page whose loader failed: not found, or something that went wrong. */
export function errorMeta(error: unknown): MetaDescriptor[] {
  return isRouteErrorResponse(error) && error.status === 404
    ? notFoundMeta
    : [{ title: errorTitle(error) }, { name: 'robots', content: 'noindex' }]
}

export function NotFound() {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-4 text-center">
      <h1 className="text-2xl font-semibold">Esta página no existe.</h1>
      <Link to="/" className="rounded-full bg-brand-600 px-5 py-2 font-medium text-white">
        Ir a Inicio
      </Link>
    </div>
  )
}

/**
 * A storefront page whose loader answered 404 (unknown product, hidden product, unknown category)
 * shows the not-found screen inside the store layout, so the shopper keeps header and search.
 */
export function StoreErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-4 text-center">
      <h1 className="text-2xl font-semibold">Algo salió mal. Intenta de nuevo en un momento.</h1>
      <Link to="/" className="rounded-full bg-brand-600 px-5 py-2 font-medium text-white">
        Ir a Inicio
      </Link>
    </div>
  )
}
