import {
  createRequestHandler as createReactRouterHandler,
  RouterContextProvider,
  type ServerBuild,
} from 'react-router'
import path from 'node:path'
import { createRequestHandler } from '@react-router/express'
import express from 'express'
import { isDatabaseReady, openDatabase } from '#app/db/client.server.ts'
import { isCatalogEmpty, loadDemoVideo, seedDemoData } from '#app/demo/demo-data.server.ts'
import { startWorkers } from '#app/jobs/worker.server.ts'
import {
  authConfigFromEnv,
  isHttpsUrl,
  LOCAL_ADMIN_EMAIL,
  LOCAL_PROVIDER_PATH,
  sessionSecret,
} from '#app/modules/auth/config.server.ts'
import { createLocalProvider } from '#app/modules/auth/local-provider.server.ts'
import { mediaSettingsFromEnv } from '#app/modules/media/config.server.ts'
import { createPageCache } from '#app/modules/page-cache/page-cache.server.ts'
import { readStorefrontState } from '#app/modules/page-cache/storefront-version.server.ts'
import { servicesContext } from '#app/services-context.server.ts'
import { jobHandlers, startServices } from '#app/services.server.ts'
import { clientAddressContext } from '#app/utils/client-address.ts'
import { cspNonceContext } from '#app/utils/csp-nonce.ts'
import { parseEnv, type Env } from '#app/utils/env.server.ts'
import { isLoopbackAddress, isLoopbackHost, isLoopbackUrl } from '#app/utils/loopback.ts'
import { LOGIN_CALLBACK_PATH } from '#app/utils/paths.ts'
import { logger } from '#app/utils/logger.server.ts'
import { rememberCampaignTouch } from './campaign-touch.ts'
import { cspNonce, policySources, setContentSecurityPolicy } from './content-security-policy.ts'
import { requestLogging } from './request-log.ts'
import {
  answerActionOnlyRoutes,
  answerOtherMethods,
  mediaErrors,
  refuse,
  refuseCrossSiteWrites,
  refuseMisaddressedWrites,
  refuseUnaddressable,
} from './security.ts'

export type Runtime = {
  handler: express.Router
  /** The security headers of every answer, for the static files served in front of `handler`. */
  securityHeaders: express.RequestHandler
  env: Env
  shutdown(): Promise<void>
}

export type StartOptions = {
  /**
   * Whether this process runs the background jobs and their schedule, and fills an empty shop with
   * demo data. With several web processes (WEB_CONCURRENCY) only the first one does.
   */
  jobs?: boolean
  /**
   * Served through Vite's development server (`npm run dev`): its styles are injected without a
   * nonce and its HMR socket has a port of its own, which the Content-Security-Policy allows.
   */
  dev?: boolean
}

