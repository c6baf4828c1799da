import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

/** Clicks per element per month (YYYY-MM). */
export const clickCounts = pgTable(
  'click_counts',
  {
    month: text().notNull(),
    elementName: text().notNull(),
    clickCount: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.elementName] })],
)

/** Page views and total seconds on page per page per month (YYYY-MM). */
export const pageViews = pgTable(
  'page_views',
  {
    month: text().notNull(),
    pageName: text().notNull(),
    visits: integer().notNull().default(0),
    /** bigint: a month of a busy page's seconds can pass an integer's 2 147 483 647. */
    totalTimeSeconds: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.pageName] })],
)

/**
 * Every consent choice (Ley 1581 de 2012: the controller must be able to prove the authorisation):
 * the policy version answered, both choices and when. No personal data: `consentId` is a random id
 * kept in the shopper's consent cookie, so a later change of mind links to the first answer.
 */
export const consentLog = pgTable(
  'consent_log',
  {
    id: serial().primaryKey(),
    consentId: text().notNull(),
    policyVersion: text().notNull(),
    analytics: boolean().notNull(),
    advertising: boolean().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('consent_log_consent_id_idx').on(t.consentId)],
)
