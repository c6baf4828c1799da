import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest'
import {
  ADMIN_EMAIL,
  authorizeAtProvider,
  CookieJar,
  setCookies,
  signedInAs,
  startLocalIdentityProvider,
  testAuthContext,
  type Person,
} from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import type { AuthConfig } from './config.server.ts'
import { currentAdmin, requireAdmin, signInPageState, signOut } from './guard.server.ts'
import { ERRORS, UNAUTHORISED_MESSAGE } from './messages.ts'
import { beginSignIn, completeSignIn, publicOriginRedirect } from './oidc.server.ts'
import { adminSessions } from './schema.ts'
import type { SessionLimits } from './session.server.ts'
import { STAFF_DEVICE_COOKIE } from './staff-device.ts'

const t = setupTestDatabase()
let idp: Awaited<ReturnType<typeof startLocalIdentityProvider>>
let config: AuthConfig
const ctx = (limits?: SessionLimits) => testAuthContext(t.db, config, limits)

beforeAll(async () => {
  idp = await startLocalIdentityProvider(t.db)
  config = idp.config
})
afterAll(async () => {
  await idp?.close()
})
beforeEach(async () => {
  config = { ...idp.config, adminEmails: [ADMIN_EMAIL] }
  await t.db.delete(adminSessions)
})

/** /login-admin → provider → callback; returns the callback's answer. */
async function signIn(
  person: Person,
  options: {
    tamper?: (callback: URL) => void
    returnTo?: string
    jar?: CookieJar
    limits?: SessionLimits
  } = {},
) {
  const start = await beginSignIn(
    ctx(),
    new Request(`${idp.base}/login-admin${options.returnTo ? `?volver=${options.returnTo}` : ''}`, {
      method: 'POST',
    }),
  )
  expect(start.status).toBe(302)
  const pending = setCookies(start).get('vitrina_oidc')
  expect(pending).toBeTruthy()
  const authorizationUrl = new URL(start.headers.get('Location')!)
  const callback = await authorizeAtProvider(authorizationUrl.href, person, options.jar)
  options.tamper?.(callback)
  const response = await completeSignIn(
    ctx(options.limits),
    new Request(callback, { headers: { Cookie: `vitrina_oidc=${pending}` } }),
  )
  return { response, authorizationUrl, callback, location: response.headers.get('Location') ?? '' }
}

const cookieFrom = (response: Response) => `vitrina_admin=${setCookies(response).get('vitrina_admin')}`
const noticeOf = (location: string) => new URL(location, 'http://x').searchParams.get('aviso')
const errorOf = (location: string) => new URL(location, 'http://x').searchParams.get('error')

test('the authorization request uses PKCE (S256), state and nonce', async () => {
  const start = await beginSignIn(ctx(), new Request(`${idp.base}/login-admin`, { method: 'POST' }))
  const url = new URL(start.headers.get('Location')!)
  expect(url.origin + url.pathname).toBe(`${idp.base}/dev-idp/auth`)
  expect(url.searchParams.get('code_challenge_method')).toBe('S256')
  expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
  expect(url.searchParams.get('state')).toBeTruthy()
  expect(url.searchParams.get('nonce')).toBeTruthy()
  expect(url.searchParams.get('scope')).toBe('openid email profile')
  expect(url.searchParams.get('redirect_uri')).toBe(`${idp.base}/login-admin/callback`)
  const cookie = start.headers.getSetCookie().find((c) => c.startsWith('vitrina_oidc='))!
  expect(cookie).toMatch(/HttpOnly/i)
  expect(cookie).toMatch(/SameSite=Lax/i)
  // It outlives the sign-in (checked on the server), so a missing cookie is told from an old one.
  expect(cookie).toMatch(/Max-Age=86400/i)
})

