import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, beforeEach, expect, test } from 'vitest'
import { adminSessions } from '#app/modules/auth/schema.ts'
import {
  readStoreSettings,
  saveStoreSettings,
  settingDefaults,
} from '#app/modules/settings/settings.server.ts'
import { settingsAsFormValues } from '#app/modules/settings/validators.ts'
import type { Services } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import * as login from './login.tsx'
import * as profile from './profile.tsx'

/**
 * /login-admin after the admin door ended a session (issue 23): the page says which limit ended it,
 * as the owner set the limits in "Configuraciones".
 */

const BASE = 'http://127.0.0.1:5563'
const t = setupTestDatabase()
const config = testAuthConfig(BASE)
let services: Services
const MINUTE = 60_000

beforeAll(() => {
  services = testServices({ database: t.database, auth: config })
})
beforeEach(async () => {
  await t.db.delete(adminSessions)
  // Through the form's save, as the owner would: the process's copy of the limits follows at once.
  await setLimits('720', '168')
})

/** Saves the session limits as "Configuraciones" does. */
async function setLimits(adminIdleMinutes: string, adminSessionHours: string) {
  const defaults = settingDefaults(services.env)
  const loaded = await readStoreSettings(t.db, defaults)
  const values = { ...settingsAsFormValues(loaded), adminIdleMinutes, adminSessionHours }
  await saveStoreSettings(t.db, defaults, values, loaded, ADMIN_EMAIL)
}

/** An admin page opened with `cookie`: where the admin door sends the browser. */
async function openProfile(cookie: string): Promise<string> {
  const request = new Request(`${BASE}/admin/perfil`, { headers: { Cookie: cookie } })
  const thrown = await asAdminRoute(profile.loader, { request, context: routeContext(services) }).then(
    () => null,
    (answer: unknown) => answer,
  )
  expect(thrown).toBeInstanceOf(Response)
  return (thrown as Response).headers.get('Location')!
}

/** The sign-in page at `path`, rendered as the browser gets it. */
async function signInPage(path: string, cookie?: string) {
  const request = new Request(`${BASE}${path}`, { headers: cookie ? { Cookie: cookie } : {} })
  const loaderData = await login.loader({ request, params: {}, context: routeContext(services) } as never)
  const Page = login.default as unknown as React.ComponentType
  const Stub = createRoutesStub([
    { id: 'page', path: '/login-admin', Component: Page, loader: () => loaderData },
  ])
  return renderToString(<Stub initialEntries={[path]} hydrationData={{ loaderData: { page: loaderData } }} />)
}

test('a session idle past the owner’s limit: the sign-in page says how long it sat idle', async () => {
  await setLimits('15', '168')
  const { cookie } = await signedInAs(t.db, config, ADMIN_EMAIL, { now: new Date(Date.now() - 16 * MINUTE) })
  const location = await openProfile(cookie)
  expect(location).toBe('/login-admin?aviso=sesion-inactiva&volver=%2Fadmin%2Fperfil')
  const html = await signInPage(location)
  expect(html).toContain('data-testid="login-notice"')
  expect(html).toContain('Tu sesión se cerró después de 15 minutos sin actividad. Inicia sesión de nuevo.')
})

test('the defaults: 12 hours idle', async () => {
  const { cookie } = await signedInAs(t.db, config, ADMIN_EMAIL, {
    now: new Date(Date.now() - 13 * 60 * MINUTE),
  })
  const html = await signInPage(await openProfile(cookie))
  expect(html).toContain('Tu sesión se cerró después de 12 horas sin actividad. Inicia sesión de nuevo.')
})

test('a session past its maximum, however active: the sign-in page names the maximum', async () => {
  await setLimits('30', '1')
  const signedInAt = new Date(Date.now() - 61 * MINUTE)
  const { cookie, session } = await signedInAs(t.db, config, ADMIN_EMAIL, { now: signedInAt })
  // Used a minute ago: the idle limit is far.
  await t.db.update(adminSessions).set({ lastSeenAt: new Date(Date.now() - MINUTE) })
  expect(session.email).toBe(ADMIN_EMAIL)
  const location = await openProfile(cookie)
  expect(location).toBe('/login-admin?aviso=sesion-vencida&volver=%2Fadmin%2Fperfil')
  expect(await signInPage(location)).toContain(
    'Tu sesión se cerró porque llegó a su duración máxima de 1 hora. Inicia sesión de nuevo.',
  )
})

test('within the limits the admin is let in, and the page is no place for a crafted text', async () => {
  await setLimits('15', '168')
  const { cookie } = await signedInAs(t.db, config, ADMIN_EMAIL, { now: new Date(Date.now() - 14 * MINUTE) })
  const request = new Request(`${BASE}/admin/perfil`, { headers: { Cookie: cookie } })
  const page = await asAdminRoute(profile.loader, { request, context: routeContext(services) })
  expect(page.account.email).toBe(ADMIN_EMAIL)
  const html = await signInPage('/login-admin?aviso=%3Cb%3Eotra%20cosa%3C%2Fb%3E')
  expect(html).not.toContain('data-testid="login-notice"')
})
