import { useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  ActionMessage,
  dangerButtonClass,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
import { noteAuditChanges } from '#app/modules/audit/changes.ts'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES, type Role } from '#app/modules/auth/roles.ts'
import {
  changeMemberRole,
  inviteMember,
  listTeam,
  removeMember,
  type TeamMember,
} from '#app/modules/auth/team.server.ts'
import { MEMBER_STATE_LABELS, TEAM_INTENTS, TEAM_MESSAGES, type MemberState } from '#app/modules/auth/team.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { readActionAnswer, successAnswer } from '#app/utils/action-answer.ts'
import { ADMIN_TEAM_PATH } from '#app/utils/admin-paths.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { LOGIN_PATH } from '#app/utils/paths.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/team'

/** /admin/usuarios: the team, each member's role, and invitations (owners only: roles.ts). */

export const meta: Route.MetaFunction = () => [{ title: 'Usuarios | Administración' }]

const UNEXPECTED = 'No se pudo guardar el cambio del equipo. Intenta de nuevo en un momento.'

export async function loader({ context }: Route.LoaderArgs) {
  const { database, adminAuth, env } = servicesOf(context)
  const admin = signedInAdminOf(context)
  return {
    team: await listTeam(database.db, adminAuth!.config),
    you: admin.email,
    signInUrl: `${env.publicUrl}${LOGIN_PATH}`,
  }
}

/** POST intent=invitar|cambiar-rol|quitar: one change to the team, refused in Spanish when wrong. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await requireFormData(request)
  const { database, adminAuth } = servicesOf(context)
  const config = adminAuth!.config
  const actor = signedInAdminOf(context).email
  const intent = form.get('intent')
  try {
    switch (intent) {
      case TEAM_INTENTS.invite: {
        const { email, renewed, role, before } = await inviteMember(database.db, config, actor, form)
        noteRole(context, email, before, role)
        return successAnswer(renewed ? TEAM_MESSAGES.invitedAgain(email) : TEAM_MESSAGES.invited(email), {
          intent,
        })
      }
      case TEAM_INTENTS.changeRole: {
        const { email, role, before } = await changeMemberRole(database.db, config, actor, form)
        noteRole(context, email, before, role)
        return successAnswer(TEAM_MESSAGES.roleChanged(email, role), { intent })
      }
      case TEAM_INTENTS.remove: {
        const { email, before } = await removeMember(database.db, config, actor, form)
        noteRole(context, email, before, null)
        return successAnswer(TEAM_MESSAGES.removed(email), { intent })
      }
      default:
        throw new Refusal(TEAM_MESSAGES.badRequest, { status: 400, standsAlone: true })
    }
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: UNEXPECTED }, { intent, values: valuesOf(form) })
  }
}

/** The role's change, for the audit log of "Seguridad" (an invitation pending shows as its role). */
function noteRole(
  context: Route.ActionArgs['context'],
  email: string,
  before: Role | null,
  after: Role | null,
) {
  const label = (role: Role | null) => (role ? ROLE_LABELS[role] : null)
  noteAuditChanges(context, [{ subject: email, label: 'Rol', before: label(before), after: label(after) }])
}

const valuesOf = (form: FormData) => ({
  email: String(form.get('email') ?? ''),
  role: String(form.get('role') ?? ''),
})

const STATE_CLASSES: Record<MemberState, string> = {
  'fixed-owner': 'bg-brand-100 text-brand-800',
  active: 'bg-green-100 text-green-800',
  invited: 'bg-sky-100 text-sky-800',
  'invitation-expired': 'bg-gray-200 text-gray-800',
}

/** What the owner sends the invited person: where to sign in, and with which address. */
export function invitationText(member: Pick<TeamMember, 'email' | 'role'>, signInUrl: string) {
  return (
    `Hola. Te invité al equipo de la tienda con el rol ${ROLE_LABELS[member.role]}. ` +
    `Entra en ${signInUrl} con tu cuenta ${member.email}.`
  )
}

function RoleSelect({ name, defaultValue, id }: { name: string; defaultValue: string; id: string }) {
  return (
    <select id={id} name={name} defaultValue={defaultValue} className={inputClass}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </select>
  )
}

function InviteForm({ values }: { values?: { email?: string; role?: string } }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === TEAM_INTENTS.invite
  return (
    <AdminForm
      method="post"
      action={ADMIN_TEAM_PATH}
      className="flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 sm:flex-row sm:items-end"
      aria-label="Invitar al equipo"
    >
      <input type="hidden" name="intent" value={TEAM_INTENTS.invite} />
      <div className="flex-1">
        <label htmlFor="invite-email" className={labelClass}>
          Correo (Google)
        </label>
        <input
          id="invite-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="off"
          required
          defaultValue={values?.email ?? ''}
          placeholder="nombre@gmail.com"
          className={inputClass}
        />
      </div>
      <div className="sm:w-44">
        <label htmlFor="invite-role" className={labelClass}>
          Rol
        </label>
        <RoleSelect id="invite-role" name="role" defaultValue={values?.role || 'sales'} />
      </div>
      <button type="submit" className={primaryButtonClass} disabled={busy}>
        Invitar
      </button>
    </AdminForm>
  )
}

