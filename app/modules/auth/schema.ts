import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

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
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('admin_sessions_expires_idx').on(t.expiresAt)],
)
