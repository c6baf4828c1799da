/**
 * "Usuarios": the words and the form of the team page, shared by the page and the server (nothing
 * server-only here).
 */
import { z } from 'zod'
import { isRole, ROLE_LABELS, type Role } from './roles.ts'

/** An invitation lets its address sign in for the first time within this long. */
export const INVITATION_DAYS = 7
export const INVITATION_MS = INVITATION_DAYS * 24 * 60 * 60 * 1000

export const TEAM_INTENTS = {
  invite: 'invitar',
  changeRole: 'cambiar-rol',
  remove: 'quitar',
} as const

export const TEAM_MESSAGES = {
  email: 'Escribe un correo válido, por ejemplo nombre@gmail.com.',
  role: 'Elige un rol: Dueño, Ventas o Bodega.',
  invited: (email: string) =>
    `Invitamos a ${email}. Tiene ${INVITATION_DAYS} días para entrar con ese correo en la página de inicio de sesión.`,
  invitedAgain: (email: string) => `Renovamos la invitación de ${email} por ${INVITATION_DAYS} días más.`,
  alreadyMember: (email: string) => `${email} ya es parte del equipo: cambia su rol en la lista.`,
  fixedOwner: (email: string) =>
    `${email} es dueño por la configuración del servidor (ADMIN_EMAILS): no se cambia ni se quita desde aquí.`,
  yourself: 'No puedes cambiar tu propio rol ni quitarte del equipo: pídeselo a otro dueño.',
  notFound: 'Esa persona ya no está en el equipo. Recarga la página.',
  roleChanged: (email: string, role: Role) => `${email} ahora tiene el rol ${ROLE_LABELS[role]}.`,
  removed: (email: string) => `Quitamos a ${email} del equipo y cerramos sus sesiones.`,
  badRequest: 'No entendimos qué cambio pedías. Recarga la página e inténtalo de nuevo.',
  forbidden: 'Tu rol no permite ver esta sección. Si la necesitas, pídele acceso a un dueño de la tienda.',
  forbiddenAction: 'Tu rol no permite hacer esto. Si lo necesitas, pídele acceso a un dueño de la tienda.',
} as const

const emailField = z
  .string({ message: TEAM_MESSAGES.email })
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: TEAM_MESSAGES.email }).max(254, { message: TEAM_MESSAGES.email }))

const roleField = z.string({ message: TEAM_MESSAGES.role }).refine(isRole, { message: TEAM_MESSAGES.role })

export const InviteMemberSchema = z.object({ email: emailField, role: roleField })
export const ChangeRoleSchema = z.object({ email: emailField, role: roleField })
export const RemoveMemberSchema = z.object({ email: emailField })

/** A member's standing as the list shows it. */
export type MemberState = 'fixed-owner' | 'active' | 'invited' | 'invitation-expired'

export const MEMBER_STATE_LABELS: Record<MemberState, string> = {
  'fixed-owner': 'Dueño por configuración',
  active: 'Activo',
  invited: 'Invitación pendiente',
  'invitation-expired': 'Invitación vencida',
}
