import { and, eq, gt, or } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { clickCounts, pageViews } from '#app/modules/analytics/schema.ts'
import { quoted, MAX_INTEGER } from './validators.ts'
import type { ImportPlan } from './plan.ts'

/** `total_time_seconds` is a bigint read back as a JavaScript number: exact up to here. */
const MAX_SECONDS = Number.MAX_SAFE_INTEGER

const refusedMonth = 'No se importó el mes.'

/**
 * Takes out of the plan, refused in its report, every month whose counts would pass what their
 * columns hold once added to what Vitrina already counted for that month (`addImportedAnalytics`
 * adds them up): one such row would otherwise fail the whole import's transaction. Read before
 * the transaction; only rows already near a limit are asked for, so a month Vitrina counted
 * itself (a few dozen rows) costs one small query.
 */
export async function refuseOverflowingMonths(db: Db, plan: ImportPlan): Promise<void> {
  const keptClicks: ImportPlan['clicks'] = []
  for (const month of plan.clicks) {
    const largest = month.rows.reduce((max, row) => Math.max(max, row.clickCount), 0)
    const near = await db
      .select({ name: clickCounts.elementName, count: clickCounts.clickCount })
      .from(clickCounts)
      .where(and(eq(clickCounts.month, month.month), gt(clickCounts.clickCount, MAX_INTEGER - largest)))
    const counted = new Map(near.map((row) => [row.name, row.count]))
    const over = counted.size
      ? month.rows.find((row) => (counted.get(row.elementName) ?? 0) + row.clickCount > MAX_INTEGER)
      : undefined
    if (!over) {
      keptClicks.push(month)
      continue
    }
    plan.refused.push({
      kind: 'clics',
      key: `clickEvents/${month.month}`,
      reason: `Elemento ${quoted(over.elementName)}: Vitrina ya cuenta ${counted.get(over.elementName)} clics en este mes, y con los ${over.clickCount} de la exportación pasaría de ${MAX_INTEGER}, lo que puede guardar. ${refusedMonth}`,
    })
  }
  plan.clicks = keptClicks

  const keptViews: ImportPlan['pageViews'] = []
  for (const month of plan.pageViews) {
    const visits = month.rows.reduce((max, row) => Math.max(max, row.visits), 0)
    const seconds = month.rows.reduce((max, row) => Math.max(max, row.totalTimeSeconds), 0)
    const near = await db
      .select({ name: pageViews.pageName, visits: pageViews.visits, seconds: pageViews.totalTimeSeconds })
      .from(pageViews)
      .where(
        and(
          eq(pageViews.month, month.month),
          or(
            gt(pageViews.visits, MAX_INTEGER - visits),
            gt(pageViews.totalTimeSeconds, MAX_SECONDS - seconds),
          ),
        ),
      )
    const counted = new Map(near.map((row) => [row.name, row]))
    let reason: string | null = null
    for (const row of counted.size ? month.rows : []) {
      const here = counted.get(row.pageName)
      if (!here) continue
      if (here.visits + row.visits > MAX_INTEGER) {
        reason = `Página ${quoted(row.pageName)}: Vitrina ya cuenta ${here.visits} visitas en este mes, y con las ${row.visits} de la exportación pasaría de ${MAX_INTEGER}, lo que puede guardar. ${refusedMonth}`
      } else if (here.seconds + row.totalTimeSeconds > MAX_SECONDS) {
        reason = `Página ${quoted(row.pageName)}: Vitrina ya cuenta ${here.seconds} segundos en este mes, y con los ${row.totalTimeSeconds} de la exportación pasaría de ${MAX_SECONDS}, lo que puede guardar. ${refusedMonth}`
      }
      if (reason) break
    }
    if (!reason) {
      keptViews.push(month)
      continue
    }
    plan.refused.push({ kind: 'visitas', key: `pageViews/${month.month}`, reason })
  }
  plan.pageViews = keptViews
}
