import { randomUUID } from 'node:crypto'
import { desc, eq, sql } from 'drizzle-orm'
import { RateLimiterMemory } from 'rate-limiter-flexible'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { AuthConfig } from '#app/modules/auth/config.server.ts'
import { findAdminSession, readSessionToken } from '#app/modules/auth/session.server.ts'
import {
  CONSENT_COOKIE,
  CONSENT_POLICY_VERSION,
  readConsent,
  STAFF_DEVICE_COOKIE,
  type Consent,
} from './consent.ts'
import { clickCounts, consentLog, pageViews } from './schema.ts'

/** Spec §3: records are keyed by the month in the shop's time zone. */
const STORE_TIME_ZONE = 'America/Bogota'

/** `YYYY-MM` of `date` in Bogotá time. */
export function monthOf(date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: STORE_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(date)
  const part = (type: string) => parts.find((p) => p.type === type)!.value
  return `${part('year')}-${part('month')}`
}

/** Spec §5: routes starting with /admin are never counted. */
export function isAdminPage(pageName: string): boolean {
  return /^\/?admin(?:[/?#]|$)/i.test(pageName.trim())
}

/** Adds one click to the element in the month's record, atomically (one statement, no read). */
export async function recordClick(db: DbOrTx, elementName: string, now = new Date()) {
  await db
    .insert(clickCounts)
    .values({ month: monthOf(now), elementName, clickCount: 1 })
    .onConflictDoUpdate({
      target: [clickCounts.month, clickCounts.elementName],
      set: { clickCount: sql`${clickCounts.clickCount} + 1` },
    })
}

/**
 * Adds one visit (or none, when the shopper came back to a page already counted) and the seconds
 * spent to the page in the month's record, atomically.
 */
export async function recordPageView(
  db: DbOrTx,
  view: { pageName: string; seconds: number; newVisit: boolean },
  now = new Date(),
) {
  const visits = view.newVisit ? 1 : 0
  await db
    .insert(pageViews)
    .values({ month: monthOf(now), pageName: view.pageName, visits, totalTimeSeconds: view.seconds })
    .onConflictDoUpdate({
      target: [pageViews.month, pageViews.pageName],
      set: {
        visits: sql`${pageViews.visits} + ${visits}`,
        totalTimeSeconds: sql`${pageViews.totalTimeSeconds} + ${view.seconds}`,
      },
    })
}

export type MonthReport = {
  month: string
  clicks: { elementName: string; clickCount: number }[]
  pages: { pageName: string; visits: number; totalTimeSeconds: number; averageSeconds: number }[]
}

/** The months that have clicks or page views, newest first. */
export async function monthsWithData(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ month: clickCounts.month })
    .from(clickCounts)
    .union(db.select({ month: pageViews.month }).from(pageViews))
  return rows.map((row) => row.month).sort((a, b) => b.localeCompare(a))
}

/** Clicks per element and visits and average seconds per page of one month, biggest first. */
export async function monthReport(db: DbOrTx, month: string): Promise<MonthReport> {
  const [clicks, pages] = await Promise.all([
    db
      .select({ elementName: clickCounts.elementName, clickCount: clickCounts.clickCount })
      .from(clickCounts)
      .where(eq(clickCounts.month, month))
      .orderBy(desc(clickCounts.clickCount), clickCounts.elementName),
    db
      .select({
        pageName: pageViews.pageName,
        visits: pageViews.visits,
        totalTimeSeconds: pageViews.totalTimeSeconds,
      })
      .from(pageViews)
      .where(eq(pageViews.month, month))
      .orderBy(desc(pageViews.visits), pageViews.pageName),
  ])
  return {
    month,
    clicks,
    pages: pages.map((page) => ({
      ...page,
      averageSeconds: page.visits > 0 ? Math.round(page.totalTimeSeconds / page.visits) : 0,
    })),
  }
}

/**
 * Logs a consent choice with the policy version and time, and returns the Consent for the cookie.
 * A change of mind keeps the id of the earlier answer (from the cookie), so the log links them.
 */
export async function recordConsent(
  db: DbOrTx,
  choice: { analytics: boolean; advertising: boolean; previousId?: string },
  now = new Date(),
): Promise<Consent> {
  const consent: Consent = {
    version: CONSENT_POLICY_VERSION,
    analytics: choice.analytics,
    advertising: choice.advertising,
    id: choice.previousId ?? randomUUID(),
  }
  await db.insert(consentLog).values({
    consentId: consent.id!,
    policyVersion: consent.version,
    analytics: consent.analytics,
    advertising: consent.advertising,
    createdAt: now,
  })
  return consent
}

/** The id in the request's consent cookie, even from an outdated policy version (a change links to it). */
export function consentIdOf(cookieHeader: string | null): string | undefined {
  const raw = (cookieHeader ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONSENT_COOKIE}=`))
    ?.slice(CONSENT_COOKIE.length + 1)
  if (!raw) return undefined
  try {
    return decodeURIComponent(raw).match(/(?:^|\|)i=([\w-]{1,64})(?:\||$)/)?.[1]
  } catch {
    return undefined
  }
}

export function hasStaffCookie(cookieHeader: string | null): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim().startsWith(`${STAFF_DEVICE_COOKIE}=`))
}

export type Exclusions = { db: DbOrTx; auth: AuthConfig | null }

/**
 * Whether this request's visit may be measured: only with analytics consent, and never from a
 * device that signed in to the back office, a signed-in admin or the owner (spec §1).
 */
export async function mayMeasure({ db, auth }: Exclusions, request: Request): Promise<boolean> {
  const cookie = request.headers.get('Cookie')
  if (!readConsent(cookie)?.analytics) return false
  if (hasStaffCookie(cookie)) return false
  if (!auth) return true
  const token = await readSessionToken(auth, request)
  if (!token) return true
  // A session is only made for an allow-listed address (the owner's OWNER_EMAIL among them when it
  // may sign in): any live session is staff, never counted.
  return (await findAdminSession(db, token)).status !== 'valid'
}

/** Beacons per client per minute: a shopper never clicks this much; a script is cut off. */
export const BEACONS_PER_MINUTE = 60

const beaconLimiter = new RateLimiterMemory({ points: BEACONS_PER_MINUTE, duration: 60 })

/** Takes one beacon from the client's allowance; false when it is used up. */
export async function takeBeacon(clientKey: string): Promise<boolean> {
  try {
    await beaconLimiter.consume(clientKey)
    return true
  } catch {
    return false
  }
}
