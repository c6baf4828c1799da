import { integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'

/** Store settings editable by the owner (shipping cost, threshold, contact number…). */
export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

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
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