test('an allow-listed, verified e-mail gets a session and lands on /admin', async () => {
  const { response, location } = await signIn({ email: 'Duena@Vitrina.test', name: 'Ana Dueña' })
  expect(response.status).toBe(302)
  expect(location).toBe('/admin')
  const sessionCookie = response.headers.getSetCookie().find((c) => c.startsWith('vitrina_admin='))!
  expect(sessionCookie).toMatch(/HttpOnly/i)
  expect(sessionCookie).toMatch(/SameSite=Lax/i)
  expect(sessionCookie).toMatch(/Path=\//)
  expect(sessionCookie).not.toMatch(/Secure/i)
  // The transient sign-in cookie is cleared.
  expect(setCookies(response).get('vitrina_oidc')).toBe('')
  // The device is marked as staff's for years (never measured or sent to Meta), readable by scripts.
  const staffCookie = response.headers.getSetCookie().find((c) => c.startsWith(`${STAFF_DEVICE_COOKIE}=`))!
  expect(staffCookie).toMatch(/Max-Age=315360000/)
  expect(staffCookie).not.toMatch(/HttpOnly/i)

  const rows = await t.db.select().from(adminSessions)
  expect(rows).toHaveLength(1)
  expect(rows[0]!.email).toBe('Duena@Vitrina.test')
  expect(rows[0]!.displayName).toBe('Ana Dueña')
  expect(rows[0]!.pictureUrl).toMatch(/\/dev-idp\/avatar\/A\.svg$/)
  expect(rows[0]!.profile).toMatchObject({ email_verified: true, iss: `${idp.base}/dev-idp` })
  expect(rows[0]!.profile?.sub).toMatch(/^local-/)
  // Only a hash of the cookie's token is stored.
  expect(cookieFrom(response)).not.toContain(rows[0]!.id)
  const days = (rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()) / 86_400_000
  expect(days).toBeCloseTo(7, 5)

  const admin = await requireAdmin(
    ctx(),
    new Request(`${idp.base}/admin`, { headers: { Cookie: cookieFrom(response) } }),
  )
  expect(admin.email).toBe('Duena@Vitrina.test')
  expect(admin.csrfToken).toBeTruthy()
})

test('the session lasts the absolute limit set now, its cookie a week more to say why it ended', async () => {
  const { response } = await signIn(
    { email: ADMIN_EMAIL },
    { limits: { idleMs: 3_600_000, absoluteMs: 86_400_000 } },
  )
  const [row] = await t.db.select().from(adminSessions)
  expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(86_400_000)
  expect(row!.lastSeenAt).toEqual(row!.createdAt)
  const sessionCookie = response.headers.getSetCookie().find((c) => c.startsWith('vitrina_admin='))!
  expect(sessionCookie).toMatch(/Max-Age=691200(;|$)/)
})

test('signing in from a deep admin link comes back to it', async () => {
  const { location } = await signIn({ email: ADMIN_EMAIL }, { returnTo: '/admin/perfil' })
  expect(location).toBe('/admin/perfil')
  const offsite = await signIn({ email: ADMIN_EMAIL }, { returnTo: 'https://malo.example/admin' })
  expect(offsite.location).toBe('/admin')
})

test('the same browser can sign in again as another e-mail (the local provider keeps no SSO)', async () => {
  const jar = new CookieJar()
  expect(noticeOf((await signIn({ email: 'intruso@example.com' }, { jar })).location)).toBe('no-autorizado')
  expect((await signIn({ email: ADMIN_EMAIL }, { jar })).location).toBe('/admin')
  expect((await signIn({ email: ADMIN_EMAIL, verified: false }, { jar })).location).toBe(
    '/login-admin?aviso=no-autorizado',
  )
})

test('an e-mail that is not on the allow-list gets no session and the spec message', async () => {
  const { response, location } = await signIn({ email: 'intruso@example.com' })
  expect(location.startsWith('/login-admin?')).toBe(true)
  expect(noticeOf(location)).toBe('no-autorizado')
  expect(setCookies(response).has('vitrina_admin')).toBe(false)
  expect(await t.db.select().from(adminSessions)).toHaveLength(0)
  expect(UNAUTHORISED_MESSAGE).toBe(
    'No estás autorizado para acceder a esta página. Intenta con un correo valido o ponte en contacto con el administrador.',
  )
})

test('an allow-listed but unverified e-mail is refused', async () => {
  const { location } = await signIn({ email: ADMIN_EMAIL, verified: false })
  expect(noticeOf(location)).toBe('no-autorizado')
  expect(await t.db.select().from(adminSessions)).toHaveLength(0)
})

test('a tampered state is refused', async () => {
  const { location } = await signIn(
    { email: ADMIN_EMAIL },
    { tamper: (callback) => callback.searchParams.set('state', 'otro-estado') },
  )
  expect(errorOf(location)).toBe('vencido')
  expect(await t.db.select().from(adminSessions)).toHaveLength(0)
})

test('a callback without the sign-in cookie, or with a forged one, is refused', async () => {
  const start = await beginSignIn(ctx(), new Request(`${idp.base}/login-admin`, { method: 'POST' }))
  const callback = await authorizeAtProvider(start.headers.get('Location')!, { email: ADMIN_EMAIL })
  // No cookie at all: it was set under another address (or blocked), and the message says so.
  const without = await completeSignIn(ctx(), new Request(callback, { headers: { Cookie: 'otra=1' } }))
  expect(errorOf(without.headers.get('Location')!)).toBe('sin-inicio')
  const forged = Buffer.from(
    JSON.stringify({
      state: callback.searchParams.get('state'),
      nonce: 'n',
      verifier: 'v',
      returnTo: '/admin',
    }),
  ).toString('base64')
  const withForged = await completeSignIn(
    ctx(),
    new Request(callback, { headers: { Cookie: `vitrina_oidc=${forged}.firma` } }),
  )
  expect(errorOf(withForged.headers.get('Location')!)).toBe('vencido')
  expect(await t.db.select().from(adminSessions)).toHaveLength(0)
})

test('a sign-in finished more than ten minutes after it began has expired', async () => {
  const start = await beginSignIn(ctx(), new Request(`${idp.base}/login-admin`, { method: 'POST' }))
  const pending = setCookies(start).get('vitrina_oidc')
  const callback = await authorizeAtProvider(start.headers.get('Location')!, { email: ADMIN_EMAIL })
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11 * 60 * 1000 })
  try {
    const late = await completeSignIn(
      ctx(),
      new Request(callback, { headers: { Cookie: `vitrina_oidc=${pending}` } }),
    )
    expect(errorOf(late.headers.get('Location')!)).toBe('vencido')
  } finally {
    vi.useRealTimers()
  }
  expect(await t.db.select().from(adminSessions)).toHaveLength(0)
})

