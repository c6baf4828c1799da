import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { auditChangesContext, type AuditChange } from '#app/modules/audit/changes.ts'
import { recordAdminWrite } from '#app/modules/audit/audit.server.ts'
import {
  isSafeMethod,
  requireAdmin,
  signedInAdminContext,
  signedInAdminOf,
} from '#app/modules/auth/guard.server.ts'
import { adminPageOf, roleMayOpen } from '#app/modules/auth/roles.ts'
import { adminScriptAnswer } from '#app/modules/auth/script-answer.server.ts'
import { TEAM_MESSAGES } from '#app/modules/auth/team.ts'
import { carriesFile } from '#app/modules/media/form-uploads.server.ts'
import { authOf, servicesOf } from '#app/services-context.server.ts'
import { jsonRefusalOf, refusedRequest, wantsJson } from '#app/utils/answer.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import { readFormData } from '#app/utils/forms.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { Refusal } from '#app/utils/refusal.ts'

/**
 * The back office's door, run once for every `/admin` request before any loader or action (the
 * admin layout's `middleware`): `requireAdmin` lets a team member in, within the session limits of
 * "Configuraciones", and puts them in the context (`signedInAdminOf`); anyone else goes to sign in,
 * and a post without the session's anti-forgery token is refused. A section the member's role may
 * not open (app/modules/auth/roles.ts) is refused with 403, loader and action alike. A script client (the product form's upload asks for JSON) is told
 * in JSON, with the way back in.
 */
export const requireAdminMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  try {
    const admin = await requireAdmin(authOf(context), request)
    // The role's permission table, for every loader and action under this address.
    if (!roleMayOpen(admin.role, new URL(request.url).pathname)) {
      throw refusedRequest(TEAM_MESSAGES.forbidden, 403)
    }
    context.set(signedInAdminContext, admin)
  } catch (thrown) {
    const answered = wantsJson(request) ? jsonRefusalOf(thrown, request, adminScriptAnswer) : undefined
    if (answered) return answered
    throw thrown
  }
  if (isSafeMethod(request)) return next()
  return auditedWrite(request, context, next)
}

/** The post's form as the admin middleware read it, so the next middleware need not read it again. */
const postedFormContext = createContext<FormData | null>(null)

/**
 * The HTTP status of what the action answered: a Response's, or (when a caller runs the action
 * without React Router around it) a `data(…, { status })`'s, 200 when it gave none.
 */
function answeredStatus(answer: unknown): number {
  if (answer instanceof Response) return answer.status
  return (answer as { init?: { status?: number } | null } | null)?.init?.status ?? 200
}

/**
 * Every back-office write goes to the audit log of "Seguridad" once the action has done it: who,
 * where and what was posted, with what the action noted as changed (before → after). A refused post
 * wrote nothing and is not logged.
 * A failure to record is logged and never turns a done change into an error.
 */
async function auditedWrite(
  request: Request,
  context: Readonly<RouterContextProvider>,
  next: () => Promise<Response>,
): Promise<Response> {
  const form = await readFormData(request.clone())
  context.set(postedFormContext, form)
  const changes: AuditChange[] = []
  context.set(auditChangesContext, changes)
  const response = await next()
  const status = answeredStatus(response)
  // A refused post changed nothing (the fuzz suite holds every refusal to that): nothing to log.
  if (status >= 400) return response
  const admin = signedInAdminOf(context)
  try {
    await recordAdminWrite(servicesOf(context).database.db, {
      actorEmail: admin.email,
      actorRole: admin.role,
      path: adminPageOf(new URL(request.url).pathname),
      form,
      changes,
      status,
      ipAddress: clientAddressOf(context),
    })
  } catch (error) {
    logger.error({ err: error }, '[auditoría] no se pudo registrar un cambio del back office')
  }
  return response
}

/**
 * Every back-office post that carries a file (each image or video is decoded and resized on the
 * server) takes one from the client's `upload` allowance before the route reads it; posts without a
 * file (prices, names) are not counted. Past the allowance the post is refused with the limit's
 * Spanish message and 429, nothing decoded or written.
 */
export const limitUploadsMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const type = request.headers.get('Content-Type') ?? ''
  if (isSafeMethod(request) || !type.startsWith('multipart/form-data')) return next()
  // Read once, by the audit above (a clone: the route reads the body itself). An unreadable one is
  // the route's to refuse.
  const form = context.get(postedFormContext) ?? (await readFormData(request.clone()))
  if (form && carriesFile(form)) {
    try {
      await servicesOf(context).rateLimits.require('upload', clientAddressOf(context))
    } catch (thrown) {
      if (!(thrown instanceof Refusal)) throw thrown
      const refused = refusedRequest(thrown.message, thrown.status)
      if (wantsJson(request)) return jsonRefusalOf(refused, request)!
      throw refused
    }
  }
  return next()
}
