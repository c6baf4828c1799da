import { and, asc, count, eq, gt, isNull, max, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { normalizeEmail, type AuthConfig } from './config.server.ts'
import type { Role } from './roles.ts'
import { adminMembers, adminSessions } from './schema.ts'
import {
  ChangeRoleSchema,
  INVITATION_MS,
  InviteMemberSchema,
  RemoveMemberSchema,
  TEAM_MESSAGES,
  type MemberState,
} from './team.ts'

/**
 * "Usuarios": who is on the team and with which role. ADMIN_EMAILS are owners fixed by the server's
 * configuration (the first owner of a new shop and a way back in); everyone else is a row of
 * `admin_members`, invited by an owner and a member from their first sign-in. Roles are read on every
 * request, so a change narrows a member's open sessions at once; removing one ends them.
 */

type Member = typeof adminMembers.$inferSelect

const isFixedOwner = (config: Pick<AuthConfig, 'adminEmails'>, email: string) =>
  config.adminEmails.includes(normalizeEmail(email))

/** The role of a signed-in address now: a fixed owner's, a member's, or none (not on the team). */
export async function roleOf(
  db: DbOrTx,
  config: Pick<AuthConfig, 'adminEmails'>,
  email: string,
): Promise<Role | null> {
  if (isFixedOwner(config, email)) return 'owner'
  const [member] = await db
    .select({ role: adminMembers.role, joinedAt: adminMembers.joinedAt })
    .from(adminMembers)
    .where(eq(adminMembers.email, normalizeEmail(email)))
    .limit(1)
  return member?.joinedAt ? member.role : null
}

export type SignInStanding = { status: 'member'; role: Role } | { status: 'expired' } | { status: 'none' }

/**
 * At sign-in (the e-mail verified by the provider): a fixed owner or a member goes in; an invitation
 * still valid makes the address a member now; an expired one is told so.
 */
export async function joinOnSignIn(
  db: DbOrTx,
  config: Pick<AuthConfig, 'adminEmails'>,
  email: string,
  now = new Date(),
): Promise<SignInStanding> {
  if (isFixedOwner(config, email)) return { status: 'member', role: 'owner' }
  const address = normalizeEmail(email)
  const [member] = await db.select().from(adminMembers).where(eq(adminMembers.email, address)).limit(1)
  if (!member) return { status: 'none' }
  if (member.joinedAt) return { status: 'member', role: member.role }
  if (member.invitationExpiresAt <= now) return { status: 'expired' }
  await db
    .update(adminMembers)
    .set({ joinedAt: now, updatedAt: now })
    .where(and(eq(adminMembers.email, address), isNull(adminMembers.joinedAt)))
  return { status: 'member', role: member.role }
}

export type TeamMember = {
  email: string
  role: Role
  state: MemberState
  invitedBy: string | null
  invitedAt: string | null
  invitationExpiresAt: string | null
  joinedAt: string | null
  /** Open sessions, and the latest request of any of them. */
  sessions: number
  lastSeenAt: string | null
}

const stateOf = (member: Member, now: Date): MemberState =>
  member.joinedAt ? 'active' : member.invitationExpiresAt <= now ? 'invitation-expired' : 'invited'

/** The whole team: fixed owners first, then members by e-mail. */
export async function listTeam(
  db: Db,
  config: Pick<AuthConfig, 'adminEmails'>,
  now = new Date(),
): Promise<TeamMember[]> {
  // Sessions keep the address as the provider spelt it: counted per address in any case.
  const sessionEmail = sql<string>`lower(${adminSessions.email})`
  const [members, sessions] = await Promise.all([
    db.select().from(adminMembers).orderBy(asc(adminMembers.email)),
    db
      .select({ email: sessionEmail, open: count(), lastSeenAt: max(adminSessions.lastSeenAt) })
      .from(adminSessions)
      .where(gt(adminSessions.expiresAt, now))
      .groupBy(sessionEmail),
  ])
  const activity = (email: string) => {
    const found = sessions.find((row) => row.email === email)
    return { sessions: found?.open ?? 0, lastSeenAt: found?.lastSeenAt?.toISOString() ?? null }
  }
  const fixed: TeamMember[] = config.adminEmails.map((email) => ({
    email,
    role: 'owner',
    state: 'fixed-owner',
    invitedBy: null,
    invitedAt: null,
    invitationExpiresAt: null,
    joinedAt: null,
    ...activity(email),
  }))
  return [
    ...fixed,
    ...members
      .filter((member) => !isFixedOwner(config, member.email))
      .map((member) => ({
        email: member.email,
        role: member.role,
        state: stateOf(member, now),
        invitedBy: member.invitedBy,
        invitedAt: member.invitedAt.toISOString(),
        invitationExpiresAt: member.joinedAt ? null : member.invitationExpiresAt.toISOString(),
        joinedAt: member.joinedAt?.toISOString() ?? null,
        ...activity(member.email),
      })),
  ]
}

const fieldRefusal = (message: string) => new Refusal(message, { standsAlone: true })

/** What a team form posted, checked; the first problem refuses it in Spanish. */
function parsed<T>(schema: z.ZodType<T>, form: FormData): T {
  const result = schema.safeParse(Object.fromEntries(form))
  if (!result.success) throw fieldRefusal(result.error.issues[0]?.message ?? TEAM_MESSAGES.email)
  return result.data
}

/**
 * Invites an address with a role: a new invitation, or a pending or expired one renewed (with the
 * role chosen now). Someone already on the team is refused: their role is changed in the list.
 */
export async function inviteMember(
  db: Db,
  config: Pick<AuthConfig, 'adminEmails'>,
  invitedBy: string,
  form: FormData,
  now = new Date(),
): Promise<{ email: string; renewed: boolean; role: Role; before: Role | null }> {
  const { email, role } = parsed(InviteMemberSchema, form)
  if (isFixedOwner(config, email)) throw fieldRefusal(TEAM_MESSAGES.fixedOwner(email))
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(adminMembers).where(eq(adminMembers.email, email)).for('update')
    if (existing?.joinedAt) throw fieldRefusal(TEAM_MESSAGES.alreadyMember(email))
    const invitation = {
      role,
      invitedBy: normalizeEmail(invitedBy),
      invitedAt: now,
      invitationExpiresAt: new Date(now.getTime() + INVITATION_MS),
      updatedAt: now,
    }
    await tx
      .insert(adminMembers)
      .values({ email, ...invitation })
      .onConflictDoUpdate({ target: adminMembers.email, set: invitation })
    return { email, renewed: Boolean(existing), role, before: existing?.role ?? null }
  })
}

