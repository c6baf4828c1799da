import { createElement, type ComponentType, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll } from 'vitest'
import type { Services } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from './auth.ts'
import type { setupTestDatabase } from './db.ts'
import { memoryStorage } from './media.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { adminCaller, asAdminRoute, routeContext } from './routes.ts'
import { testServices } from './services.ts'

export type AdminPageModule = {
  loader: (args: never) => Promise<unknown>
  default: (props: never) => ReactNode
}

/**
 * An admin route test's set-up: the services over the test database (media in memory) and the
 * allowed admin signed in before the tests; `call` runs a loader or action as that admin, and
 * `renderPage` gives one admin page's HTML (its loader against the test database, then its
 * component with that data).
 */
export function signedInAdminRoutes(
  base: string,
  t: ReturnType<typeof setupTestDatabase>,
  storage: MediaStorage = memoryStorage(),
) {
  const current = {} as { services: Services; admin: Awaited<ReturnType<typeof signedInAs>> }
  beforeAll(async () => {
    const config = testAuthConfig(base)
    current.services = testServices({
      database: t.database,
      auth: config,
      media: { kind: 'local', storage, publicBase: '/media/' },
    })
    current.admin = await signedInAs(t.db, config, ADMIN_EMAIL)
  })
  async function renderPage(page: AdminPageModule, path: string, params: Record<string, string> = {}) {
    const request = new Request(`${base}${path}`, { headers: { Cookie: current.admin.cookie } })
    const loaderData = await asAdminRoute(page.loader, {
      request,
      params,
      context: routeContext(current.services),
    })
    const Stub = createRoutesStub([
      {
        id: 'page',
        path: new URL(path, base).pathname,
        Component: page.default as unknown as ComponentType,
        loader: () => loaderData,
      },
    ])
    return renderToString(
      createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { page: loaderData } } }),
    )
  }
  return { current, call: adminCaller(base, () => current), renderPage }
}