/** Opens the database, fills an empty shop with demo data, and builds the request handler. */
export async function start({ jobs = true, dev = false }: StartOptions = {}): Promise<Runtime> {
  // Read once here; everything after reaches it through the registry (servicesOf(context).env).
  const env = parseEnv(process.env)
  // First: a sign-in configuration that must not run stops start-up before anything else.
  const auth = authConfigFromEnv(env, sessionSecret(env))
  const database = await openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { directory: path.join(env.dataDir, 'db') },
  )
  const mediaRoot = path.join(env.dataDir, 'media')
  // Local disk under DATA_DIR/media, or the S3 bucket (URLs under S3_PUBLIC_URL) when configured.
  const media = mediaSettingsFromEnv(env)
  if (jobs && env.SEED_DEMO === '1' && (await isCatalogEmpty(database.db))) {
    await seedDemoData(database.db, media.storage, {
      video: await loadDemoVideo(),
      log: (message) => logger.info(message),
    })
  }

  const services = await startServices(env, database, { workers: jobs, auth, media })
  if (jobs) await startWorkers(services.runtime.boss, jobHandlers(services))

  // Development reloads route modules on each request; production loads them once, so a rebuild
  // of the build directory under a running server cannot break it.
  const build: ServerBuild | (() => Promise<ServerBuild>) = import.meta.env.DEV
    ? () => import('virtual:react-router/server-build')
    : await import('virtual:react-router/server-build')

  const headers = securityHeaders(env, { dev })
  const handler = express.Router()
  handler.use(requestLogging(logger))
  handler.use(refuseBadUrl())
  handler.use(redirectHosts(env))
  handler.use(headers)
  handler.use(answerOtherMethods())
  handler.use(limitBodySize())
  handler.use(refuseCrossSiteWrites(env))
  handler.use(refuseMisaddressedWrites(env, logger))
  handler.use(answerActionOnlyRoutes(build))
  handler.get('/healthz', async (_req, res) => {
    try {
      await database.executeSql('select 1')
      res.json({ ok: true })
    } catch {
      res.status(503).json({ ok: false })
    }
  })
  handler.get('/readyz', async (_req, res) => {
    const ready = await isDatabaseReady(database).catch(() => false)
    res.status(ready ? 200 : 503).json({ ok: ready })
  })
  if (auth.oidc.local) {
    // Local use and tests only (never with APP_ENV=production): sign in as any e-mail, so only
    // from this machine.
    handler.use(localClientsOnly([LOCAL_PROVIDER_PATH, LOGIN_CALLBACK_PATH]))
    handler.use(
      LOCAL_PROVIDER_PATH,
      createLocalProvider({
        issuer: auth.oidc.issuer,
        clientId: auth.oidc.clientId,
        clientSecret: auth.oidc.clientSecret,
        redirectUris: [auth.oidc.redirectUri],
        keysFile: path.join(env.dataDir, 'auth', 'dev-idp-keys.json'),
        hintEmail: env.ADMIN_EMAILS.length ? undefined : LOCAL_ADMIN_EMAIL,
        db: database.db,
        nonceOf: cspNonce,
      }),
    )
  }
  handler.use(
    '/media',
    express.static(mediaRoot, { immutable: true, maxAge: '1y', fallthrough: false, index: false }),
    mediaErrors(),
  )
  // After the health checks, which a load balancer may send without a usable Host header.
  handler.use(refuseUnaddressable())
  handler.use(rememberCampaignTouch(env.publicUrl))
  const getLoadContext = (req: express.Request, res: express.Response) => {
    const context = new RouterContextProvider()
    context.set(servicesContext, services)
    context.set(clientAddressContext, req.ip ?? null)
    context.set(cspNonceContext, cspNonce(res))
    return context
  }
  if (process.env.NODE_ENV === 'production') {
    // Storefront pages that are the same for every visitor come from the page cache until the
    // catalogue, stock, banners or settings change (docs/decisions/0012). Not in development,
    // where route modules change under it.
    const renderPage = createReactRouterHandler(build, process.env.NODE_ENV)
    const pageCache = createPageCache({
      // The counter, and the promotion starts and ends passed (a scheduled price shows without a write).
      readVersion: (now) => readStorefrontState(database.executeSql, now),
      render: (request, req, res) => renderPage(request, getLoadContext(req, res)),
      nonceOf: cspNonce,
    })
    handler.use(pageCache.middleware)
  }
  handler.all('/{*splat}', createRequestHandler({ build, mode: process.env.NODE_ENV, getLoadContext }))
  return {
    handler,
    securityHeaders: headers,
    env,
    // Everything start() opened: the registry (job queue, media connections), then the database.
    async shutdown() {
      await services.stop()
      await database.close()
    },
  }
}

/**
 * Shop forms are small, except a buyer's transfer receipt (an image or PDF up to 5 MB, sent as a
 * multipart form to the order's result page or their order page); the back office posts images
 * (10 MB) and videos (50 MB), a few at a time.
 */
export const BODY_LIMITS = { store: 64 * 1024, receipt: 6 * 1024 * 1024, admin: 120 * 1024 * 1024 }
export const BODY_TOO_LARGE_MESSAGE = 'La solicitud es demasiado grande.'

/** The shop pages that take a receipt upload: `/finalizar-pedido/success` and `/pedido/{número}` (and their `.data`). */
const RECEIPT_PAGES = /^\/(finalizar-pedido\/success|pedido\/\d{1,10})(\.data)?\/?$/

function bodyLimitOf(req: express.Request, limits: { store: number; admin: number; receipt?: number }) {
  if (req.path.startsWith('/admin')) return limits.admin
  const multipart = (req.headers['content-type'] ?? '').startsWith('multipart/form-data')
  return multipart && limits.receipt && RECEIPT_PAGES.test(req.path) ? limits.receipt : limits.store
}
/**
 * Refuses an oversized body with 413. A declared Content-Length over the limit is refused before
 * anything reads the body; a body without one (chunked) is counted as it streams in, and once past
 * the limit the reader (the app's form parsing) gets an error instead of more bytes.
 */
export function limitBodySize(
  limits: { store: number; admin: number; receipt?: number } = BODY_LIMITS,
): express.RequestHandler {
  return (req, res, next) => {
    const limit = bodyLimitOf(req, limits)
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      refuseTooLarge(res)
      return
    }
    // Every chunk reaches its readers through emit('data'): counting there sees what they see.
    const emit = req.emit.bind(req)
    let received = 0
    let refused = false
    req.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'data') {
        if (refused) return false
        received += (args[0] as { length: number }).length
        if (received > limit) {
          refused = true
          refuseTooLarge(res)
          if (req.listenerCount('error') > 0) emit('error', new Error(BODY_TOO_LARGE_MESSAGE))
          return false
        }
      }
      return emit(event, ...args)
    }) as typeof req.emit
    next()
  }
}

