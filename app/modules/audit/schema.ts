import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import type { AuditChange } from './changes.ts'

/**
 * "Seguridad": every back-office write, kept a year (`purgeOldSecurityRecords`). Written only by the
 * admin middleware, after the action answered: who, when, where, what was posted (never secrets or
 * files), how it ended, and for prices, costs, stock, settings and roles what changed.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorEmail: text().notNull(),
    actorRole: text().notNull(),
    /** The back-office section ("Productos", "Configuraciones"…). */
    section: text().notNull(),
    path: text().notNull(),
    /** The form's `intent`, when it has one ("cancelar", "invitar"…). */
    intent: text(),
    /** What was posted, by field name, secrets and files left out, each value cut short. */
    fields: jsonb().$type<Record<string, string>>().notNull(),
    /** What the write changed, before → after, for the rules worth tracing. */
    changes: jsonb().$type<AuditChange[]>().notNull(),
    /** The answer's HTTP status: 2xx/3xx done, 4xx refused. */
    status: integer().notNull(),
    ipAddress: text(),
  },
  (t) => [index('audit_entries_at_idx').on(t.at)],
)
