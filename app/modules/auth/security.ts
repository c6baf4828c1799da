/** "Seguridad": its words and page size, shared by the page and the server. */

export const SIGN_IN_PAGE_SIZE = 50

export const SECURITY_MESSAGES = {
  sessionClosed: 'Cerramos esa sesión.',
  sessionsClosed: (count: number, email: string) =>
    count === 1
      ? `Cerramos 1 sesión de ${email}.`
      : `Cerramos ${count.toLocaleString('es-CO')} sesiones de ${email}.`,
  noSessions: (email: string) => `${email} no tenía otras sesiones abiertas.`,
  sessionGone: 'Esa sesión ya estaba cerrada. Recarga la página.',
  notYours: 'Solo un dueño puede cerrar las sesiones de otra persona.',
  badRequest: 'No entendimos qué sesión cerrar. Recarga la página e inténtalo de nuevo.',
} as const

export const SIGN_IN_OUTCOMES: Record<string, string> = {
  ok: 'Entró',
  'no-autorizado': 'Rechazado: no está en el equipo',
  'invitacion-vencida': 'Rechazado: invitación vencida',
}
