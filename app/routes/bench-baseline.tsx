import { data } from 'react-router'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/bench-baseline'

/**
 * The smallest server-rendered page (no data, no storefront layout): what React Router and React
 * cost on this server alone. `npm run bench` measures every page against it; elsewhere it is a 404.
 */
export function loader({ context }: Route.LoaderArgs) {
  if (servicesOf(context).env.BENCH_BASELINE_PAGE !== '1') throw data(null, { status: 404 })
  return null
}

export default function BenchBaseline() {
  return (
    <main>
      <h1>Vitrina</h1>
    </main>
  )
}
