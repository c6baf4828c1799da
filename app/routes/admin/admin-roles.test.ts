import { beforeAll, describe, expect, test } from 'vitest'
import type { AuthConfig } from '#app/modules/auth/config.server.ts'
import { ROLES, type Role } from '#app/modules/auth/roles.ts'
import { TEAM_MESSAGES } from '#app/modules/auth/team.ts'
import type { Services } from '#app/services.server.ts'
import {
  adminRoutes,
  formPost,
  messageOf,
  routeRunner,
  outcome,
  redirectTarget,
  statusOf,
  type FlatRoute,
  type RouteModule,
} from '#tests/admin-walk.ts'

type Runner = Awaited<ReturnType<typeof routeRunner>>
import { addTeamMember, ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'

/**
 * Walks every admin route with a member of each role and proves the server lets in exactly the
 * roles this table (written by hand, apart from app/modules/auth/roles.ts) allows: for the loader
 * and for the action (a post with the session's token), whatever the menu shows.
 */
const EVERYONE: readonly Role[] = ['owner', 'sales', 'warehouse']
const OWNER: readonly Role[] = ['owner']
const WHO_MAY_OPEN: Record<string, readonly Role[]> = {
  admin: EVERYONE,
  'admin/perfil': EVERYONE,
  'admin/*': EVERYONE,
  'admin/productos': EVERYONE,
  'admin/productos/movimientos/:sku': EVERYONE,
  'admin/productos/movimientos/:sku/csv': EVERYONE,
  'admin/productos/entrada': ['owner', 'warehouse'],
  'admin/productos/salida': ['owner', 'warehouse'],
  'admin/productos/crear': OWNER,
  'admin/productos/editar/:sku': OWNER,
  'admin/productos/guardar': OWNER,
  'admin/pedidos': EVERYONE,
  'admin/pedidos/pagados': EVERYONE,
  'admin/pedidos/pendientes': EVERYONE,
  'admin/pedidos/detalle/:id': EVERYONE,
  'admin/pedidos/guia/:id': EVERYONE,
  'admin/pedidos/guias': EVERYONE,
  'admin/pedidos/guia-transportadora/:id': EVERYONE,
  'admin/pedidos/factura/:id/:kind': ['owner', 'sales'],
  'admin/pedidos/comprobante/:id': ['owner', 'sales'],
  'admin/categorias': OWNER,
  'admin/categorias/crear': OWNER,
  'admin/categorias/editar/:id': OWNER,
  'admin/descuentos': ['owner', 'sales'],
  'admin/descuentos/nueva': ['owner', 'sales'],
  'admin/descuentos/editar/:id': ['owner', 'sales'],
  'admin/canales': OWNER,
  'admin/ventas': ['owner', 'sales'],
  'admin/ventas/csv': ['owner', 'sales'],
  'admin/ventas/pagos': ['owner', 'sales'],
  'admin/ventas/pagos/csv': ['owner', 'sales'],
  'admin/reportes': ['owner', 'sales'],
  'admin/configuraciones': OWNER,
  'admin/mensajes': OWNER,
  'admin/seo': OWNER,
  'admin/usuarios': OWNER,
  'admin/seguridad': EVERYONE,
  'admin/seguridad/csv': OWNER,
  'admin/marketing': ['owner', 'sales'],
  'admin/ayuda': EVERYONE,
}

const BASE = 'http://127.0.0.1:5556'
const t = setupTestDatabase()
let services: Services
let config: AuthConfig
const sessions = {} as Record<Role, Awaited<ReturnType<typeof signedInAs>>>

beforeAll(async () => {
  config = testAuthConfig(BASE)
  services = testServices({ database: t.database, auth: config })
  sessions.owner = await signedInAs(t.db, config, ADMIN_EMAIL)
  for (const role of ['sales', 'warehouse'] as const) {
    const email = `${role}@vitrina.test`
    await addTeamMember(t.db, email, role)
    sessions[role] = await signedInAs(t.db, config, email)
  }
})

const upperCased = (url: string) => url.replace(/^\/admin\/([^/]+)/, (whole) => whole.toUpperCase())
/** The last letter of the section's name as %XX: "/admin/ventas" → "/admin/venta%73". */
const percentEncoded = (url: string) =>
  url.replace(/^(\/admin\/[^/]*?)([a-z])(?=\/|$)/, (_whole, head: string, letter: string) => {
    return `${head}%${letter.charCodeAt(0).toString(16)}`
  })

function args(route: FlatRoute, init: RequestInit = {}) {
  const request = new Request(`${BASE}${route.url}`, init)
  return { request, url: new URL(request.url), params: route.params, context: routeContext(services) }
}

test('the table names every admin route, and only those', () => {
  expect(Object.keys(WHO_MAY_OPEN).sort()).toEqual([...new Set(adminRoutes.map((r) => r.fullPath))].sort())
})

describe.each(adminRoutes)('/$fullPath ($file)', (route) => {
  let mod: RouteModule
  let load: Runner['load']
  let act: Runner['act']
  beforeAll(async () => {
    ;({ mod, load, act } = await routeRunner(route))
  })

  test.each(ROLES)('as %s: the loader and the action let in exactly the roles allowed', async (role) => {
    const allowed = (WHO_MAY_OPEN[route.fullPath] ?? []).includes(role)
    const { cookie, csrfToken } = sessions[role]
    if (mod.loader) {
      const loaded = await outcome(() => load(args(route, { headers: { Cookie: cookie } })))
      expect(redirectTarget(loaded) ?? '', route.url).not.toMatch(/^\/login-admin/)
      if (allowed) {
        expect(loaded).not.toBeInstanceOf(Error)
        expect(await messageOf(loaded)).not.toBe(TEAM_MESSAGES.forbidden)
      } else {
        expect(statusOf(loaded), route.url).toBe(403)
        expect(await messageOf(loaded)).toBe(TEAM_MESSAGES.forbidden)
      }
    }
    if (mod.loader && !allowed) {
      // The same page as its scripts fetch it (React Router's `.data` address), or spelt as the
      // router still matches it (any case, a letter percent-encoded), is refused too.
      for (const url of [`${route.url}.data`, upperCased(route.url), percentEncoded(route.url)]) {
        const fetched = await outcome(() => load(args({ ...route, url }, { headers: { Cookie: cookie } })))
        expect(statusOf(fetched), url).toBe(403)
      }
    }
    if (mod.action) {
      const acted = await outcome(() =>
        act(args(route, formPost(BASE, cookie, new URLSearchParams({ csrf: csrfToken })))),
      )
      if (!allowed) {
        const dataRoute = { ...route, url: `${route.url}.data` }
        const posted = await outcome(() =>
          act(args(dataRoute, formPost(BASE, cookie, new URLSearchParams({ csrf: csrfToken })))),
        )
        expect(statusOf(posted), dataRoute.url).toBe(403)
      }
      expect(redirectTarget(acted) ?? '', route.url).not.toMatch(/^\/login-admin/)
      if (allowed) {
        expect(acted).not.toBeInstanceOf(Error)
        expect(await messageOf(acted)).not.toBe(TEAM_MESSAGES.forbidden)
      } else {
        expect(statusOf(acted), route.url).toBe(403)
        expect(await messageOf(acted)).toBe(TEAM_MESSAGES.forbidden)
      }
    }
  })
})
