import * as client from 'openid-client'
import { redirect } from 'react-router'
import type { DbOrTx } from '#app/db/client.server.ts'
import { isLoopbackUrl } from '#app/utils/loopback.ts'
import { pageUrl } from '#app/utils/paths.ts'
import { SIGN_IN_TTL_SECONDS, type AuthConfig, type OidcSettings } from './config.server.ts'
import { loginPath, RETURN_PARAM, safeReturnTo, type ErrorCode, type NoticeCode } from './messages.ts'
import {
  authCookies,
  createAdminSession,
  deleteExpiredSessions,
  sessionCookieHeader,
  staffDeviceCookieHeader,
  type AdminIdentity,
  type SignInDevice,
  type SessionLimits,
} from './session.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { recordSignIn } from './security.server.ts'
import { joinOnSignIn } from './team.server.ts'

/**
 * What every auth function works with: the database, the sign-in configuration and the session
 * limits as the owner set them now (the services registry reads them from the settings module, kept
 * for a few seconds per process), so every check, sign-in and sign-out applies the same limits.
 */
export type AuthContext = {
  db: DbOrTx
  config: AuthConfig
  sessionLimits: () => Promise<SessionLimits>
}

/** Google and most providers: these scopes give the e-mail, its verification, name and picture. */
const SCOPE = 'openid email profile'

const discovered = new Map<string, Promise<client.Configuration>>()

