import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

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
