import type { ScriptAnswer } from '#app/utils/answer.server.ts'
import { LOGIN_PATH } from '#app/utils/paths.ts'
import { loginPath, NOTICE_PARAM, NOTICES, safeReturnTo, UNAUTHORISED_MESSAGE } from './messages.ts'

/** What a script client (fetch, XMLHttpRequest) gets instead of a redirect to the sign-in page. */
export type SignInRefusal = { ok: false; message: string; signIn: string }

/**
 * For resource routes answered to scripts, given to `jsonFailure`: words `requireAdmin`'s redirect
 * to the sign-in page as JSON `{ ok: false, message, signIn }` in Spanish (the anti-forgery and
 * unreadable-form refusals are `refusedRequest`s, which `jsonFailure` answers itself):
 * - no session or an expired one → 401, "Tu sesión expiró…", and `signIn`, the sign-in page that
 *   brings the admin back to the page the request came from;
 * - an e-mail no longer allowed → 403 with the spec §4 message and `signIn`.
 * Any other response is not the guard's: `undefined`.
 */
export const adminScriptAnswer: ScriptAnswer = (thrown, request) => {
  if (thrown.status < 300 || thrown.status >= 400) return undefined
  const location = thrown.headers.get('Location') ?? loginPath()
  const target = new URL(location, request.url)
  if (target.pathname !== LOGIN_PATH) return undefined
  const unauthorised = target.searchParams.get(NOTICE_PARAM) === 'no-autorizado'
  const headers = new Headers()
  for (const cookie of thrown.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
  const body: SignInRefusal = unauthorised
    ? { ok: false, message: UNAUTHORISED_MESSAGE, signIn: location }
    : {
        ok: false,
        message: NOTICES['sesion-expirada'],
        signIn: loginPath({ notice: 'sesion-expirada', returnTo: refererPath(request) }),
      }
  return Response.json(body, { status: unauthorised ? 403 : 401, headers })
}

/** The admin page a same-origin request came from (browsers send it as Referer), if any. */
function refererPath(request: Request): string | undefined {
  const referer = request.headers.get('Referer')
  if (!referer) return undefined
  try {
    const url = new URL(referer)
    if (url.origin !== new URL(request.url).origin) return undefined
    const path = safeReturnTo(url.pathname + url.search)
    return path === '/admin' ? undefined : path
  } catch {
    return undefined
  }
}
