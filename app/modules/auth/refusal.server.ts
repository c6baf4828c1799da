import {
  loginPath,
  NOTICE_PARAM,
  NOTICES,
  safeReturnTo,
  UNAUTHORISED_MESSAGE,
  UNREADABLE_FORM_MESSAGE,
} from './messages.ts'

/** What a script client (fetch, XMLHttpRequest) gets instead of a redirect or an error page. */
export type JsonRefusal = { ok: false; message: string; signIn?: string }

function isThrownData(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'DataWithResponseInit'
  )
}

/**
 * For resource routes answered to scripts: turns what `requireAdmin` and `requireFormData` throw
 * into JSON `{ ok: false, message, signIn? }` with a Spanish message, instead of a redirect to the
 * sign-in page's HTML or React Router's English "Unexpected Server Error":
 * - no session or an expired one → 401, "Tu sesión expiró…", and `signIn`, the sign-in page that
 *   brings the admin back to the page the request came from;
 * - an e-mail no longer allowed → 403 with the spec §4 message and `signIn`;
 * - a refused post (anti-forgery) → 403, an unreadable form → 400, with their messages.
 * Anything else is thrown on.
 */
export function jsonRefusal(thrown: unknown, request: Request): Response {
  if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
    const location = thrown.headers.get('Location') ?? loginPath()
    const unauthorised = new URL(location, request.url).searchParams.get(NOTICE_PARAM) === 'no-autorizado'
    const headers = new Headers()
    for (const cookie of thrown.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
    const body: JsonRefusal = unauthorised
      ? { ok: false, message: UNAUTHORISED_MESSAGE, signIn: location }
      : {
          ok: false,
          message: NOTICES['sesion-expirada'],
          signIn: loginPath({ notice: 'sesion-expirada', returnTo: refererPath(request) }),
        }
    return Response.json(body, { status: unauthorised ? 403 : 401, headers })
  }
  if (isThrownData(thrown)) {
    const message = (thrown.data as { message?: unknown } | null)?.message
    const body: JsonRefusal = {
      ok: false,
      message: typeof message === 'string' ? message : UNREADABLE_FORM_MESSAGE,
    }
    return Response.json(body, { status: thrown.init?.status ?? 400 })
  }
  throw thrown
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
