import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { SYNC_STATUSES } from './validators.ts'

/**
 * A channel's OAuth pair as it stands (MercadoLibre hands out a new refresh token with every
 * refresh and each works once). Tokens are encrypted at rest (ADR 0010); the row is locked while
 * refreshing so two workers never spend one refresh token.
 */
export const channelCredentials = pgTable('channel_credentials', {
  channel: text().primaryKey(),
  accessToken: text().notNull(),
  refreshToken: text().notNull(),
  /** Null: a token given in the configuration, whose age is unknown (used until refused). */
  expiresAt: timestamp({ withTimezone: true }),
  /** Digest of the configured refresh token the stored pair descends from: a new one replaces the pair. */
  origin: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/** The last stock push per channel and SKU, for `/admin/canales`. */
export const channelSyncs = pgTable(
  'channel_syncs',
  {
    channel: text().notNull(),
    sku: text().notNull(),
    status: text({ enum: SYNC_STATUSES }).notNull(),
    /** Units set on the channel (ok) or that were to be set. */
    quantity: integer(),
    message: text().notNull().default(''),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.channel, t.sku] }),
    index('channel_syncs_status_idx').on(t.channel, t.status, t.at),
  ],
)
