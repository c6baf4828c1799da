import { and, eq, gt, or, sql } from 'drizzle-orm'
import type { Db, Tx } from '#app/db/client.server.ts'
import { clickCounts, pageViews } from './schema.ts'

export type ImportedClicks = { month: string; elementName: string; clickCount: number }
export type ImportedPageViews = { month: string; pageName: string; visits: number; totalTimeSeconds: number }

/** A month of another shop's records, as the import brings it. */
export type ImportedMonth<Row> = { month: string; rows: Row[] }

/** What the integer columns (clicks, visits) hold. */
const MAX_COUNT = 2_147_483_647
/** `total_time_seconds` is a bigint read back as a JavaScript number: exact up to here. */
const MAX_SECONDS = Number.MAX_SAFE_INTEGER

/**
 * A month that cannot be added: for its first row whose sum would pass its column, what Vitrina
 * already counts, what the month brings and what the column holds.
 */
export type OverflowingMonth = {
  kind: 'clicks' | 'pageViews'
  month: string
  /** The element (clicks) or page (page views). */
  name: string
  measure: 'clicks' | 'visits' | 'seconds'
  counted: number
  adding: number
  limit: number
}

/**
 * The months whose counts would pass what their columns hold once added to what Vitrina already
 * counted for that month (`addImportedAnalytics` adds them up): one such row would fail the whole
 * transaction that adds them. Clicks first, then page views, each in the order given. Meant to be
 * read before that transaction; only rows already near a limit are asked for, so a month Vitrina
 * counted itself (a few dozen rows) costs one small query.
 */
export async function overflowingMonths(
  db: Db,
  months: { clicks: ImportedMonth<ImportedClicks>[]; pageViews: ImportedMonth<ImportedPageViews>[] },
): Promise<OverflowingMonth[]> {
  const overflowing: OverflowingMonth[] = []
  for (const { month, rows } of months.clicks) {
    const largest = rows.reduce((max, row) => Math.max(max, row.clickCount), 0)
    const near = await db
      .select({ name: clickCounts.elementName, count: clickCounts.clickCount })
      .from(clickCounts)
      .where(and(eq(clickCounts.month, month), gt(clickCounts.clickCount, MAX_COUNT - largest)))
    const counted = new Map(near.map((row) => [row.name, row.count]))
    const over = counted.size
      ? rows.find((row) => (counted.get(row.elementName) ?? 0) + row.clickCount > MAX_COUNT)
      : undefined
    if (!over) continue
    overflowing.push({
      kind: 'clicks',
      month,
      name: over.elementName,
      measure: 'clicks',
      counted: counted.get(over.elementName)!,
      adding: over.clickCount,
      limit: MAX_COUNT,
    })
  }
  for (const { month, rows } of months.pageViews) {
    const visits = rows.reduce((max, row) => Math.max(max, row.visits), 0)
    const seconds = rows.reduce((max, row) => Math.max(max, row.totalTimeSeconds), 0)
    const near = await db
      .select({ name: pageViews.pageName, visits: pageViews.visits, seconds: pageViews.totalTimeSeconds })
      .from(pageViews)
      .where(
        and(
          eq(pageViews.month, month),
          or(gt(pageViews.visits, MAX_COUNT - visits), gt(pageViews.totalTimeSeconds, MAX_SECONDS - seconds)),
        ),
      )
    const counted = new Map(near.map((row) => [row.name, row]))
    for (const row of counted.size ? rows : []) {
      const here = counted.get(row.pageName)
      if (!here) continue
      const base = { kind: 'pageViews' as const, month, name: row.pageName }
      if (here.visits + row.visits > MAX_COUNT) {
        overflowing.push({
          ...base,
          measure: 'visits',
          counted: here.visits,
          adding: row.visits,
          limit: MAX_COUNT,
        })
        break
      }
      if (here.seconds + row.totalTimeSeconds > MAX_SECONDS) {
        overflowing.push({
          ...base,
          measure: 'seconds',
          counted: here.seconds,
          adding: row.totalTimeSeconds,
          limit: MAX_SECONDS,
        })
        break
      }
    }
  }
  return overflowing
}

/** Rows per statement: one JSON parameter each, a few hundred kilobytes. */
const BATCH = 5_000

/**
 * Adds another shop's monthly records to ours, in the caller's transaction: a month Vitrina has
 * already counted keeps its counts and gets the original's on top (the caller brings each month
 * once, so no row repeats within a statement). Written in batches of rows, one statement each: a
 * month of an old shop can hold hundreds of thousands of names, and a statement per row took
 * minutes.
 */
export async function addImportedAnalytics(
  tx: Tx,
  input: { clicks: ImportedClicks[]; pageViews: ImportedPageViews[] },
): Promise<void> {
  for (let i = 0; i < input.clicks.length; i += BATCH) {
    const rows = JSON.stringify(input.clicks.slice(i, i + BATCH))
    await tx.execute(sql`
      insert into ${clickCounts} (month, element_name, click_count)
      select r.month, r."elementName", r."clickCount"
        from json_to_recordset(${rows}::json) as r(month text, "elementName" text, "clickCount" integer)
      on conflict (month, element_name)
        do update set click_count = ${clickCounts}.click_count + excluded.click_count`)
  }
  for (let i = 0; i < input.pageViews.length; i += BATCH) {
    const rows = JSON.stringify(input.pageViews.slice(i, i + BATCH))
    await tx.execute(sql`
      insert into ${pageViews} (month, page_name, visits, total_time_seconds)
      select r.month, r."pageName", r.visits, r."totalTimeSeconds"
        from json_to_recordset(${rows}::json)
          as r(month text, "pageName" text, visits integer, "totalTimeSeconds" bigint)
      on conflict (month, page_name)
        do update set visits = ${pageViews}.visits + excluded.visits,
          total_time_seconds = ${pageViews}.total_time_seconds + excluded.total_time_seconds`)
  }
}