function MemberActions({ member, you, signInUrl }: { member: TeamMember; you: string; signInUrl: string }) {
  if (member.state === 'fixed-owner' || member.email === you) {
    return (
      <p className="text-xs text-gray-600">
        {member.email === you ? 'Eres tú.' : 'Se cambia en la configuración del servidor (ADMIN_EMAILS).'}
      </p>
    )
  }
  const invitation = invitationText(member, signInUrl)
  return (
    <div className="flex flex-col gap-2">
      <AdminForm method="post" action={ADMIN_TEAM_PATH} className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value={TEAM_INTENTS.changeRole} />
        <input type="hidden" name="email" value={member.email} />
        <div className="w-36">
          <label htmlFor={`role-${member.email}`} className="sr-only">
            Rol de {member.email}
          </label>
          <RoleSelect id={`role-${member.email}`} name="role" defaultValue={member.role} />
        </div>
        <button
          type="submit"
          className={secondaryButtonClass}
          aria-label={`Cambiar el rol de ${member.email}`}
        >
          Cambiar rol
        </button>
      </AdminForm>
      <div className="flex flex-wrap gap-2">
        {member.state === 'active' ? null : (
          <>
            <a
              className={secondaryButtonClass}
              href={`https://wa.me/?text=${encodeURIComponent(invitation)}`}
              target="_blank"
              rel="noreferrer"
            >
              Enviar invitación por WhatsApp
            </a>
            <a
              className={secondaryButtonClass}
              href={`mailto:${member.email}?subject=${encodeURIComponent('Invitación al equipo de la tienda')}&body=${encodeURIComponent(invitation)}`}
            >
              Enviar por correo
            </a>
            {member.state === 'invitation-expired' ? (
              <AdminForm method="post" action={ADMIN_TEAM_PATH}>
                <input type="hidden" name="intent" value={TEAM_INTENTS.invite} />
                <input type="hidden" name="email" value={member.email} />
                <input type="hidden" name="role" value={member.role} />
                <button
                  type="submit"
                  className={secondaryButtonClass}
                  aria-label={`Renovar la invitación de ${member.email}`}
                >
                  Renovar invitación
                </button>
              </AdminForm>
            ) : null}
          </>
        )}
        <AdminForm
          method="post"
          action={ADMIN_TEAM_PATH}
          onSubmit={(event) => {
            if (!window.confirm(removeConfirm(member.email))) event.preventDefault()
          }}
        >
          <input type="hidden" name="intent" value={TEAM_INTENTS.remove} />
          <input type="hidden" name="email" value={member.email} />
          <button type="submit" className={dangerButtonClass} aria-label={`Quitar a ${member.email}`}>
            Quitar
          </button>
        </AdminForm>
      </div>
    </div>
  )
}

export const removeConfirm = (email: string) =>
  `¿Quitar a ${email} del equipo? Sus sesiones abiertas se cierran de inmediato.`

function whenText(member: TeamMember): string {
  if (member.state === 'invited' && member.invitationExpiresAt) {
    return `La invitación vence el ${formatOrderDate(member.invitationExpiresAt)}`
  }
  if (member.state === 'invitation-expired' && member.invitationExpiresAt) {
    return `La invitación venció el ${formatOrderDate(member.invitationExpiresAt)}`
  }
  if (member.lastSeenAt) return `Último uso: ${formatOrderDate(member.lastSeenAt)}`
  return 'Sin sesiones abiertas'
}

export default function AdminTeam({ loaderData, actionData }: Route.ComponentProps) {
  const { team, you, signInUrl } = loaderData
  const answer = readActionAnswer(actionData)
  const refusedInvite =
    actionData && !actionData.ok && (actionData as { intent?: unknown }).intent === TEAM_INTENTS.invite
  return (
    <section aria-labelledby="team-title" className="flex flex-col gap-4">
      <h1 id="team-title" className="text-2xl font-semibold">
        Usuarios
      </h1>
      <p className="text-sm text-gray-700">
        Invita a quien trabaja contigo: entra con su cuenta de Google en {signInUrl} dentro de los 7 días
        siguientes. Cada rol ve y hace solo lo suyo.
      </p>
      <ActionMessage answer={actionData} />
      <InviteForm
        key={answer.nonce === undefined ? 'invite' : String(answer.nonce)}
        values={
          refusedInvite ? (actionData as { values?: { email?: string; role?: string } }).values : undefined
        }
      />
      <dl className="grid gap-2 text-sm sm:grid-cols-3" aria-label="Qué puede hacer cada rol">
        {ROLES.map((role: Role) => (
          <div key={role} className="rounded-lg border border-brand-100 bg-white p-3">
            <dt className="font-semibold">{ROLE_LABELS[role]}</dt>
            <dd className="text-gray-700">{ROLE_DESCRIPTIONS[role]}</dd>
          </div>
        ))}
      </dl>
      <ul className="flex flex-col gap-3" data-testid="team-list">
        {team.map((member) => (
          <li
            key={member.email}
            data-testid="team-member"
            data-email={member.email}
            className="flex flex-col gap-3 rounded-xl border border-brand-100 bg-white p-4 shadow-sm md:flex-row md:items-start md:justify-between"
          >
            <div className="min-w-0">
              <p className="font-medium break-words">{member.email}</p>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
                <span data-testid="member-role" className="font-semibold">
                  {ROLE_LABELS[member.role]}
                </span>
                <span
                  data-testid="member-state"
                  className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATE_CLASSES[member.state]}`}
                >
                  {MEMBER_STATE_LABELS[member.state]}
                </span>
              </p>
              <p className="mt-1 text-xs text-gray-600">
                {whenText(member)}
                {member.sessions > 0
                  ? ` · ${member.sessions} ${member.sessions === 1 ? 'sesión abierta' : 'sesiones abiertas'}`
                  : ''}
              </p>
            </div>
            <MemberActions member={member} you={you} signInUrl={signInUrl} />
          </li>
        ))}
      </ul>
    </section>
  )
}
