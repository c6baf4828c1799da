import { matchPath, type ServerBuild } from 'react-router'
import type express from 'express'
import type { Logger } from 'pino'
import type { Env } from '#app/utils/env.server.ts'

/**
 * Request guards that sit in front of the app (server/app.ts mounts them): each a middleware of its
 * own that answers in Spanish, as the rest of the shop does.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * A refusal as the client reads it: JSON `{ ok: false, message }` (the shape of every API refusal)
 * under /api/, in any case as the router matches it, else a small page.
 */
export function refuse(
  req: express.Request,
  res: express.Response,
  status: number,
  title: string,
  message: string,
) {
  res.status(status)
  if (/^\/api\//i.test(req.path)) {
    res.json({ ok: false, message })
    return
  }
  res
    .type('html')
    .send(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Volver a la tienda</a></p></body></html>`,
    )
}

export const CROSS_SITE_MESSAGE =
  'No aceptamos este envío porque viene de otro sitio. Abre la tienda y vuelve a intentarlo desde allí.'

/** Posts from other services, signed their own way, that no browser sends. */
export const CROSS_SITE_EXEMPT_PATHS = ['/api/webhooks/mercadopago', '/api/webhooks/wompi']

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Whether a browser says a request comes from a page of another site: `Sec-Fetch-Site: cross-site`,
 * or an `Origin` that is neither the shop's (PUBLIC_URL) nor the address the request came to
 * (`null`, sent by sandboxed frames and after cross-site redirects, included). A client that sends
 * neither header (no browser posts without `Origin` nowadays) is left to the routes' own checks.
 */
export function isCrossSite(
  headers: { origin?: string; 'sec-fetch-site'?: string },
  ownOrigins: string[],
): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return true
  const origin = headers.origin
  return origin !== undefined && !ownOrigins.includes(origin.toLowerCase())
}

/**
 * Refuses (403, in Spanish) a state-changing request (POST, PUT, PATCH, DELETE) that a page of
 * another site sent, before any route reads it: no form of ours is posted from elsewhere. The
 * Mercado Pago and Wompi webhooks are exempt (their requests carry their own signatures).
 */
export function refuseCrossSiteWrites(env: Pick<Env, 'publicUrl'>): express.RequestHandler {
  const shopOrigin = new URL(env.publicUrl).origin.toLowerCase()
  return (req, res, next) => {
    if (!STATE_CHANGING.has(req.method) || CROSS_SITE_EXEMPT_PATHS.includes(req.path.toLowerCase())) {
      next()
      return
    }
    const ownOrigin = `${req.protocol}://${req.get('host') ?? ''}`.toLowerCase()
    if (!isCrossSite(req.headers as Record<string, string>, [shopOrigin, ownOrigin])) {
      next()
      return
    }
    refuse(req, res, 403, 'Envío no aceptado', CROSS_SITE_MESSAGE)
  }
}

/** What the shop answers: pages and their forms (the app's routes use nothing else). */
export const SERVED_METHODS = ['GET', 'HEAD', 'POST'] as const
const SERVED = new Set<string>(SERVED_METHODS)

export const METHOD_NOT_ALLOWED_MESSAGE =
  'La tienda no atiende solicitudes de este tipo. Abre la página desde el navegador.'

/**
 * Any method but GET, HEAD and POST is a Spanish 405 with `Allow`, before the app sees it: the
 * fetch API the router adapter builds its request with throws on TRACE (an English 500 with a stack
 * trace in the log), and React Router answers the rest (PROPFIND, PUT…) with a 405 page after
 * printing a stack trace of its own. (Node answers methods its parser does not know, and drops
 * CONNECT, before Express.) OPTIONS, which asks what is allowed, gets a 204
 * with `Allow` and no body (no CORS headers: no other site may call the shop).
 */
export function answerOtherMethods(): express.RequestHandler {
  const allow = SERVED_METHODS.join(', ')
  return (req, res, next) => {
    if (SERVED.has(req.method)) {
      next()
      return
    }
    res.setHeader('Allow', allow)
    if (req.method === 'OPTIONS') {
      res.status(204).end()
      return
    }
    refuse(req, res, 405, 'Solicitud no atendida', METHOD_NOT_ALLOWED_MESSAGE)
  }
}

/**
 * The URL `@react-router/express` (7.18.4, `createRemixRequest`) gives the app's Request, built the
 * same way: scheme from `req.protocol` (X-Forwarded-Proto from a trusted proxy), host name from
 * `req.hostname` (X-Forwarded-Host from a trusted proxy), the port from X-Forwarded-Host whenever
 * `trust proxy` is on at all, else from Host. Null where the adapter's `new URL` would throw (a
 * Host such as `a b` or `x:99999`, an absolute-form request target): there it answers an English
 * 500.
 */
