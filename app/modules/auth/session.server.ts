import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { eq, lt } from 'drizzle-orm'
import { createCookie, type Cookie } from 'react-router'
import type { DbOrTx } from '#app/db/client.server.ts'
import { adminSessions } from './schema.ts'
import { SIGN_IN_COOKIE_SECONDS, usesSecureCookies, type AuthConfig } from './config.server.ts'
import { STAFF_DEVICE_COOKIE } from './staff-device.ts'

export type AdminSession = typeof adminSessions.$inferSelect

/** What the identity provider told us about the person signing in. */
export type AdminIdentity = {
  email: string
  emailVerified: boolean
  displayName: string | null
  pictureUrl: string | null
  /** The id-token claims worth keeping (issuer, subject, names, picture, locale…). */
  profile: Record<string, unknown>
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/** Stores a new session and returns the token for the cookie (only its hash is stored). */
export async function createAdminSession(
  db: DbOrTx,
  identity: AdminIdentity,
  options: { ttlMs: number; now?: Date },
): Promise<{ token: string; session: AdminSession }> {
  const now = options.now ?? new Date()
  const token = randomBytes(32).toString('base64url')
  const [session] = await db
    .insert(adminSessions)
    .values({
      id: hashToken(token),
      email: identity.email,
      displayName: identity.displayName,
      pictureUrl: identity.pictureUrl,
      profile: identity.profile,
      createdAt: now,
      expiresAt: new Date(now.getTime() + options.ttlMs),
    })
    .returning()
  return { token, session: session! }
}

export type SessionLookup = { status: 'valid'; session: AdminSession } | { status: 'missing' | 'expired' }

/** The session behind a cookie token. An expired one is deleted and reported as such. */
export async function findAdminSession(db: DbOrTx, token: string, now = new Date()): Promise<SessionLookup> {
  const id = hashToken(token)
  const [session] = await db.select().from(adminSessions).where(eq(adminSessions.id, id)).limit(1)
  if (!session) return { status: 'missing' }
  if (session.expiresAt.getTime() <= now.getTime()) {
    await db.delete(adminSessions).where(eq(adminSessions.id, id))
    return { status: 'expired' }
  }
  return { status: 'valid', session }
}

export async function deleteAdminSession(db: DbOrTx, token: string) {
  await db.delete(adminSessions).where(eq(adminSessions.id, hashToken(token)))
}

export async function deleteSessionById(db: DbOrTx, id: string) {
  await db.delete(adminSessions).where(eq(adminSessions.id, id))
}

/** Removes every expired session (run on each sign-in, so the table never grows unbounded). */
export async function deleteExpiredSessions(db: DbOrTx, now = new Date()) {
  await db.delete(adminSessions).where(lt(adminSessions.expiresAt, now))
}

/** The per-session anti-forgery token: derived, so it needs no storage and dies with the session. */
export function csrfTokenFor(secret: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`csrf:${sessionId}`).digest('base64url')
}

export function tokensMatch(expected: string, given: string | null | undefined): boolean {
  if (!given) return false
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The admin session cookie's name (with the `__Host-` prefix when cookies are Secure). */
export const ADMIN_SESSION_COOKIE = 'vitrina_admin'

type Cookies = { session: Cookie; signIn: Cookie }
const cookiesByConfig = new WeakMap<AuthConfig, Cookies>()

/**
 * The two cookies of admin sign-in, HttpOnly and SameSite=Lax (Lax lets the provider's redirect back
 * carry them); Secure with the `__Host-` prefix in production and whenever PUBLIC_URL is https.
 */
export function authCookies(config: AuthConfig): Cookies {
  let cookies = cookiesByConfig.get(config)
  if (!cookies) {
    const secure = usesSecureCookies(config)
    const prefix = secure ? '__Host-' : ''
    const options = {
      httpOnly: true,
      sameSite: 'lax' as const,
      path: '/',
      secure,
      secrets: [config.secret],
    }
    cookies = {
      session: createCookie(`${prefix}${ADMIN_SESSION_COOKIE}`, {
        ...options,
        maxAge: Math.floor(config.sessionTtlMs / 1000),
      }),
      signIn: createCookie(`${prefix}vitrina_oidc`, { ...options, maxAge: SIGN_IN_COOKIE_SECONDS }),
    }
    cookiesByConfig.set(config, cookies)
  }
  return cookies
}

/** The session token in the request's cookie, if any (a forged or malformed cookie reads as none). */
export async function readSessionToken(config: AuthConfig, request: Request): Promise<string | null> {
  const value = await authCookies(config)
    .session.parse(request.headers.get('Cookie'))
    .catch(() => null)
  return typeof value === 'string' && value.length > 0 ? value : null
}

export function sessionCookieHeader(config: AuthConfig, token: string) {
  return authCookies(config).session.serialize(token)
}

/** Ten years: the device stays known as staff's long after the session ends. */
const STAFF_DEVICE_MAX_AGE_SECONDS = 10 * 365 * 24 * 60 * 60

/**
 * Marks the browser as a back-office device (spec §1: the owner and admins are never measured or
 * sent to Meta). Set at sign-in and kept at sign-out; readable by the page's script so the
 * storefront never even loads a tracker on it. It grants nothing.
 */
export function staffDeviceCookieHeader(config: AuthConfig) {
  return [
    `${STAFF_DEVICE_COOKIE}=1`,
    'Path=/',
    `Max-Age=${STAFF_DEVICE_MAX_AGE_SECONDS}`,
    'SameSite=Lax',
    ...(usesSecureCookies(config) ? ['Secure'] : []),
  ].join('; ')
}

export function clearSessionCookieHeader(config: AuthConfig) {
  return authCookies(config).session.serialize('', { maxAge: 0 })
}
