import { createContext, redirect, type RouterContextProvider } from 'react-router'
import { refusedRequest } from '#app/utils/answer.server.ts'
import { pageUrl } from '#app/utils/paths.ts'
import { CSRF_FIELD, CSRF_HEADER } from './csrf.ts'
import {
  ERROR_PARAM,
  errorText,
  FORBIDDEN_POST_MESSAGE,
  loginPath,
  NOTICE_PARAM,
  noticeText,
  RETURN_PARAM,
  safeReturnTo,
} from './messages.ts'
import { publicOriginRedirect, type AuthContext } from './oidc.server.ts'
import { roleCan, type Permission, type Role } from './roles.ts'
import { roleOf } from './team.server.ts'
import { TEAM_MESSAGES } from './team.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { AdminAccount } from './profile.ts'
import {
  clearSessionCookieHeader,
  csrfTokenFor,
  deleteSessionById,
  findAdminSession,
  readSessionToken,
  sessionEnd,
  tokensMatch,
  touchAdminSession,
  type AdminSession,
  type SessionEnd,
} from './session.server.ts'

/** What an admin page knows about the person using it. */
export type SignedInAdmin = AdminAccount & {
  /** Echo in every admin form post (hidden field `csrf`, or the `X-CSRF-Token` header). */
  csrfToken: string
  /** Read on every request: a changed role applies to open sessions at once. */
  role: Role
  /** This session's id (hashed token), so "Seguridad" can mark "esta sesión". */
  sessionId: string
}

/** Whether the signed-in admin's role allows `permission` (loaders shape their data with it). */
export function adminCan(admin: Pick<SignedInAdmin, 'role'>, permission: Permission): boolean {
  return roleCan(admin.role, permission)
}

/**
 * Refuses (403, in Spanish) a step the admin's role does not allow: for the parts of a page that
 * ask more than the page itself (a desk action other than shipping, say).
 */
export function requirePermission(admin: Pick<SignedInAdmin, 'role'>, permission: Permission) {
  if (!adminCan(admin, permission))
    throw new Refusal(TEAM_MESSAGES.forbiddenAction, { status: 403, standsAlone: true })
}

/**
 * The admin the back office's middleware let in (app/routes/admin/middleware.server.ts): every
 * `/admin` loader and action reads it with `signedInAdminOf`.
 */
export const signedInAdminContext = createContext<SignedInAdmin>()

/** The signed-in admin of this request; outside the admin middleware there is none, and it throws. */
export function signedInAdminOf(context: Readonly<RouterContextProvider>): SignedInAdmin {
  return context.get(signedInAdminContext)
}

/** The time to judge the session limits at (`now`, for tests); the limits come from the context. */
export type SessionOptions = { now?: Date }

type Check =
  | { status: 'admin'; admin: SignedInAdmin; session: AdminSession }
  | { status: 'anonymous' | 'unauthorised'; hadCookie: boolean }
  | { status: 'expired'; limit: SessionEnd['limit']; hadCookie: boolean }

/**
 * Reads the session cookie and checks the session against the database, its limits and the
 * allow-list as they are now. A session that a limit ended, or whose address left the allow-list,
 * is deleted. Recording the request as the session's use is the caller's, once it is accepted.
 */
export async function checkSession(
  { db, config, sessionLimits }: AuthContext,
  request: Request,
  { now = new Date() }: SessionOptions = {},
): Promise<Check> {
  const token = await readSessionToken(config, request)
  const hadCookie = (request.headers.get('Cookie') ?? '').includes('vitrina_admin=')
  if (!token) return { status: 'anonymous', hadCookie }
  const limits = await sessionLimits()
  const found = await findAdminSession(db, token, { limits, now })
  if (found.status === 'missing') return { status: 'anonymous', hadCookie }
  if (found.status === 'expired') {
    await deleteSessionById(db, found.session.id)
    return { status: 'expired', limit: found.limit, hadCookie }
  }
  const { session } = found
  const role = await roleOf(db, config, session.email)
  if (!role) {
    await deleteSessionById(db, session.id)
    return { status: 'unauthorised', hadCookie }
  }
  // The end the absolute limit sets (the profile shows it); the idle one moves with every request.
  const absoluteEnd = sessionEnd(session, { ...limits, idleMs: Number.POSITIVE_INFINITY }).at
  return {
    status: 'admin',
    session,
    admin: {
      email: session.email,
      displayName: session.displayName,
      pictureUrl: session.pictureUrl,
      profile: session.profile ?? {},
      createdAt: session.createdAt,
      expiresAt: absoluteEnd,
      csrfToken: csrfTokenFor(config.secret, session.id),
      role,
      sessionId: session.id,
    },
  }
}

/** The sign-in page's notice for why a session ended. */
const endNotice = (limit: SessionEnd['limit']) => (limit === 'idle' ? 'sesion-inactiva' : 'sesion-vencida')

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** A request that only reads (no anti-forgery token, no body that counts). */
export const isSafeMethod = (request: Request) => SAFE_METHODS.has(request.method)

