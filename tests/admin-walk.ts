import path from 'node:path'
import type { MiddlewareFunction } from 'react-router'
import routes from '#app/routes.ts'
import { throughMiddleware } from './routes.ts'

/**
 * Every route of app/routes.ts under /admin, with a URL to call it at (each `:param` is "prueba",
 * the catch-all "no-existe") and the route files above it, for the tests that walk the back office
 * (admin-routes.test.ts: who is let in; admin-roles.test.ts: what each role may open).
 */

type RouteEntry = { path?: string; file: string; index?: boolean; children?: RouteEntry[] }
export type FlatRoute = {
  fullPath: string
  url: string
  file: string
  params: Record<string, string>
  ancestors: string[]
}

function flatten(entries: RouteEntry[], parent = '', ancestors: string[] = []): FlatRoute[] {
  return entries.flatMap((entry) => {
    const fullPath = [parent, entry.path ?? ''].filter(Boolean).join('/')
    const params: Record<string, string> = {}
    const url =
      '/' +
      fullPath
        .split('/')
        .filter(Boolean)
        .map((segment) => {
          if (segment === '*') return (params['*'] = 'no-existe')
          if (segment.startsWith(':')) return (params[segment.slice(1).replace(/\?$/, '')] = 'prueba')
          return segment
        })
        .join('/')
    return [
      { fullPath, url, file: entry.file, params, ancestors },
      ...flatten(entry.children ?? [], fullPath, [...ancestors, entry.file]),
    ]
  })
}

export const adminRoutes = flatten(routes as RouteEntry[]).filter(
  (route) => route.fullPath === 'admin' || route.fullPath.startsWith('admin/'),
)

export type RouteModule = {
  loader?: (args: never) => unknown
  action?: (args: never) => unknown
  middleware?: MiddlewareFunction<Response>[]
}

export const importRoute = async (file: string) => (await import(path.resolve('app', file))) as RouteModule

/** The route's own middleware after that of every route above it, outermost first. */
export async function middlewareOf(route: FlatRoute, mod: RouteModule) {
  const above = await Promise.all(route.ancestors.map(async (file) => (await importRoute(file)).middleware))
  return [...above, mod.middleware].flatMap((middleware) => middleware ?? [])
}

type RouteArgs = Parameters<typeof throughMiddleware>[2]

/**
 * A route's module, and its loader and action run as React Router runs them: behind the middleware
 * of every route above it, then its own.
 */
export async function routeRunner(route: FlatRoute) {
  const mod = await importRoute(route.file)
  const middleware = await middlewareOf(route, mod)
  return {
    mod,
    load: (args: RouteArgs) => throughMiddleware(middleware, mod.loader!, args),
    act: (args: RouteArgs) => throughMiddleware(middleware, mod.action!, args),
  }
}

/** Runs a loader or action and returns what it threw or returned. */
export async function outcome(run: () => Promise<unknown> | undefined): Promise<unknown> {
  try {
    return await run()
  } catch (thrown) {
    return thrown
  }
}

export function redirectTarget(result: unknown): string | null {
  if (result instanceof Response && result.status >= 300 && result.status < 400) {
    return result.headers.get('Location')
  }
  return null
}

export function statusOf(result: unknown): number | undefined {
  if (result instanceof Response) return result.status
  return (result as { init?: { status?: number } } | null)?.init?.status
}

/** The Spanish message of a refusal: a `data({ message })`, a JSON body, or an action's answer. */
export async function messageOf(result: unknown): Promise<string | undefined> {
  if (result instanceof Response) {
    const body = (await result
      .clone()
      .json()
      .catch(() => null)) as { message?: unknown } | null
    return typeof body?.message === 'string' ? body.message : undefined
  }
  const body = (result as { data?: { message?: unknown } } | null)?.data
  return typeof body?.message === 'string' ? body.message : undefined
}

/** A form post from the shop's own pages (`Origin` is the shop's), with the session's cookie. */
export const formPost = (base: string, cookie?: string, body = new URLSearchParams()) => ({
  method: 'POST',
  body,
  headers: {
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: base,
    ...(cookie ? { Cookie: cookie } : {}),
  },
})
