import { RouterContextProvider, type MiddlewareFunction } from 'react-router'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { servicesContext } from '#app/services-context.server.ts'
import type { Services } from '#app/services.server.ts'
import { clientAddressContext } from '#app/utils/client-address.ts'

/**
 * A router context as the server builds one for each request (server/app.ts `getLoadContext`):
 * the services registry and the client's address (none: a request made inside the process).
 */
export function routeContext(services: Services, client: string | null = null): RouterContextProvider {
  const context = new RouterContextProvider()
  context.set(servicesContext, services)
  context.set(clientAddressContext, client)
  return context
}

type RouteArgs = {
  request: Request
  context: RouterContextProvider
  params?: Record<string, string>
  url?: URL
}

/**
 * Runs a loader or action the way React Router does for a request: each middleware in turn, the
 * outermost first, then the handler. What a middleware returns or throws instead is the outcome.
 */
export async function throughMiddleware<Result>(
  middleware: readonly MiddlewareFunction<Response>[],
  handler: (args: never) => Result,
  args: RouteArgs,
): Promise<Awaited<Result>> {
  const full = { params: {}, url: new URL(args.request.url), ...args }
  const run = async (index: number): Promise<unknown> =>
    index < middleware.length
      ? middleware[index]!(full as never, (() => run(index + 1)) as never)
      : handler(full as never)
  return (await run(0)) as Awaited<Result>
}

/** An `/admin` loader or action as it runs in the shop: behind the admin layout's middleware. */
export function asAdminRoute<Result>(handler: (args: never) => Result, args: RouteArgs) {
  return throughMiddleware(adminMiddleware, handler, args)
}