test('the sign-in page names the real cause when the cookie never came back', async () => {
  const state = await signInPageState(ctx(), new Request(`${idp.base}/login-admin?error=sin-inicio`))
  expect(state.error).toBe(
    'Este navegador no tiene el inicio de sesión que empezaste: pasa cuando se empieza en una dirección ' +
      '(por ejemplo 127.0.0.1) y se vuelve por otra (localhost), o cuando las cookies están bloqueadas. ' +
      `Entra por ${config.publicUrl}/login-admin e intenta de nuevo.`,
  )
})

test('with the local provider, a sign-in opened under another loopback name starts at PUBLIC_URL', async () => {
  const shop = new URL(config.publicUrl)
  const other = new URL(config.publicUrl)
  other.hostname = shop.hostname === 'localhost' ? '127.0.0.1' : 'localhost'
  const page = `${other.origin}/login-admin?volver=%2Fadmin%2Fperfil`
  const thrown = await signInPageState(ctx(), new Request(page)).catch((answer: unknown) => answer)
  expect(thrown).toBeInstanceOf(Response)
  expect((thrown as Response).headers.get('Location')).toBe(
    `${shop.origin}/login-admin?volver=%2Fadmin%2Fperfil`,
  )
  const posted = await beginSignIn(ctx(), new Request(page, { method: 'POST' }))
  expect(posted.status).toBe(303)
  expect(posted.headers.get('Location')).toBe(`${shop.origin}/login-admin?volver=%2Fadmin%2Fperfil`)
  expect(posted.headers.get('Set-Cookie')).toBeNull()
  // At PUBLIC_URL itself the page shows; with Google nothing is redirected (a proxy may rename hosts).
  expect(await signInPageState(ctx(), new Request(`${shop.origin}/login-admin`))).toMatchObject({
    error: null,
  })
  const google = { ...config, oidc: { ...config.oidc, local: false } }
  expect(publicOriginRedirect(google, new Request(page))).toBeNull()
  // A name that is not this machine's is no place to send anyone.
  expect(publicOriginRedirect(config, new Request('http://192.168.1.9:3000/login-admin'))).toBeNull()
})

test('a code cannot be replayed', async () => {
  const start = await beginSignIn(ctx(), new Request(`${idp.base}/login-admin`, { method: 'POST' }))
  const pending = setCookies(start).get('vitrina_oidc')
  const callback = await authorizeAtProvider(start.headers.get('Location')!, { email: ADMIN_EMAIL })
  const request = () => new Request(callback, { headers: { Cookie: `vitrina_oidc=${pending}` } })
  expect((await completeSignIn(ctx(), request())).headers.get('Location')).toBe('/admin')
  expect(errorOf((await completeSignIn(ctx(), request())).headers.get('Location')!)).toBe('proveedor')
})

test('cancelling at the provider comes back with a Spanish message', async () => {
  const { location } = await signIn({ email: ADMIN_EMAIL, cancel: true })
  expect(errorOf(location)).toBe('cancelado')
  expect(ERRORS.cancelado).toMatch(/Cancelaste/)
})

test('a provider error comes back with a Spanish message, never a 500', async () => {
  const start = await beginSignIn(ctx(), new Request(`${idp.base}/login-admin`, { method: 'POST' }))
  const pending = setCookies(start).get('vitrina_oidc')
  const response = await completeSignIn(
    ctx(),
    new Request(`${idp.base}/login-admin/callback?error=server_error&state=x`, {
      headers: { Cookie: `vitrina_oidc=${pending}` },
    }),
  )
  expect(errorOf(response.headers.get('Location')!)).toBe('proveedor')

  const unreachable = {
    ...config,
    oidc: { ...config.oidc, issuer: 'http://127.0.0.1:9/dev-idp' },
  }
  const failed = await beginSignIn(
    testAuthContext(t.db, unreachable),
    new Request(`${idp.base}/login-admin`, { method: 'POST' }),
  )
  expect(errorOf(failed.headers.get('Location')!)).toBe('proveedor')
})