/** The provider's metadata (discovery), fetched once per issuer and client; a failure is retried. */
export function oidcConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer} ${settings.clientId}`
  let pending = discovered.get(key)
  if (!pending) {
    pending = client.discovery(
      new URL(settings.issuer),
      settings.clientId,
      settings.clientSecret,
      client.ClientSecretPost(settings.clientSecret),
      // Only the bundled provider speaks plain http (see design.md).
      settings.local ? { execute: [client.allowInsecureRequests] } : undefined,
    )
    discovered.set(key, pending)
    pending.catch(() => discovered.delete(key))
  }
  return pending
}

/** Forgets discovered metadata (tests restart providers on new ports). */
export function forgetDiscovery() {
  discovered.clear()
}

/** The state, nonce and PKCE verifier of a sign-in in progress, kept in a signed cookie. */
type PendingSignIn = { state: string; nonce: string; verifier: string; returnTo: string; startedAt: number }

function isPendingSignIn(value: unknown): value is PendingSignIn {
  if (!value || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  return (
    typeof v.state === 'string' &&
    typeof v.nonce === 'string' &&
    typeof v.verifier === 'string' &&
    typeof v.returnTo === 'string' &&
    typeof v.startedAt === 'number'
  )
}

/**
 * The local provider sends the browser back to PUBLIC_URL, where a cookie set under another loopback
 * name (127.0.0.1 for localhost, or the other way round) is not sent: a sign-in opened under another
 * name starts over at PUBLIC_URL. Only for the local provider, whose PUBLIC_URL is this machine;
 * behind a proxy the request's own address may differ and must not loop.
 */
export function publicOriginRedirect(config: AuthConfig, request: Request): string | null {
  if (!config.oidc.local) return null
  const url = pageUrl(request)
  const shop = new URL(config.publicUrl)
  if (url.origin === shop.origin || !isLoopbackUrl(url.href)) return null
  return `${shop.origin}${url.pathname}${url.search}`
}

/** Starts the Authorization Code flow: PKCE, state and nonce, then off to the provider. */
export async function beginSignIn({ config }: AuthContext, request: Request): Promise<Response> {
  const returnTo = safeReturnTo(new URL(request.url).searchParams.get(RETURN_PARAM))
  // The page was shown under another address (see publicOriginRedirect): show it at PUBLIC_URL.
  const elsewhere = publicOriginRedirect(config, request)
  if (elsewhere) return redirect(elsewhere, 303)
  let configuration: client.Configuration
  try {
    configuration = await oidcConfiguration(config.oidc)
  } catch (error) {
    logger.error(`No se pudo consultar el proveedor de identidad: ${errorMessage(error)}`)
    return redirect(loginPath({ error: 'proveedor', returnTo }))
  }
  const pending: PendingSignIn = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    returnTo,
    startedAt: Date.now(),
  }
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: config.oidc.redirectUri,
    scope: SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
    // Google: let the person pick the account. Local: always ask for the e-mail again.
    prompt: config.oidc.local ? 'login' : 'select_account',
  })
  return redirect(url.href, {
    headers: { 'Set-Cookie': await authCookies(config).signIn.serialize(pending) },
  })
}

/**
 * The provider's redirect back: checks state, nonce and PKCE, exchanges the code and opens a session
 * for a verified, allow-listed e-mail, lasting the absolute session limit as it is now. Every other
 * outcome goes back to the sign-in page with a message; nothing here answers with a 500.
 */
export async function completeSignIn(
  ctx: AuthContext,
  request: Request,
  device: SignInDevice = { userAgent: null, ipAddress: null },
): Promise<Response> {
  const { config, db } = ctx
  const url = new URL(request.url)
  const cookies = authCookies(config)
  const headers = new Headers()
  headers.append('Set-Cookie', await cookies.signIn.serialize('', { maxAge: 0 }))
  const fail = (to: { error?: ErrorCode; notice?: NoticeCode; returnTo?: string }) =>
    redirect(loginPath(to), { headers })

  const pending = await cookies.signIn.parse(request.headers.get('Cookie')).catch(() => null)
  const returnTo = isPendingSignIn(pending) ? pending.returnTo : undefined
  const providerError = url.searchParams.get('error')
  if (providerError) {
    return fail({ error: providerError === 'access_denied' ? 'cancelado' : 'proveedor', returnTo })
  }
  // No cookie at all: the sign-in did not start in this browser under this address (another
  // loopback name, cookies blocked). A cookie that does not match, or is too old: it expired.
  if (pending === null && !hasSignInCookie(config, request)) return fail({ error: 'sin-inicio' })
  if (
    !isPendingSignIn(pending) ||
    url.searchParams.get('state') !== pending.state ||
    Date.now() - pending.startedAt > SIGN_IN_TTL_SECONDS * 1000
  ) {
    return fail({ error: 'vencido' })
  }

  let identity: AdminIdentity
  try {
    const configuration = await oidcConfiguration(config.oidc)
    // The provider answered at the configured redirect URI; behind a proxy request.url may differ.
    const currentUrl = new URL(config.oidc.redirectUri)
    currentUrl.search = url.search
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    })
    let claims: Record<string, unknown> = { ...tokens.claims() }
    if (typeof claims.email !== 'string') {
      const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub))
      claims = { ...userInfo, ...claims }
    }
    identity = identityFromClaims(claims)
  } catch (error) {
    logger.warn(`Inicio de sesión rechazado por el proveedor o por la validación: ${errorMessage(error)}`)
    return fail({ error: 'proveedor', returnTo })
  }

  const standing = identity.emailVerified
    ? await joinOnSignIn(db, config, identity.email)
    : ({ status: 'none' } as const)
  await recordSignIn(db, {
    email: identity.email,
    outcome:
      standing.status === 'member'
        ? 'ok'
        : standing.status === 'expired'
          ? 'invitacion-vencida'
          : 'no-autorizado',
    device,
  })
  if (standing.status !== 'member') {
    return fail({ notice: standing.status === 'expired' ? 'invitacion-vencida' : 'no-autorizado' })
  }
  await deleteExpiredSessions(db)
  const ttlMs = (await ctx.sessionLimits()).absoluteMs
  const { token } = await createAdminSession(db, identity, { ttlMs, device })
  headers.append('Set-Cookie', await sessionCookieHeader(config, token, ttlMs))
  headers.append('Set-Cookie', staffDeviceCookieHeader(config))
  return redirect(pending.returnTo, { headers })
}

function hasSignInCookie(config: AuthConfig, request: Request): boolean {
  const name = authCookies(config).signIn.name
  return (request.headers.get('Cookie') ?? '').split(';').some((part) => part.trim().startsWith(`${name}=`))
}

const KEPT_CLAIMS = [
  'iss',
  'sub',
  'email',
  'email_verified',
  'name',
  'given_name',
  'family_name',
  'picture',
  'locale',
  'hd',
  'auth_time',
] as const

export function identityFromClaims(claims: Record<string, unknown>): AdminIdentity {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null)
  const email = text(claims.email)
  if (!email) throw new Error('El proveedor no entregó un correo')
  const profile: Record<string, unknown> = {}
  for (const name of KEPT_CLAIMS) if (claims[name] !== undefined) profile[name] = claims[name]
  const picture = text(claims.picture)
  return {
    email,
    emailVerified: claims.email_verified === true,
    displayName: text(claims.name) ?? text(claims.given_name),
    pictureUrl: picture && /^https?:\/\//.test(picture) ? picture : null,
    profile,
  }
}

function errorMessage(error: unknown) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
