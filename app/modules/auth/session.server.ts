import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
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

/** The browser that signs in, for the session list of "Seguridad". */
export type SignInDevice = { userAgent: string | null; ipAddress: string | null }

/** What a session keeps of its browser: the User-Agent cut to a readable length. */
export function signInDeviceOf(request: Request, ipAddress: string | null): SignInDevice {
  return { userAgent: request.headers.get('User-Agent')?.slice(0, 300) || null, ipAddress }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/**
 * How long an admin session lasts (the owner sets both in "Configuraciones"): it ends after
 * `idleMs` without any request, and `absoluteMs` after signing in whatever the activity, whichever
 * comes first. The auth module has no defaults of its own: every check gets the limits from its
 * `AuthContext` (the registry reads them from the settings module, which holds the defaults).
 */
export type SessionLimits = { idleMs: number; absoluteMs: number }

/**
 * A session's latest request is written at most this often: one write per request would cost every
 * admin page a database write, and the shortest idle limit (15 minutes) does not need the second.
 * A session may so end up to this much before its idle limit.
 */
export const LAST_SEEN_INTERVAL_MS = 60 * 1000

/**
 * An ended session's cookie and row outlive it by this much, so the browser that comes back is told
 * which limit ended it instead of just landing on the sign-in page.
 */
export const ENDED_SESSION_KEPT_MS = 7 * 24 * 60 * 60 * 1000

/** Which limit ends a session: the one it reaches first. */
export type SessionEnd = { at: Date; limit: 'idle' | 'absolute' }

export function sessionEnd(
  session: Pick<AdminSession, 'createdAt' | 'expiresAt' | 'lastSeenAt'>,
  limits: SessionLimits,
): SessionEnd {
  // A limit shortened since sign-in applies at once; one made longer only to later sign-ins.
  const absolute = Math.min(session.expiresAt.getTime(), session.createdAt.getTime() + limits.absoluteMs)
  const idle = session.lastSeenAt.getTime() + limits.idleMs
  return idle < absolute
    ? { at: new Date(idle), limit: 'idle' }
    : { at: new Date(absolute), limit: 'absolute' }
}

/**
 * Stores a new session and returns the token for the cookie (only its hash is stored); `ttlMs` is
 * the absolute limit at sign-in.
 */
export async function createAdminSession(
  db: DbOrTx,
  identity: AdminIdentity,
  options: { ttlMs: number; now?: Date; device?: SignInDevice },
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
      lastSeenAt: now,
      userAgent: options.device?.userAgent ?? null,
      ipAddress: options.device?.ipAddress ?? null,
    })
    .returning()
  return { token, session: session! }
}

export type SessionLookup =
  | { status: 'valid'; session: AdminSession }
  | { status: 'missing' }
  | { status: 'expired'; session: AdminSession; limit: SessionEnd['limit'] }

/**
 * The session behind a cookie token, and whether `limits` have ended it. Only reads: the guard
 * deletes an ended session once it has said why (a lookup elsewhere must not hide that).
 */
export async function findAdminSession(
  db: DbOrTx,
  token: string,
  { limits, now = new Date() }: { limits: SessionLimits; now?: Date },
): Promise<SessionLookup> {
  const [session] = await db
    .select()
    .from(adminSessions)
    .where(eq(adminSessions.id, hashToken(token)))
    .limit(1)
  if (!session) return { status: 'missing' }
  const end = sessionEnd(session, limits)
  if (end.at.getTime() <= now.getTime()) return { status: 'expired', session, limit: end.limit }
  return { status: 'valid', session }
}

/**
 * Records a request of a live session, at most once a `LAST_SEEN_INTERVAL_MS` whatever the number
 * of processes: the row is only written when the stored time is that old (not just the copy this
 * process read). Says whether it wrote.
 */
export async function touchAdminSession(
  db: DbOrTx,
  session: AdminSession,
  now = new Date(),
): Promise<boolean> {
  const staleBefore = new Date(now.getTime() - LAST_SEEN_INTERVAL_MS)
  if (session.lastSeenAt.getTime() > staleBefore.getTime()) return false
  const written = await db
    .update(adminSessions)
    .set({ lastSeenAt: now })
    .where(and(eq(adminSessions.id, session.id), lt(adminSessions.lastSeenAt, staleBefore)))
    .returning({ id: adminSessions.id })
  return written.length > 0
}

export async function deleteSessionById(db: DbOrTx, id: string) {
  await db.delete(adminSessions).where(eq(adminSessions.id, id))
}

/**
 * Removes the sessions whose cookies have expired too (run on each sign-in, so the table never grows
 * unbounded). One that ended more recently stays until its browser comes back to hear why.
 */
export async function deleteExpiredSessions(db: DbOrTx, now = new Date()) {
  await db
    .delete(adminSessions)
    .where(lt(adminSessions.expiresAt, new Date(now.getTime() - ENDED_SESSION_KEPT_MS)))
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
      // Its lifetime is the session's, given when it is set (sessionCookieHeader).
      session: createCookie(`${prefix}${ADMIN_SESSION_COOKIE}`, options),
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

/**
 * The session cookie for a new session: it lasts the session's absolute limit (`ttlMs`) and
 * `ENDED_SESSION_KEPT_MS` more.
 */
export function sessionCookieHeader(config: AuthConfig, token: string, ttlMs: number) {
  return authCookies(config).session.serialize(token, {
    maxAge: Math.floor((ttlMs + ENDED_SESSION_KEPT_MS) / 1000),
  })
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
