import { beforeAll, describe, expect, test } from 'vitest'
import type { AuthConfig } from '#app/modules/auth/config.server.ts'
import { requireAdminMiddleware } from './middleware.server.ts'
import type { Services } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { testServices } from '#tests/services.ts'
import { routeContext } from '#tests/routes.ts'
import {
  adminRoutes,
  formPost,
  routeRunner,
  outcome,
  redirectTarget,
  statusOf,
  type FlatRoute,
  type RouteModule,
} from '#tests/admin-walk.ts'

type Runner = Awaited<ReturnType<typeof routeRunner>>

/**
 * Walks every route of app/routes.ts under /admin and proves its loader and action, run as React
 * Router runs them (behind the middleware of every route above them), refuse anyone who is not a
 * signed-in, allow-listed admin, and that its action refuses a post without the anti-forgery
 * token. A new admin route placed outside the admin layout's middleware fails here.
 */

const BASE = 'http://127.0.0.1:5555'
const post = (cookie?: string, body?: URLSearchParams) => formPost(BASE, cookie, body)
const t = setupTestDatabase()
let services: Services
let config: AuthConfig
let admin: Awaited<ReturnType<typeof signedInAs>>
/** A session for an address that is not (or no longer) on the allow-list; refusing it deletes it. */
const intruderSession = () => signedInAs(t.db, config, 'intruso@example.com')

beforeAll(async () => {
  config = testAuthConfig(BASE)
  services = testServices({ database: t.database, auth: config })
  admin = await signedInAs(t.db, config, ADMIN_EMAIL)
})

/**
 * Where a refusal sends the visitor to sign in: a redirect's Location, or for a JSON resource route
 * (answered to scripts, e.g. /admin/productos/guardar) the `signIn` of its 401/403 JSON refusal.
 */
async function signInTarget(result: unknown): Promise<string | null> {
  const redirect = redirectTarget(result)
  if (redirect) return redirect
  if (result instanceof Response && (result.status === 401 || result.status === 403)) {
    const body = (await result.clone().json()) as { ok?: unknown; signIn?: unknown }
    if (body.ok === false && typeof body.signIn === 'string') return body.signIn
  }
  return null
}

function args(route: FlatRoute, init: RequestInit = {}) {
  const request = new Request(`${BASE}${route.url}`, init)
  return { request, url: new URL(request.url), params: route.params, context: routeContext(services) }
}

test('the walk finds the admin routes', () => {
  const files = adminRoutes.map((route) => route.file)
  expect(files).toEqual(
    expect.arrayContaining([
      'routes/admin/layout.tsx',
      'routes/admin/dashboard.tsx',
      'routes/admin/profile.tsx',
    ]),
  )
})

test('every admin route sits under the admin layout, whose middleware checks the admin first', async () => {
  for (const route of adminRoutes) {
    expect([...route.ancestors, route.file][0], route.fullPath).toBe('routes/admin/layout.tsx')
  }
  const layout = (await import('./layout.tsx')) as RouteModule
  expect(layout.middleware?.[0]).toBe(requireAdminMiddleware)
})

describe.each(adminRoutes)('/$fullPath ($file)', (route) => {
  let mod: RouteModule
  let load: Runner['load']
  let act: Runner['act']
  beforeAll(async () => {
    ;({ mod, load, act } = await routeRunner(route))
  })

  // Each check runs only for the exports a route has, so none is reported as skipped.
  test('the loader, if any, refuses anonymous and non-allow-listed visitors', async () => {
    if (!mod.loader) return
    const anonymous = await outcome(() => load(args(route)))
    expect(redirectTarget(anonymous)?.startsWith('/login-admin')).toBe(true)
    expect(redirectTarget(anonymous)).not.toContain('aviso=no-autorizado')

    const intruder = await intruderSession()
    const unlisted = await outcome(() => load(args(route, { headers: { Cookie: intruder.cookie } })))
    expect(redirectTarget(unlisted)).toBe('/login-admin?aviso=no-autorizado')

    // …and lets the admin in: no redirect to sign-in, no 403 and no crash, whatever the params are
    // (an unknown /admin address or record may answer 404).
    const allowed = await outcome(() => load(args(route, { headers: { Cookie: admin.cookie } })))
    expect(allowed).not.toBeInstanceOf(Error)
    expect(redirectTarget(allowed) ?? '').not.toMatch(/^\/login-admin/)
    expect(statusOf(allowed)).not.toBe(403)
    if (route.params['*']) expect(statusOf(allowed)).toBe(404)
  })

  test('the action, if any, refuses anonymous and non-allow-listed posts, and posts without the token', async () => {
    if (!mod.action) return
    const anonymous = await outcome(() => act(args(route, post())))
    if (redirectTarget(anonymous)) expect(redirectTarget(anonymous)).toBe('/login-admin')
    else expect(await signInTarget(anonymous)).toBe('/login-admin?aviso=sesion-expirada')

    const intruder = await intruderSession()
    const unlisted = await outcome(() =>
      act(args(route, post(intruder.cookie, new URLSearchParams({ csrf: intruder.csrfToken })))),
    )
    expect(await signInTarget(unlisted)).toBe('/login-admin?aviso=no-autorizado')

    const withoutToken = await outcome(() => act(args(route, post(admin.cookie))))
    expect(statusOf(withoutToken)).toBe(403)
    const wrongToken = await outcome(() =>
      act(args(route, post(admin.cookie, new URLSearchParams({ csrf: intruder.csrfToken })))),
    )
    expect(statusOf(wrongToken)).toBe(403)
  })
})

test('/logout refuses a post without the token and keeps the session', async () => {
  const { action } = await import('./logout.ts')
  const refused = await outcome(() =>
    action({
      request: new Request(`${BASE}/logout`, post(admin.cookie)),
      params: {},
      context: routeContext(services),
    } as never),
  )
  expect(statusOf(refused)).toBe(403)
  const signedOut = await outcome(() =>
    action({
      request: new Request(
        `${BASE}/logout`,
        post(admin.cookie, new URLSearchParams({ csrf: admin.csrfToken })),
      ),
      params: {},
      context: routeContext(services),
    } as never),
  )
  expect(redirectTarget(signedOut)).toBe('/login-admin?aviso=sesion-cerrada')
  admin = await signedInAs(t.db, config, ADMIN_EMAIL)
})

test('/login-admin sends a signed-in admin to /admin and shows messages to everyone else', async () => {
  const { loader } = await import('./login.tsx')
  const call = (url: string, cookie?: string) =>
    outcome(() =>
      loader({
        request: new Request(`${BASE}${url}`, { headers: cookie ? { Cookie: cookie } : {} }),
        params: {},
        context: routeContext(services),
      } as never),
    )
  expect(redirectTarget(await call('/login-admin', admin.cookie))).toBe('/admin')
  expect(redirectTarget(await call('/login-admin?volver=/admin/perfil', admin.cookie))).toBe('/admin/perfil')
  const page = (await call('/login-admin?aviso=no-autorizado&error=cancelado')) as Record<string, unknown>
  expect(page.notice).toBe(
    'No estás autorizado para acceder a esta página. Intenta con un correo valido o ponte en contacto con el administrador.',
  )
  expect(page.error).toMatch(/Cancelaste/)
  const unknown = (await call('/login-admin?aviso=<script>&error=cualquier-cosa')) as Record<string, unknown>
  expect(unknown.notice).toBeNull()
  expect(unknown.error).toBeNull()
})
