import { matchPath, type ServerBuild } from 'react-router'
import type express from 'express'
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
export const CROSS_SITE_EXEMPT_PATHS = ['/api/webhooks/mercadopago']

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
 * Mercado Pago webhook is exempt (its requests carry their own signature).
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
