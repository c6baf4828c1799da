import { sql } from 'drizzle-orm'
import type { Tx } from '#app/db/client.server.ts'
import { clickCounts, pageViews } from './schema.ts'

export type ImportedClicks = { month: string; elementName: string; clickCount: number }
export type ImportedPageViews = { month: string; pageName: string; visits: number; totalTimeSeconds: number }

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
