import {
  FORBIDDEN_POST_MESSAGE,
  loginPath,
  NOTICE_PARAM,
  NOTICES,
  RETURN_PARAM,
  safeReturnTo,
  UNREADABLE_FORM_MESSAGE,
} from '#app/modules/auth/messages.ts'
import { PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import { ADMIN_PATH, LOGIN_PATH } from '#app/utils/paths.ts'

/** The product form's upload client: posts with progress and reads any answer as Spanish. */

export type SaveResult =
  { ok: true; sku: string; message: string } | { ok: false; message: string; signIn?: string }

/**
 * The outcome of a save as the server answered it: its own JSON `{ ok, message }` when there is
 * one (refusals included); otherwise a Spanish text for the status (a 413 from the body-size limit,
 * a proxy's error page, a sign-in page reached through a redirect).
 */
export function saveResultFrom(status: number, body: unknown, responseUrl = ''): SaveResult {
  const answer = body as Partial<SaveResult> | null
  if (answer && typeof answer === 'object' && typeof answer.message === 'string') {
    if (answer.ok === true && typeof answer.sku === 'string') {
      return { ok: true, sku: answer.sku, message: answer.message }
    }
    const signIn = (answer as { signIn?: unknown }).signIn
    return {
      ok: false,
      message: answer.message,
      ...(typeof signIn === 'string' && signIn.startsWith(LOGIN_PATH) ? { signIn } : {}),
    }
  }
  if (status === 401 || /\/login-admin(?:[?#]|$)/.test(responseUrl)) {
    return {
      ok: false,
      message: NOTICES['sesion-expirada'],
      signIn: loginPath({ notice: 'sesion-expirada' }),
    }
  }
  if (status === 403) return { ok: false, message: FORBIDDEN_POST_MESSAGE }
  if (status === 400) return { ok: false, message: UNREADABLE_FORM_MESSAGE }
  if (status === 413) return { ok: false, message: PRODUCT_MESSAGES.requestTooLarge }
  if (status === 0) return { ok: false, message: PRODUCT_MESSAGES.unreachable }
  return { ok: false, message: PRODUCT_MESSAGES.unexpected }
}

/** Posts the form with XMLHttpRequest, which (unlike fetch) reports upload progress. */
export function postWithProgress(
  url: string,
  body: FormData,
  csrf: string,
  onProgress: (fraction: number) => void,
) {
  return new Promise<SaveResult>((resolve) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url)
    xhr.setRequestHeader('X-CSRF-Token', csrf)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => resolve(saveResultFrom(xhr.status, xhr.response, xhr.responseURL))
    // The connection failed, or was closed by the server after a 413 before the answer was read.
    xhr.onerror = () => resolve(saveResultFrom(0, null))
    xhr.send(body)
  })
}

/** Where a sign-in link should bring the admin back to: this page. */
export function withReturn(signIn: string): string {
  const url = new URL(signIn, window.location.origin)
  if (!url.searchParams.has(RETURN_PARAM) && url.searchParams.get(NOTICE_PARAM) !== 'no-autorizado') {
    const here = safeReturnTo(window.location.pathname)
    if (here !== ADMIN_PATH) url.searchParams.set(RETURN_PARAM, here)
  }
  return url.pathname + url.search
}