export function appRequestUrl(req: express.Request): URL | null {
  if (typeof req.hostname !== 'string') return null
  const [, forwardedPort] = req.app?.enabled('trust proxy')
    ? (req.get('X-Forwarded-Host')?.split(':') ?? [])
    : []
  const [, hostPort] = req.get('host')?.split(':') ?? []
  const fromForwarded = Number.parseInt(forwardedPort ?? '', 10)
  const fromHost = Number.parseInt(hostPort ?? '', 10)
  const port = Number.isSafeInteger(fromForwarded)
    ? fromForwarded
    : Number.isSafeInteger(fromHost)
      ? fromHost
      : ''
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || 'localhost'
  try {
    return new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ''}${req.originalUrl}`)
  } catch {
    return null
  }
}

export const BAD_HOST_MESSAGE = 'La solicitud no indica una dirección válida de la tienda.'

/** A request whose address the app could not even build (see `appRequestUrl`) is a Spanish 400. */
export function refuseUnaddressable(): express.RequestHandler {
  return (req, res, next) => {
    if (appRequestUrl(req)) {
      next()
      return
    }
    refuse(req, res, 400, 'Dirección no válida', BAD_HOST_MESSAGE)
  }
}

export const MISADDRESSED_WRITE_MESSAGE =
  'No pudimos recibir este envío porque llegó a la tienda por una dirección distinta de la que muestra tu navegador. Recarga la página e inténtalo de nuevo.'

/**
 * What the owner reads in the log when forms are refused because the address the browser shows
 * (Origin) is not the one the app sees: one line per cause, naming the header to fix.
 */
export function misaddressedWriteWarning(
  req: express.Request,
  origin: URL,
  seen: URL,
  cause: 'protocol' | 'host',
): string {
  const untrusted =
    'llega desde una dirección que no es de confianza (solo se aceptan proxies en loopback, link-local o una red privada: trust proxy en server/index.js)'
  const first = (name: string) => req.get(name)?.split(',')[0]?.trim()
  const proto = first('X-Forwarded-Proto')
  const host = first('X-Forwarded-Host')
  let detail: string
  if (cause === 'protocol') {
    const wanted = origin.protocol.slice(0, -1)
    detail = !proto
      ? `el proxy no envía "X-Forwarded-Proto: ${wanted}" (nginx: proxy_set_header X-Forwarded-Proto $scheme;)`
      : req.protocol === proto
        ? `el proxy envía "X-Forwarded-Proto: ${proto}" y el navegador usa ${wanted}`
        : `el proxy envía X-Forwarded-Proto, pero ${untrusted}`
  } else {
    detail = !host
      ? `el proxy no conserva el encabezado Host (${origin.host}) ni envía X-Forwarded-Host (nginx: proxy_set_header Host $host;)`
      : req.hostname === host.split(':')[0]
        ? `el proxy envía "X-Forwarded-Host: ${host}" y el navegador usa ${origin.host}`
        : `el proxy envía X-Forwarded-Host, pero ${untrusted}`
  }
  return (
    `[proxy] Se rechazan los formularios: el navegador los envía desde ${origin.origin} y la tienda ` +
    `recibe la solicitud como ${seen.origin}, porque ${detail}. Corrige la configuración del proxy ` +
    `delante de la tienda (PUBLIC_URL es la dirección pública). Este aviso se muestra una vez por proceso.`
  )
}

/**
 * Whether the request reached the app through an address `trust proxy` trusts (server/index.js:
 * loopback, link-local or a private network), i.e. a proxy in front of the shop rather than a client
 * connected directly.
 */
function fromTrustedProxy(req: express.Request): boolean {
  const trusts: unknown = req.app?.get('trust proxy fn')
  const peer = req.socket?.remoteAddress
  return typeof trusts === 'function' && peer !== undefined && Boolean(trusts(peer, 0))
}

/**
 * Whether a mismatch of `cause` points at the proxy in front of the shop rather than at the client:
 * the request came through a trusted proxy, or what it does carry would otherwise match PUBLIC_URL
 * (the shop's own host over the wrong scheme: a TLS proxy without X-Forwarded-Proto; a forwarded
 * scheme or host that is PUBLIC_URL's, from a proxy outside the trusted addresses).
 */
function isProxyProblem(req: express.Request, shop: URL, seen: URL, cause: 'protocol' | 'host'): boolean {
  if (fromTrustedProxy(req)) return true
  const first = (name: string) => req.get(name)?.split(',')[0]?.trim().toLowerCase()
  return cause === 'protocol'
    ? seen.host === shop.host || first('X-Forwarded-Proto') === shop.protocol.slice(0, -1)
    : first('X-Forwarded-Host') === shop.host
}

/**
 * React Router refuses a form post whose Origin is not the origin of the URL the app sees (its own
 * CSRF check) with an English "Bad Request" and a stack trace in the log. A post from the shop's
 * own address gets there when a proxy does not say how it was reached (no X-Forwarded-Proto behind
 * TLS, a rewritten Host) or when the Host was changed. Here it is refused first (400, in Spanish),
 * for every route. When the proxy is to blame (`isProxyProblem`) the owner is told once per process
 * and cause what to fix; a client that made up its own Host is only refused (a debug line), so it
 * cannot use up the warning a real misconfiguration needs later. Cross-site posts never get here
 * (`refuseCrossSiteWrites` runs first); a post without Origin is the routes' to judge.
 */
export function refuseMisaddressedWrites(
  env: Pick<Env, 'publicUrl'>,
  log: Pick<Logger, 'warn' | 'debug'>,
): express.RequestHandler {
  const shop = new URL(env.publicUrl)
  const warned = new Set<string>()
  return (req, res, next) => {
    const header = req.get('Origin')
    if (
      !STATE_CHANGING.has(req.method) ||
      header === undefined ||
      CROSS_SITE_EXEMPT_PATHS.includes(req.path.toLowerCase())
    ) {
      next()
      return
    }
    const seen = appRequestUrl(req)
    const origin = URL.canParse(header) ? new URL(header) : null
    if (seen && origin && origin.origin === seen.origin) {
      next()
      return
    }
    if (seen && origin) {
      const causes = [
        ...(origin.protocol !== seen.protocol ? (['protocol'] as const) : []),
        ...(origin.host !== seen.host ? (['host'] as const) : []),
      ]
      const blamed = causes.filter((cause) => isProxyProblem(req, shop, seen, cause))
      if (blamed.length === 0) {
        log.debug(
          `[proxy] Envío rechazado sin aviso: el navegador lo envía desde ${origin.origin} y la tienda lo ` +
            `recibe como ${seen.origin}, con la dirección que dio el propio cliente (no un proxy).`,
        )
      }
      for (const cause of blamed) {
        if (warned.has(cause)) continue
        warned.add(cause)
        log.warn(misaddressedWriteWarning(req, origin, seen, cause))
      }
    }
    refuse(req, res, 400, 'Envío no aceptado', MISADDRESSED_WRITE_MESSAGE)
  }
}

export const MEDIA_NOT_FOUND_MESSAGE = 'Ese archivo no existe o ya no está disponible.'
export const MEDIA_UNAVAILABLE_MESSAGE = 'No pudimos leer ese archivo. Inténtalo de nuevo en un momento.'

/**
 * Errors of the media files' static handler (a missing file, a directory, a bad range) answered
 * as plain Spanish text instead of Express's English error page, with the error's own status.
 */
export function mediaErrors(): express.ErrorRequestHandler {
  return (error: { status?: number; statusCode?: number }, _req, res, next) => {
    if (res.headersSent) {
      next(error)
      return
    }
    const status = error.status ?? error.statusCode ?? 500
    const message = status >= 500 ? MEDIA_UNAVAILABLE_MESSAGE : MEDIA_NOT_FOUND_MESSAGE
    res.status(status === 403 ? 404 : status)
    res.setHeader('Cache-Control', 'no-store')
    res.type('text/plain; charset=utf-8').send(message)
  }
}

export const ACTION_ONLY_MESSAGE =
  'Esta dirección solo recibe envíos de formularios de la tienda; no se puede abrir directamente.'

/** The full paths of the routes that only take posts: an action, no loader, no page. */
export function actionOnlyPaths(routes: ServerBuild['routes']): string[] {
  const fullPath = (id: string): string => {
    const route = routes[id]
    if (!route) return ''
    const parent = route.parentId ? fullPath(route.parentId) : ''
    return [parent, route.path ?? ''].filter(Boolean).join('/')
  }
  return Object.values(routes)
    .filter((route) => route && route.module.action && !route.module.loader && !route.module.default)
    .map((route) => `/${fullPath(route!.id)}`.replace(/\/+/g, '/'))
}

/**
 * A GET (or HEAD) of a route that only takes posts is a Spanish 405 with `Allow: POST`, instead of
 * React Router's "Unexpected Server Error". The routes are read from the build (`build` is called
 * per request in development, where route modules reload).
 */
export function answerActionOnlyRoutes(
  build: ServerBuild | (() => Promise<ServerBuild>),
): express.RequestHandler {
  const paths: string[] | null = typeof build === 'function' ? null : actionOnlyPaths(build.routes)
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next()
      return
    }
    try {
      const current = paths ?? actionOnlyPaths((await (build as () => Promise<ServerBuild>)()).routes)
      if (!current.some((path) => matchPath({ path, end: true }, req.path))) {
        next()
        return
      }
    } catch (error) {
      next(error)
      return
    }
    res.setHeader('Allow', 'POST')
    refuse(req, res, 405, 'Dirección solo para envíos', ACTION_ONLY_MESSAGE)
  }
}
