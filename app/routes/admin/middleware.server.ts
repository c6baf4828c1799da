import type { MiddlewareFunction } from 'react-router'
import { isSafeMethod, requireAdmin, signedInAdminContext } from '#app/modules/auth/guard.server.ts'
import { roleMayOpen } from '#app/modules/auth/roles.ts'
import { adminScriptAnswer } from '#app/modules/auth/script-answer.server.ts'
import { TEAM_MESSAGES } from '#app/modules/auth/team.ts'
import { carriesFile } from '#app/modules/media/form-uploads.server.ts'
import { authOf, servicesOf } from '#app/services-context.server.ts'
import { jsonRefusalOf, refusedRequest, wantsJson } from '#app/utils/answer.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import { readFormData } from '#app/utils/forms.server.ts'
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
  return next()
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
  // A clone: the route reads the body itself. An unreadable one is the route's to refuse.
  const form = await readFormData(request.clone())
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
