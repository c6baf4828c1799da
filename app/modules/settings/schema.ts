import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Store settings editable by the owner in "Configuraciones" (shipping cost, threshold, contact
 * number…), one row per key. A key never saved has no row: the environment's value applies.
 */
export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/**
 * Every change made in "Configuraciones": a setting's old and new value, or a banner added, changed,
 * moved or deleted (`key` "banner"), with who made it (the admin's e-mail) and when.
 */
export const settingChanges = pgTable(
  'setting_changes',
  {
    id: serial().primaryKey(),
    key: text().notNull(),
    oldValue: jsonb(),
    newValue: jsonb(),
    changedBy: text().notNull(),
    changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('setting_changes_changed_at_idx').on(t.changedAt)],
)

/** Home carousel slides: an image (with a narrower one below 700 px) or a video. */
export const banners = pgTable('banners', {
  id: serial().primaryKey(),
  position: integer().notNull().default(0),
  kind: text({ enum: ['image', 'video'] })
    .notNull()
    .default('image'),
  desktopMediaId: integer().notNull(),
  mobileMediaId: integer(),
  alt: text().notNull().default(''),
  link: text(),
  /** Inactive banners stay in "Configuraciones" but are not shown on the home page. */
  active: boolean().notNull().default(true),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
