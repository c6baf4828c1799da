import { createHmac, randomBytes } from 'node:crypto'
import path from 'node:path'
import type { Env } from '#app/utils/env.server.ts'
import { keptFileText } from '#app/utils/kept-file.server.ts'
import { LOGIN_CALLBACK_PATH } from '#app/utils/paths.ts'
import { isLoopbackUrl } from '#app/utils/loopback.ts'

/** How long a started sign-in may take before its state, nonce and verifier are dropped. */
export const SIGN_IN_TTL_SECONDS = 10 * 60
/**
 * The sign-in cookie outlives the sign-in itself (checked on the server against its start), so a
 * callback without it means it never reached this browser under this address, not that it expired.
 */
export const SIGN_IN_COOKIE_SECONDS = 24 * 60 * 60

export const GOOGLE_ISSUER = 'https://accounts.google.com'
/** Where the bundled OpenID provider is mounted when no real one is configured. */
export const LOCAL_PROVIDER_PATH = '/dev-idp'
export const LOCAL_CLIENT_ID = 'vitrina-local'
/**
 * With the local provider and no ADMIN_EMAILS, this demo address is the admin, so `npm start` works
 * out of the box. Never used with Google or in production.
 */
export const LOCAL_ADMIN_EMAIL = 'admin@vitrina.local'

export type OidcSettings = {
  issuer: string
  clientId: string
  clientSecret: string
  redirectUri: string
  /** The bundled provider over plain http: the only case that may skip https checks. */
  local: boolean
}

export type AuthConfig = {
  /** The allow-list, lowercased. Read on every request, so removing an address locks it out. */
  adminEmails: string[]
  publicUrl: string
  /** A real deployment (APP_ENV=production). Cookies: see `usesSecureCookies`. */
  production: boolean
  /** Signs the sign-in cookie and derives the anti-forgery tokens. */
  secret: string
  oidc: OidcSettings
}

/** No issuer and no client credentials outside production: the bundled provider signs people in. */
export function usesLocalProvider(env: Env): boolean {
  return (
    env.APP_ENV !== 'production' && !env.OIDC_ISSUER && !env.GOOGLE_CLIENT_ID && !env.GOOGLE_CLIENT_SECRET
  )
}

export function isHttpsUrl(url: string): boolean {
  return new URL(url).protocol === 'https:'
}

/**
 * Secure cookies with the `__Host-` prefix: in production, and whenever the shop is served over
 * https (whatever APP_ENV says), so a cookie set there never travels over plain http.
 */
export function usesSecureCookies(config: Pick<AuthConfig, 'production' | 'publicUrl'>): boolean {
  return config.production || isHttpsUrl(config.publicUrl)
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** The effective allow-list: ADMIN_EMAILS, or the demo admin when the local provider is in use. */
export function adminEmailsFor(env: Env): string[] {
  const listed = env.ADMIN_EMAILS.map(normalizeEmail)
  if (listed.length) return listed
  return usesLocalProvider(env) ? [LOCAL_ADMIN_EMAIL] : []
}

/** Client secret of the bundled provider's only client; both ends live in this process. */
export function localClientSecret(secret: string): string {
  return createHmac('sha256', secret).update('vitrina-local-client').digest('base64url')
}

/** Builds the sign-in configuration from the validated environment. */
export function authConfigFromEnv(env: Env, secret: string): AuthConfig {
  const local = usesLocalProvider(env)
  // The bundled provider lets anyone sign in as any e-mail: it must never face the internet, even
  // when a deployment forgot APP_ENV=production.
  if (local && !isLoopbackUrl(env.publicUrl)) {
    throw new Error(
      `El inicio de sesión local solo funciona en esta máquina, pero PUBLIC_URL es ${env.publicUrl}. ` +
        'Para publicar la tienda define APP_ENV=production, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET y ADMIN_EMAILS.',
    )
  }
  const redirectUri = `${env.publicUrl}${LOGIN_CALLBACK_PATH}`
  const oidc: OidcSettings = local
    ? {
        issuer: `${env.publicUrl}${LOCAL_PROVIDER_PATH}`,
        clientId: LOCAL_CLIENT_ID,
        clientSecret: localClientSecret(secret),
        redirectUri,
        local: true,
      }
    : {
        issuer: (env.OIDC_ISSUER ?? GOOGLE_ISSUER).replace(/\/$/, ''),
        clientId: env.GOOGLE_CLIENT_ID ?? '',
        clientSecret: env.GOOGLE_CLIENT_SECRET ?? '',
        redirectUri,
        local: false,
      }
  return {
    adminEmails: adminEmailsFor(env),
    publicUrl: env.publicUrl,
    production: env.APP_ENV === 'production',
    secret,
    oidc,
  }
}

/**
 * SESSION_SECRET, or (local use only; production requires the variable) a random secret kept in
 * DATA_DIR so sign-ins in progress survive a restart.
 */
export function sessionSecret(env: Env): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET
  return keptFileText(
    path.join(env.dataDir, 'auth', 'session-secret'),
    () => randomBytes(32).toString('base64url'),
    (text) => text.trim().length >= 32,
  ).trim()
}