/**
 * The one guard of the admin area: the admin layout's middleware runs it once for every `/admin`
 * request, before any loader or action, with the session limits of its context ("Configuraciones").
 * - no valid session → redirect to /login-admin (back to this page after signing in), saying
 *   which limit ended the session when one did;
 * - an e-mail no longer on ADMIN_EMAILS → redirect to /login-admin with the spec §4 message;
 * - a POST (or any other unsafe method) from another site or without the session's anti-forgery
 *   token → 403.
 */
export async function requireAdmin(
  ctx: AuthContext,
  request: Request,
  options: SessionOptions = {},
): Promise<SignedInAdmin> {
  const check = await checkSession(ctx, request, options)
  if (check.status !== 'admin') {
    const headers = new Headers()
    if (check.hadCookie) headers.append('Set-Cookie', await clearSessionCookieHeader(ctx.config))
    const url = pageUrl(request)
    throw redirect(
      loginPath({
        notice:
          check.status === 'unauthorised'
            ? 'no-autorizado'
            : check.status === 'expired'
              ? endNotice(check.limit)
              : undefined,
        returnTo:
          check.status !== 'unauthorised' && SAFE_METHODS.has(request.method)
            ? url.pathname + url.search
            : undefined,
      }),
      { headers },
    )
  }
  if (!SAFE_METHODS.has(request.method)) {
    await requireTrustedPost(ctx, request, check.admin.csrfToken)
  }
  // Only now: a forged post from another site is not the admin's use of the session.
  await touchAdminSession(ctx.db, check.session, options.now)
  return check.admin
}

/** Throws 403 unless the post comes from this site and carries the expected token. */
export async function requireTrustedPost(ctx: AuthContext, request: Request, expectedToken: string) {
  if (
    !isSameOrigin(request, ctx.config.publicUrl) ||
    !tokensMatch(expectedToken, await postedToken(request))
  ) {
    throw refusedRequest(FORBIDDEN_POST_MESSAGE, 403)
  }
}

/**
 * Browsers say where a request comes from: `Sec-Fetch-Site` must be same-origin and `Origin`, when
 * sent, must be the shop's own. (Clients that send neither still need the token.)
 */
export function isSameOrigin(request: Request, publicUrl: string): boolean {
  const site = request.headers.get('Sec-Fetch-Site')
  if (site && site !== 'same-origin') return false
  const origin = request.headers.get('Origin')
  if (origin === null) return true
  return origin === new URL(publicUrl).origin || origin === new URL(request.url).origin
}

/** The token from the header or the form body; the body is read from a clone, so actions still can. */
async function postedToken(request: Request): Promise<string | null> {
  const header = request.headers.get(CSRF_HEADER)
  if (header) return header
  const type = request.headers.get('Content-Type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) {
    return null
  }
  try {
    const value = (await request.clone().formData()).get(CSRF_FIELD)
    return typeof value === 'string' ? value : null
  } catch {
    return null
  }
}

/** For /login-admin: the allow-listed admin already signed in, if any. */
export async function currentAdmin(
  ctx: AuthContext,
  request: Request,
  options: SessionOptions = {},
): Promise<SignedInAdmin | null> {
  const check = await checkSession(ctx, request, options)
  if (check.status !== 'admin') return null
  await touchAdminSession(ctx.db, check.session, options.now)
  return check.admin
}

/**
 * "Cerrar sesión": deletes the session (a live one only with a valid anti-forgery token; one its
 * limits ended needs none) and clears the cookie.
 */
export async function signOut(
  ctx: AuthContext,
  request: Request,
  options: SessionOptions = {},
): Promise<Response> {
  const headers = new Headers({ 'Set-Cookie': await clearSessionCookieHeader(ctx.config) })
  const token = await readSessionToken(ctx.config, request)
  if (!token) return redirect(loginPath(), { headers })
  const found = await findAdminSession(ctx.db, token, { ...options, limits: await ctx.sessionLimits() })
  if (found.status === 'missing') return redirect(loginPath(), { headers })
  if (found.status === 'valid') {
    await requireTrustedPost(ctx, request, csrfTokenFor(ctx.config.secret, found.session.id))
  }
  await deleteSessionById(ctx.db, found.session.id)
  return redirect(
    loginPath({ notice: found.status === 'valid' ? 'sesion-cerrada' : endNotice(found.limit) }),
    {
      headers,
    },
  )
}

/**
 * /login-admin: an allow-listed admin goes straight in; anyone else sees the page and its messages.
 * A session that just ended is told apart (which limit ended it) even without the notice in the
 * address, and the notices name the limits as they are now.
 */
export async function signInPageState(ctx: AuthContext, request: Request, options: SessionOptions = {}) {
  const elsewhere = publicOriginRedirect(ctx.config, request)
  if (elsewhere) throw redirect(elsewhere)
  const url = new URL(request.url)
  const returnTo = safeReturnTo(url.searchParams.get(RETURN_PARAM))
  const check = await checkSession(ctx, request, options)
  if (check.status === 'admin') throw redirect(returnTo)
  const limits = await ctx.sessionLimits()
  const notice =
    url.searchParams.get(NOTICE_PARAM) ?? (check.status === 'expired' ? endNotice(check.limit) : null)
  return {
    notice: noticeText(notice, limits),
    error: errorText(url.searchParams.get(ERROR_PARAM), ctx.config.publicUrl),
    returnTo: returnTo === '/admin' ? null : returnTo,
    localProvider: ctx.config.oidc.local,
  }
}
