import { randomUUID } from 'node:crypto'
import type express from 'express'
import type { Logger } from 'pino'
import { pinoHttp } from 'pino-http'
import { requestIds } from '#app/utils/logger.server.ts'

/** A request id a proxy or load balancer sent (X-Request-Id) is kept when it looks like one. */
const FORWARDED_REQUEST_ID = /^[\w.:-]{1,128}$/

/**
 * One JSON line per answered request, and the request's id on every line logged while it is
 * served (and in the X-Request-Id answer header). Only what tracing needs: method, path without the
 * query string (searches and payment returns carry the shopper's words and ids there), status and
 * time; no address, headers or cookies. Health checks are not logged.
 */
export function requestLogging(log: Logger): express.RequestHandler {
  const logRequest = pinoHttp({
    logger: log,
    genReqId(req, res) {
      const forwarded = req.headers['x-request-id']
      const id =
        typeof forwarded === 'string' && FORWARDED_REQUEST_ID.test(forwarded) ? forwarded : randomUUID()
      res.setHeader('X-Request-Id', id)
      return id
    },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
  })
  return (req, res, next) => {
    logRequest(req, res)
    requestIds.run(String(req.id), next)
  }
}
