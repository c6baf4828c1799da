import { randomUUID } from 'node:crypto'
import { count, desc, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { AuthContext } from '#app/modules/auth/oidc.server.ts'
import { findAdminSession, readSessionToken } from '#app/modules/auth/session.server.ts'
import { hasStaffCookie } from '#app/modules/auth/staff-device.ts'
import { categories, products } from '#app/modules/catalog/schema.ts'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, readConsent, type Consent } from './consent.ts'
import { clickCounts, consentLog, pageViews } from './schema.ts'
import { REPORT_ROWS } from './validators.ts'
import { CATEGORY_PAGE_PATTERN, pageNameOf, PRODUCT_PAGE_PATTERN } from './tracking.ts'
import { cookieValue } from '#app/utils/cookies.ts'

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

/**
 * The name a page view is recorded under (`pageNameOf`), with product and category pages kept by
 * SKU or id only while that product or category exists (otherwise under `/producto/:sku` or
 * `/categoria/:id`): the records can only grow with the catalogue. Null for the back office.
 */
export async function recordedPageName(db: DbOrTx, title: string): Promise<string | null> {
  const page = pageNameOf(title)
  if (!page) return null
  if (page.kind === 'product') {
    const [found] = await db.select({ sku: products.sku }).from(products).where(eq(products.sku, page.sku))
    return found ? `/producto/${found.sku}` : PRODUCT_PAGE_PATTERN
  }
  if (page.kind === 'category') {
    const [found] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, page.id))
    return found ? `/categoria/${found.id}` : CATEGORY_PAGE_PATTERN
  }
  return page.name
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

export type PageReportRow = {
  pageName: string
  /** The product's or category's name, for the page of one that still exists (absent otherwise). */
  title?: string
  visits: number
  totalTimeSeconds: number
  averageSeconds: number
}

export type MonthReport = {
  month: string
  clicks: { elementName: string; clickCount: number }[]
  pages: PageReportRow[]
  /** Elements and pages with data this month beyond the REPORT_ROWS listed. */
  moreClicks: number
  morePages: number
}

/** The months that have clicks or page views, newest first. */
export async function monthsWithData(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ month: clickCounts.month })
    .from(clickCounts)
    .union(db.select({ month: pageViews.month }).from(pageViews))
  return rows.map((row) => row.month).sort((a, b) => b.localeCompare(a))
}

/**
 * The names of the products and categories whose pages are among `pageNames` (by the SKU or id in
 * the page name), keyed by page name. One read of each catalogue table (analytics reads the
 * catalogue's tables, never its code); a product or category since deleted has none.
 */
async function catalogTitles(db: DbOrTx, pageNames: string[]): Promise<Map<string, string>> {
  const skus = new Map<string, string>()
  const ids = new Map<string, string>()
  for (const pageName of pageNames) {
    const page = pageNameOf(pageName)
    if (page?.kind === 'product') skus.set(page.sku, pageName)
    if (page?.kind === 'category') ids.set(page.id, pageName)
  }
  const [productRows, categoryRows] = await Promise.all([
    skus.size
      ? db
          .select({ key: products.sku, name: products.name })
          .from(products)
          .where(inArray(products.sku, [...skus.keys()]))
      : [],
    ids.size
      ? db
          .select({ key: categories.id, name: categories.name })
          .from(categories)
          .where(inArray(categories.id, [...ids.keys()]))
      : [],
  ])
  const titles = new Map<string, string>()
  for (const row of productRows) titles.set(skus.get(row.key)!, row.name)
  for (const row of categoryRows) titles.set(ids.get(row.key)!, row.name)
  return titles
}

/**
 * Clicks per element and visits and average seconds per page of one month, biggest first: the
 * REPORT_ROWS biggest of each, with how many more there are. A product's or category's page carries
 * its name as `title` (the page name keeps the SKU or id).
 */
export async function monthReport(db: DbOrTx, month: string, limit = REPORT_ROWS): Promise<MonthReport> {
  const [clicks, pages, [clickRows], [pageRows]] = await Promise.all([
    db
      .select({ elementName: clickCounts.elementName, clickCount: clickCounts.clickCount })
      .from(clickCounts)
      .where(eq(clickCounts.month, month))
      .orderBy(desc(clickCounts.clickCount), clickCounts.elementName)
      .limit(limit),
    db
      .select({
        pageName: pageViews.pageName,
        visits: pageViews.visits,
        totalTimeSeconds: pageViews.totalTimeSeconds,
      })
      .from(pageViews)
      .where(eq(pageViews.month, month))
      .orderBy(desc(pageViews.visits), pageViews.pageName)
      .limit(limit),
    db.select({ rows: count() }).from(clickCounts).where(eq(clickCounts.month, month)),
    db.select({ rows: count() }).from(pageViews).where(eq(pageViews.month, month)),
  ])
  const titles = await catalogTitles(
    db,
    pages.map((page) => page.pageName),
  )
  return {
    month,
    clicks,
    pages: pages.map((page): PageReportRow => {
      const title = titles.get(page.pageName)
      return {
        pageName: page.pageName,
        ...(title === undefined ? {} : { title }),
        visits: page.visits,
        totalTimeSeconds: page.totalTimeSeconds,
        averageSeconds: page.visits > 0 ? Math.round(page.totalTimeSeconds / page.visits) : 0,
      }
    }),
    moreClicks: Math.max(0, (clickRows?.rows ?? 0) - clicks.length),
    morePages: Math.max(0, (pageRows?.rows ?? 0) - pages.length),
  }
}

/**
 * A shopper's answer to the consent banner, kept in their cookie: it keeps the id of their earlier
 * answer, so the log links a change to it.
 */
export function consentChoice(choice: {
  analytics: boolean
  advertising: boolean
  previousId?: string
}): Consent {
  return {
    version: CONSENT_POLICY_VERSION,
    analytics: choice.analytics,
    advertising: choice.advertising,
    id: choice.previousId ?? randomUUID(),
  }
}

/** Logs an answer as the proof of authorization (Ley 1581): id, policy version, choices and date. */
export async function logConsent(db: DbOrTx, consent: Consent, now = new Date()) {
  await db.insert(consentLog).values({
    consentId: consent.id!,
    policyVersion: consent.version,
    analytics: consent.analytics,
    advertising: consent.advertising,
    createdAt: now,
  })
}

/** The id in the request's consent cookie, even from an outdated policy version (a change links to it). */
export function consentIdOf(cookieHeader: string | null): string | undefined {
  return cookieValue(cookieHeader, CONSENT_COOKIE)?.match(/(?:^|\|)i=([\w-]{1,64})(?:\||$)/)?.[1]
}

/** Admin sign-in (null: not set up), with the session limits the owner set. */
export type Exclusions = { auth: AuthContext | null }

/**
 * Whether this request's visit may be measured: only with analytics consent, and never from a
 * device that signed in to the back office, a signed-in admin or the owner (spec §1).
 */
export async function mayMeasure({ auth }: Exclusions, request: Request): Promise<boolean> {
  const cookie = request.headers.get('Cookie')
  if (!readConsent(cookie)?.analytics) return false
  if (hasStaffCookie(cookie)) return false
  if (!auth) return true
  const token = await readSessionToken(auth.config, request)
  if (!token) return true
  // A session is only made for an allow-listed address (the owner's OWNER_EMAIL among them when it
  // may sign in): any live session is staff, never counted.
  // Judged by the owner's session limits, as the back office judges it.
  const limits = await auth.sessionLimits()
  return (await findAdminSession(auth.db, token, { limits })).status !== 'valid'
}
