import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Each client's allowance per limit (`rate-limits.server.ts`), shared by every web process on the
 * database: points used in the current window and when that window ends. The shape
 * rate-limiter-flexible's Drizzle store reads and writes (ADR 0014).
 */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  points: integer().notNull(),
  expire: timestamp({ withTimezone: true, mode: 'date' }),
})
