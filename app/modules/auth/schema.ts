import { sql } from 'drizzle-orm'
import { bigserial, check, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import type { Role } from './roles.ts'

/** A signed-in admin. The cookie holds only the random id. */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: text().primaryKey(),
    email: text().notNull(),
    displayName: text(),
    pictureUrl: text(),
    profile: jsonb().$type<Record<string, unknown>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The end the session was given at sign-in (a shorter limit set since ends it sooner). */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** Its latest request, kept to the minute (session.server.ts), for the idle limit. */
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The browser that signed in (its User-Agent), shown in "Seguridad". */
    userAgent: text(),
    /** The address it signed in from, shown in "Seguridad". */
    ipAddress: text(),
  },
  (t) => [index('admin_sessions_expires_idx').on(t.expiresAt)],
)

/**
 * The local sign-in provider's short-lived records (interactions, codes, sessions, grants and the
 * accounts typed on its page), in the database so every web process of one shop shares them.
 */
export const localProviderRecords = pgTable(
  'local_provider_records',
  {
    model: text().notNull(),
    id: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    grantId: text(),
    uid: text(),
    userCode: text(),
    expiresAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('local_provider_records_grant_idx').on(t.grantId),
    index('local_provider_records_uid_idx').on(t.uid),
  ],
)

/**
 * The team beyond ADMIN_EMAILS (who are always owners): each member's role, and the invitation
 * until they first sign in. Removing a member deletes the row and their sessions.
 */
export const adminMembers = pgTable(
  'admin_members',
  {
    /** Lowercased: the address they sign in with (Google or the local provider). */
    email: text().primaryKey(),
    role: text().$type<Role>().notNull(),
    invitedBy: text().notNull(),
    invitedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Until then the invitation lets them sign in for the first time; later it means nothing. */
    invitationExpiresAt: timestamp({ withTimezone: true }).notNull(),
    /** Their first sign-in: from then on they are a member, whatever the invitation's date. */
    joinedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('admin_members_role_check', sql`${t.role} in ('owner', 'sales', 'warehouse')`)],
)

/**
 * Every sign-in that reached the shop with a verified identity, let in or not (kept a year), for
 * the history of "Seguridad".
 */
export const adminSignIns = pgTable(
  'admin_sign_ins',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    email: text().notNull(),
    /** `ok`, or why it was refused: the sign-in page's notice code. */
    outcome: text().notNull(),
    userAgent: text(),
    ipAddress: text(),
  },
  (t) => [index('admin_sign_ins_at_idx').on(t.at)],
)
