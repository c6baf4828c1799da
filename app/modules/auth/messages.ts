/**
 * Texts of the sign-in screens. The sign-in page receives a short code in the query string
 * (`?aviso=` or `?error=`) and shows the matching fixed text, so a crafted link cannot put
 * arbitrary words on the page.
 */
import { LOGIN_PATH } from '#app/utils/paths.ts'

/** Spec §4: a signed-in user whose e-mail is not on the allow-list. */
export const UNAUTHORISED_MESSAGE =
  'No estás autorizado para acceder a esta página. Intenta con un correo valido o ponte en contacto con el administrador.'

export const NOTICES = {
  'no-autorizado': UNAUTHORISED_MESSAGE,
  'sesion-cerrada': 'Cerraste sesión.',
  'sesion-expirada': 'Tu sesión expiró. Inicia sesión de nuevo.',
} as const

export const ERRORS = {
  cancelado: 'Cancelaste el inicio de sesión. Inténtalo de nuevo cuando quieras.',
  proveedor: 'No se pudo iniciar sesión con Google. Intenta de nuevo en un momento.',
  vencido: 'El intento de inicio de sesión venció o no es válido. Intenta de nuevo.',
  /** `{tienda}`: the shop's address (PUBLIC_URL), filled in by `errorText`. */
  'sin-inicio':
    'Este navegador no tiene el inicio de sesión que empezaste: pasa cuando se empieza en una dirección ' +
    '(por ejemplo 127.0.0.1) y se vuelve por otra (localhost), o cuando las cookies están bloqueadas. ' +
    'Entra por {tienda}/login-admin e intenta de nuevo.',
} as const

export type NoticeCode = keyof typeof NOTICES
export type ErrorCode = keyof typeof ERRORS

// The generic form text lives with the form helpers (utils); admin code finds it here too.
export { UNREADABLE_FORM_MESSAGE } from '#app/utils/form-messages.ts'

/** Link text next to a "sign in again" message. */
export const SIGN_IN_AGAIN_LABEL = 'Iniciar sesión'

/** Shown when an admin form is posted without a valid anti-forgery token or from another site. */
export const FORBIDDEN_POST_MESSAGE =
  'No pudimos verificar el envío del formulario. Recarga la página e inténtalo de nuevo.'

export function noticeText(code: string | null): string | null {
  return code && Object.hasOwn(NOTICES, code) ? NOTICES[code as NoticeCode] : null
}

export function errorText(code: string | null, publicUrl: string): string | null {
  return code && Object.hasOwn(ERRORS, code) ? ERRORS[code as ErrorCode].replace('{tienda}', publicUrl) : null
}

/** Query-string names used between the auth code and the sign-in page. */
export const NOTICE_PARAM = 'aviso'
export const ERROR_PARAM = 'error'
/** The admin page to come back to after signing in. */
export const RETURN_PARAM = 'volver'

export function loginPath(params: { notice?: NoticeCode; error?: ErrorCode; returnTo?: string } = {}) {
  const search = new URLSearchParams()
  if (params.notice) search.set(NOTICE_PARAM, params.notice)
  if (params.error) search.set(ERROR_PARAM, params.error)
  if (params.returnTo && params.returnTo !== '/admin') search.set(RETURN_PARAM, params.returnTo)
  const query = search.toString()
  return query ? `${LOGIN_PATH}?${query}` : LOGIN_PATH
}

/** Only a path inside the admin area is a valid place to come back to (no open redirects). */
export function safeReturnTo(value: string | null | undefined): string {
  // A path of the admin area in printable ASCII only: no other site, no header-breaking characters.
  if (!value || !/^\/admin(?:[/?#][\x21-\x7e]*)?$/.test(value) || value.includes('\\')) return '/admin'
  return value
}