function refuseTooLarge(res: express.Response) {
  if (res.headersSent) return
  // The rest of the body is not read: close the connection after the answer.
  res.setHeader('Connection', 'close')
  res.status(413).type('text/plain; charset=utf-8').send(BODY_TOO_LARGE_MESSAGE)
}

export const BAD_URL_MESSAGE = 'La dirección no es válida: contiene un carácter no permitido.'

/**
 * The path as routes see it (decoded), or null when it cannot be decoded (`%ff`, a lone `%`, an
 * encoded surrogate).
 */
function decodedPath(req: express.Request): string | null {
  try {
    return decodeURIComponent(req.path)
  } catch {
    return null
  }
}

/**
 * A NUL byte (`%00`) anywhere in the path or query string names nothing of ours, and PostgreSQL
 * refuses it in any text; a path that does not decode names nothing either. One Spanish 400 here,
 * so no loader or action ever sees one (Express's own answer would be an English page).
 */
export function refuseBadUrl(): express.RequestHandler {
  return (req, res, next) => {
    if (!/%00/i.test(req.originalUrl) && decodedPath(req) !== null) {
      next()
      return
    }
    refuse(req, res, 400, 'Dirección no válida', BAD_URL_MESSAGE)
  }
}

export const LOCAL_SIGN_IN_ONLY_MESSAGE =
  'El inicio de sesión local solo atiende a esta misma máquina (localhost, 127.0.0.1 o [::1]).'

/**
 * Whether a request comes from this machine to a loopback name: the connection is local, no proxy
 * forwarded it from elsewhere (`req.ip`), and the Host header is a loopback name, so a web page on
 * another site that rebinds its name to 127.0.0.1 is not served either.
 */
export function isLocalClient(req: Pick<express.Request, 'socket' | 'ip' | 'headers'>): boolean {
  let host: string
  try {
    host = new URL(`http://${req.headers.host ?? ''}`).hostname
  } catch {
    return false
  }
  return isLoopbackAddress(req.socket.remoteAddress) && isLoopbackAddress(req.ip) && isLoopbackHost(host)
}

/**
 * The local sign-in provider lets anyone be anyone: under `paths` (compared as routes see them,
 * decoded and in any case, so `/login-admin/%63allback` is guarded too) it answers this machine only.
 */
export function localClientsOnly(paths: string[]): express.RequestHandler {
  const guarded = paths.map((p) => p.toLowerCase())
  return (req, res, next) => {
    const path = (decodedPath(req) ?? req.path).toLowerCase()
    const underGuard = guarded.some((p) => path === p || path.startsWith(`${p}/`))
    if (!underGuard || isLocalClient(req)) {
      next()
      return
    }
    res.status(403).type('text/plain; charset=utf-8').send(LOCAL_SIGN_IN_ONLY_MESSAGE)
  }
}

/** Hosts in REDIRECT_HOSTS (old hosting domains) move permanently to PUBLIC_URL. */
function redirectHosts(env: Env): express.RequestHandler {
  const hosts = new Set(env.REDIRECT_HOSTS.map((host) => host.toLowerCase()))
  return (req, res, next) => {
    if (hosts.size && hosts.has((req.hostname ?? '').toLowerCase())) {
      res.redirect(301, `${env.publicUrl}${req.originalUrl}`)
      return
    }
    next()
  }
}

/**
 * HSTS for a real deployment and for any shop published over https (a loopback https address,
 * e.g. a local certificate, is left alone so the browser does not pin localhost).
 */
export function sendsHsts(env: Pick<Env, 'APP_ENV' | 'publicUrl'>): boolean {
  return env.APP_ENV === 'production' || (isHttpsUrl(env.publicUrl) && !isLoopbackUrl(env.publicUrl))
}

/**
 * The headers of every answer, pages and static files alike: the Content-Security-Policy with a
 * fresh nonce (server/content-security-policy.ts; `res.locals.cspNonce` for the page), and the
 * browser's other protections.
 */
export function securityHeaders(env: Env, { dev = false } = {}): express.RequestHandler {
  const hsts = sendsHsts(env)
  const policy = setContentSecurityPolicy(policySources(env, { dev }))
  return (req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
    // Older browsers' form of the policy's `frame-ancestors 'none'`.
    res.setHeader('X-Frame-Options', 'DENY')
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()')
    if (hsts) {
      res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
    }
    policy(req, res, next)
  }
}
