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

/** What a route answered, with React Router's `data(body, { status })` read as its body and `status`. */
export type Answered<T> = T extends { data: infer D; init: ResponseInit | null } ? D & { status: number } : T

/**
 * Calls `/admin` loaders and actions as a signed-in admin, behind the admin middleware: a GET, or a
 * POST from the shop's own pages of `form` (fields or a FormData) with the session's token.
 */
export function adminCaller(
  base: string,
  current: () => { services: Services; admin: { cookie: string; csrfToken: string } },
) {
  return async function call<T>(
    handler: (args: never) => Promise<T>,
    path: string,
    params: Record<string, string> = {},
    form?: Record<string, string> | FormData,
  ): Promise<Answered<T>> {
    const { services, admin } = current()
    const body = form instanceof FormData || form === undefined ? form : formOf(form)
    body?.set('csrf', admin.csrfToken)
    const request = new Request(`${base}${path}`, {
      method: body ? 'POST' : 'GET',
      body,
      headers: { Cookie: admin.cookie, ...(body ? { Origin: base } : {}) },
    })
    const answer = await asAdminRoute(handler, { request, params, context: routeContext(services) })
    const wrapped = answer as { type?: unknown; data?: object; init?: ResponseInit | null }
    if (wrapped?.type === 'DataWithResponseInit') {
      return { ...wrapped.data, status: wrapped.init?.status ?? 200 } as Answered<T>
    }
    return answer as Answered<T>
  }
}

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return form
}