/** The member a change is about, refused when it is the owner making it or a fixed owner. */
async function changeableMember(
  tx: DbOrTx,
  config: Pick<AuthConfig, 'adminEmails'>,
  actor: string,
  email: string,
): Promise<Member> {
  if (normalizeEmail(actor) === email) throw fieldRefusal(TEAM_MESSAGES.yourself)
  if (isFixedOwner(config, email)) throw fieldRefusal(TEAM_MESSAGES.fixedOwner(email))
  const [member] = await tx.select().from(adminMembers).where(eq(adminMembers.email, email)).for('update')
  if (!member) throw new Refusal(TEAM_MESSAGES.notFound, { status: 404, standsAlone: true })
  return member
}

/** A new role for a member (or for a pending invitation); their open sessions follow at once. */
export async function changeMemberRole(
  db: Db,
  config: Pick<AuthConfig, 'adminEmails'>,
  actor: string,
  form: FormData,
  now = new Date(),
): Promise<{ email: string; role: Role; before: Role }> {
  const { email, role } = parsed(ChangeRoleSchema, form)
  return db.transaction(async (tx) => {
    const member = await changeableMember(tx, config, actor, email)
    await tx.update(adminMembers).set({ role, updatedAt: now }).where(eq(adminMembers.email, email))
    return { email, role, before: member.role }
  })
}

/** Takes a member (or an invitation) off the team and ends every session of theirs. */
export async function removeMember(
  db: Db,
  config: Pick<AuthConfig, 'adminEmails'>,
  actor: string,
  form: FormData,
): Promise<{ email: string; before: Role }> {
  const { email } = parsed(RemoveMemberSchema, form)
  return db.transaction(async (tx) => {
    const member = await changeableMember(tx, config, actor, email)
    await tx.delete(adminMembers).where(eq(adminMembers.email, email))
    await tx.delete(adminSessions).where(sql`lower(${adminSessions.email}) = ${email}`)
    return { email, before: member.role }
  })
}