test('an expired session is refused and deleted', async () => {
  const { cookie, session } = await signedInAs(t.db, config, ADMIN_EMAIL, {
    now: new Date(Date.now() - 8 * 86_400_000),
  })
  const refused = await requireAdmin(
    ctx(),
    new Request(`${idp.base}/admin`, { headers: { Cookie: cookie } }),
  ).catch((response: Response) => response)
  expect(refused).toBeInstanceOf(Response)
  // Untouched for 8 days: the idle limit (12 hours) ended it long before the 7 days did.
  expect(noticeOf((refused as Response).headers.get('Location')!)).toBe('sesion-inactiva')
  expect(await t.db.select().from(adminSessions).where(eq(adminSessions.id, session.id))).toHaveLength(0)
})

test('signing out deletes the session and clears the cookie', async () => {
  const { response } = await signIn({ email: ADMIN_EMAIL })
  const cookie = cookieFrom(response)
  const admin = await requireAdmin(ctx(), new Request(`${idp.base}/admin`, { headers: { Cookie: cookie } }))
  const out = await signOut(
    ctx(),
    new Request(`${idp.base}/logout`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', Origin: idp.base },
      body: new URLSearchParams({ csrf: admin.csrfToken }),
    }),
  )
  expect(out.headers.get('Location')).toBe('/login-admin?aviso=sesion-cerrada')
  expect(setCookies(out).get('vitrina_admin')).toBe('')
  // The staff device cookie stays: this browser is still the back office's.
  expect(setCookies(out).has(STAFF_DEVICE_COOKIE)).toBe(false)
  expect(await t.db.select().from(adminSessions)).toHaveLength(0)
  const after = await requireAdmin(
    ctx(),
    new Request(`${idp.base}/admin`, { headers: { Cookie: cookie } }),
  ).catch((r: Response) => r)
  expect((after as Response).headers.get('Location')).toBe('/login-admin')
})

test('signing out without the token is refused and keeps the session', async () => {
  const { cookie } = await signedInAs(t.db, config, ADMIN_EMAIL)
  const refused = await signOut(
    ctx(),
    new Request(`${idp.base}/logout`, { method: 'POST', headers: { Cookie: cookie } }),
  ).catch((error: unknown) => error)
  expect((refused as { init?: { status?: number } }).init?.status).toBe(403)
  expect(await t.db.select().from(adminSessions)).toHaveLength(1)
})

test('removing the e-mail from the allow-list locks out an existing session at once', async () => {
  const { response } = await signIn({ email: ADMIN_EMAIL })
  const request = () => new Request(`${idp.base}/admin`, { headers: { Cookie: cookieFrom(response) } })
  expect((await requireAdmin(ctx(), request())).email).toBe(ADMIN_EMAIL)
  config = { ...config, adminEmails: ['otra@vitrina.test'] }
  const refused = await requireAdmin(ctx(), request()).catch((r: Response) => r)
  expect(noticeOf((refused as Response).headers.get('Location')!)).toBe('no-autorizado')
  expect(await currentAdmin(ctx(), request())).toBeNull()
  expect(await t.db.select().from(adminSessions)).toHaveLength(0)
})

test('a forged session cookie counts as signed out', async () => {
  const refused = await requireAdmin(
    ctx(),
    new Request(`${idp.base}/admin/perfil`, { headers: { Cookie: 'vitrina_admin=InhYeCI%3D.firma' } }),
  ).catch((r: Response) => r)
  expect((refused as Response).headers.get('Location')).toBe('/login-admin?volver=%2Fadmin%2Fperfil')
})

test('production cookies are Secure with the __Host- prefix', async () => {
  const production = { ...config, production: true }
  const start = await beginSignIn(
    testAuthContext(t.db, production),
    new Request(`${idp.base}/login-admin`, { method: 'POST' }),
  )
  const cookie = start.headers.getSetCookie()[0]!
  expect(cookie.startsWith('__Host-vitrina_oidc=')).toBe(true)
  expect(cookie).toMatch(/; Secure/i)
  expect(cookie).toMatch(/Path=\//)
  expect(cookie).not.toMatch(/Domain=/i)
  const { cookie: session } = await signedInAs(t.db, production, ADMIN_EMAIL)
  expect(session.startsWith('__Host-vitrina_admin=')).toBe(true)
})
