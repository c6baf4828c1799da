import { sql } from 'drizzle-orm'
import type { Tx } from '#app/db/client.server.ts'
import { clickCounts, pageViews } from './schema.ts'

export type ImportedClicks = { month: string; elementName: string; clickCount: number }
export type ImportedPageViews = { month: string; pageName: string; visits: number; totalTimeSeconds: number }

/**
 * Adds another shop's monthly records to ours, in the caller's transaction: a month Vitrina has
 * already counted keeps its counts and gets the original's on top (the caller brings each month
 * once).
 */
export async function addImportedAnalytics(
  tx: Tx,
  input: { clicks: ImportedClicks[]; pageViews: ImportedPageViews[] },
): Promise<void> {
  for (const row of input.clicks) {
    await tx
      .insert(clickCounts)
      .values(row)
      .onConflictDoUpdate({
        target: [clickCounts.month, clickCounts.elementName],
        set: { clickCount: sql`${clickCounts.clickCount} + ${row.clickCount}` },
      })
  }
  for (const row of input.pageViews) {
    await tx
      .insert(pageViews)
      .values(row)
      .onConflictDoUpdate({
        target: [pageViews.month, pageViews.pageName],
        set: {
          visits: sql`${pageViews.visits} + ${row.visits}`,
          totalTimeSeconds: sql`${pageViews.totalTimeSeconds} + ${row.totalTimeSeconds}`,
        },
      })
  }
}
