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
  'invitacion-vencida':
    'Tu invitación venció. Pídele a un dueño de la tienda que te invite de nuevo desde "Usuarios".',
  'sesion-terminada': 'Se cerró tu sesión desde "Seguridad". Inicia sesión de nuevo.',
  'sesion-expirada': 'Tu sesión expiró. Inicia sesión de nuevo.',
  /** `{tiempo}`: the idle limit (12 horas), filled in by `noticeText`. */
  'sesion-inactiva': 'Tu sesión se cerró después de {tiempo} sin actividad. Inicia sesión de nuevo.',
  /** `{tiempo}`: the absolute limit (7 días), filled in by `noticeText`. */
  'sesion-vencida':
    'Tu sesión se cerró porque llegó a su duración máxima de {tiempo}. Inicia sesión de nuevo.',
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

/** What each limit's notice names: the session limits as they are now. */
export type NoticeLimits = { idleMs: number; absoluteMs: number }

export function noticeText(code: string | null, limits?: NoticeLimits): string | null {
  if (!code || !Object.hasOwn(NOTICES, code)) return null
  const text: string = NOTICES[code as NoticeCode]
  if (code === 'sesion-inactiva' || code === 'sesion-vencida') {
    // Without the limits there is no honest number to show: the general text says enough.
    if (!limits) return NOTICES['sesion-expirada']
    return text.replace(
      '{tiempo}',
      durationText(code === 'sesion-inactiva' ? limits.idleMs : limits.absoluteMs),
    )
  }
  return text
}

const UNITS = [
  { ms: 24 * 60 * 60 * 1000, one: 'día', many: 'días' },
  { ms: 60 * 60 * 1000, one: 'hora', many: 'horas' },
  { ms: 60 * 1000, one: 'minuto', many: 'minutos' },
] as const

/** A duration as people say it: "12 horas", "1 día y 12 horas", "2 horas y 30 minutos". */
export function durationText(ms: number): string {
  let rest = Math.max(Math.round(ms / 60_000), 1) * 60_000
  const parts: string[] = []
  for (const unit of UNITS) {
    const count = Math.floor(rest / unit.ms)
    rest -= count * unit.ms
    if (count) parts.push(`${count.toLocaleString('es-CO')} ${count === 1 ? unit.one : unit.many}`)
  }
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} y ${parts.at(-1)}` : parts[0]!
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
