import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import express from 'express'
import type { DbOrTx } from '#app/db/client.server.ts'
import { LOCAL_CLIENT_ID, LOCAL_PROVIDER_PATH, type AuthConfig } from '#app/modules/auth/config.server.ts'
import { createLocalProvider } from '#app/modules/auth/local-provider.server.ts'
import type { Role } from '#app/modules/auth/roles.ts'
import { adminMembers } from '#app/modules/auth/schema.ts'
import { forgetDiscovery, type AuthContext } from '#app/modules/auth/oidc.server.ts'
import {
  createAdminSession,
  csrfTokenFor,
  sessionCookieHeader,
  type SessionLimits,
} from '#app/modules/auth/session.server.ts'
import { sessionLimitsInMs } from '#app/modules/settings/settings.server.ts'
import { SESSION_LIMIT_DEFAULTS } from '#app/modules/settings/validators.ts'
import { LOGIN_CALLBACK_PATH } from '#app/utils/paths.ts'

export const TEST_SECRET = 'secreto-de-pruebas-de-inicio-de-sesion-0123456789'
export const ADMIN_EMAIL = 'duena@vitrina.test'

/**
 * The bundled OpenID provider on a free 127.0.0.1 port, and an app configuration whose public URL is
 * that same origin (the callback is never served: tests hand its URL to `completeSignIn`).
 * With `instances` above 1, that many providers share the database and keys and take the requests
 * in turn, as the web processes of one shop behind a round-robin balancer do.
 */
export async function startLocalIdentityProvider(
  db: DbOrTx,
  { adminEmails = [ADMIN_EMAIL], instances = 1 }: { adminEmails?: string[]; instances?: number } = {},
) {
  const app = express()
  const server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const config = testAuthConfig(base, adminEmails)
  const keysDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-idp-'))
  const providers = Array.from({ length: instances }, () =>
    createLocalProvider({
      issuer: config.oidc.issuer,
      clientId: config.oidc.clientId,
      clientSecret: config.oidc.clientSecret,
      redirectUris: [config.oidc.redirectUri],
      hintEmail: ADMIN_EMAIL,
      keysFile: path.join(keysDir, 'keys.json'),
      db,
    }),
  )
  let turn = 0
  app.use(LOCAL_PROVIDER_PATH, (req, res, next) => providers[turn++ % providers.length]!(req, res, next))
  forgetDiscovery()
  return {
    base,
    config,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      fs.rmSync(keysDir, { recursive: true, force: true })
    },
  }
}

/** A local-provider configuration for a shop at `base` (no provider needs to run for guard tests). */
export function testAuthConfig(base: string, adminEmails = [ADMIN_EMAIL]): AuthConfig {
  return {
    adminEmails,
    publicUrl: base,
    production: false,
    secret: TEST_SECRET,
    oidc: {
      issuer: `${base}${LOCAL_PROVIDER_PATH}`,
      clientId: LOCAL_CLIENT_ID,
      clientSecret: 'secreto-del-cliente-local',
      redirectUri: `${base}${LOGIN_CALLBACK_PATH}`,
      local: true,
    },
  }
}

/** The session limits until the owner saves others (the settings module's defaults), in ms. */
export const DEFAULT_LIMITS: SessionLimits = sessionLimitsInMs(SESSION_LIMIT_DEFAULTS)

/**
 * What the auth functions work with, as the registry builds it, with fixed session limits
 * (`limits`: the defaults unless given; a function to change them between calls).
 */
export function testAuthContext(
  db: DbOrTx,
  config: AuthConfig,
  limits: SessionLimits | (() => SessionLimits) = DEFAULT_LIMITS,
): AuthContext {
  return {
    db,
    config,
    sessionLimits: async () => (typeof limits === 'function' ? limits() : limits),
  }
}

/** A minimal cookie jar for one origin: enough to carry the provider's interaction cookies. */
export class CookieJar {
  private cookies = new Map<string, string>()

  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const index = pair!.indexOf('=')
      const name = pair!.slice(0, index).trim()
      const value = pair!.slice(index + 1).trim()
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a),
      )
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  get(name: string) {
    return this.cookies.get(name)
  }
}

export type Person = { email: string; name?: string; verified?: boolean; cancel?: boolean }

/**
 * Drives the provider like a browser would: follows redirects from the authorization URL to the
 * sign-in page, submits it (or cancels) and returns the URL it finally sends the browser to (the
 * app's callback with `code` and `state`, or `error`).
 */
export async function authorizeAtProvider(
  authorizationUrl: string,
  person: Person,
  /** The provider's cookies, to reuse one "browser" across sign-ins. */
  jar = new CookieJar(),
): Promise<URL> {
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), Cookie: jar.header() },
    })
    jar.store(response)
    return response
  }
  let response = await go(authorizationUrl)
  for (let hops = 0; hops < 10; hops++) {
    const location = response.headers.get('Location')
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, response.url || authorizationUrl)
      if (next.pathname.endsWith('/login-admin/callback')) return next
      response = await go(next.href)
      continue
    }
    if (response.status !== 200)
      throw new Error(`El proveedor respondió ${response.status}: ${await response.text()}`)
    const page = await response.text()
    const login = page.match(/action="([^"]+\/login)"/)?.[1]
    const cancel = page.match(/action="([^"]+\/cancelar)"/)?.[1]
    if (!login || !cancel) throw new Error(`No se encontró el formulario del proveedor:\n${page}`)
    const loginAction = new URL(login, authorizationUrl)
    const cancelAction = new URL(cancel, authorizationUrl)
    const body = new URLSearchParams({ email: person.email, name: person.name ?? '' })
    if (person.verified ?? true) body.set('email_verified', 'on')
    response = await go(person.cancel ? cancelAction.href : loginAction.href, {
      method: 'POST',
      body: person.cancel ? '' : body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
  }
  throw new Error('Demasiadas redirecciones en el proveedor local')
}

/** A session straight in the database, and the Cookie header and token a browser would send. */
export async function signedInAs(
  db: DbOrTx,
  config: AuthConfig,
  email: string,
  options: { now?: Date; ttlMs?: number } = {},
) {
  const { token, session } = await createAdminSession(
    db,
    {
      email,
      emailVerified: true,
      displayName: 'Dueña',
      pictureUrl: null,
      profile: { email, email_verified: true },
    },
    { ttlMs: options.ttlMs ?? DEFAULT_LIMITS.absoluteMs, now: options.now },
  )
  const cookie = (await sessionCookieHeader(config, token, options.ttlMs ?? DEFAULT_LIMITS.absoluteMs)).split(
    ';',
  )[0]!
  return { token, session, cookie, csrfToken: csrfTokenFor(config.secret, session.id) }
}

/** A member of the team with `role`, already joined (their invitation used), as "Usuarios" leaves one. */
export async function addTeamMember(db: DbOrTx, email: string, role: Role) {
  await db.insert(adminMembers).values({
    email,
    role,
    invitedBy: ADMIN_EMAIL,
    invitationExpiresAt: new Date(Date.now() + 60_000),
    joinedAt: new Date(),
  })
  return email
}

/** The `name=value` part of each Set-Cookie header of a response. */
export function setCookies(response: Response): Map<string, string> {
  const map = new Map<string, string>()
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0]!
    const index = pair.indexOf('=')
    map.set(pair.slice(0, index), pair.slice(index + 1))
  }
  return map
}
