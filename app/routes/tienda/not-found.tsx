import { data } from 'react-router'
import { NotFound, notFoundMeta, StoreErrorBoundary } from '#app/components/not-found.tsx'

export function loader() {
  throw data(null, { status: 404 })
}

export const meta = () => notFoundMeta

export const ErrorBoundary = StoreErrorBoundary

export default NotFound
