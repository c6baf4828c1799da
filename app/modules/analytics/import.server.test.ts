import { expect, test } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { addImportedAnalytics, overflowingMonths } from './import.server.ts'
import { clickCounts, pageViews } from './schema.ts'

const t = setupTestDatabase()
const MAX_COUNT = 2_147_483_647

test('only the months that would pass a column once added to what Vitrina counts overflow', async () => {
  await t.db.insert(clickCounts).values([
    { month: '2024-01', elementName: 'boton-whatsapp', clickCount: 2_147_483_000 },
    { month: '2024-02', elementName: 'boton-whatsapp', clickCount: 10 },
  ])
  await t.db.insert(pageViews).values([
    { month: '2024-01', pageName: 'inicio', visits: MAX_COUNT - 5, totalTimeSeconds: 1 },
    { month: '2024-02', pageName: 'inicio', visits: 1, totalTimeSeconds: Number.MAX_SAFE_INTEGER - 10 },
    { month: '2024-03', pageName: 'inicio', visits: 1, totalTimeSeconds: 1 },
  ])
  const months = {
    clicks: [
      { month: '2024-01', rows: [{ month: '2024-01', elementName: 'boton-whatsapp', clickCount: 1_000 }] },
      { month: '2024-02', rows: [{ month: '2024-02', elementName: 'boton-whatsapp', clickCount: 1_000 }] },
      { month: '2024-03', rows: [{ month: '2024-03', elementName: 'nuevo', clickCount: MAX_COUNT }] },
    ],
    pageViews: [
      { month: '2024-01', rows: [{ month: '2024-01', pageName: 'inicio', visits: 6, totalTimeSeconds: 1 }] },
      { month: '2024-02', rows: [{ month: '2024-02', pageName: 'inicio', visits: 1, totalTimeSeconds: 11 }] },
      { month: '2024-03', rows: [{ month: '2024-03', pageName: 'inicio', visits: 1, totalTimeSeconds: 1 }] },
    ],
  }
  expect(await overflowingMonths(t.db, months)).toEqual([
    {
      kind: 'clicks',
      month: '2024-01',
      name: 'boton-whatsapp',
      measure: 'clicks',
      counted: 2_147_483_000,
      adding: 1_000,
      limit: MAX_COUNT,
    },
    {
      kind: 'pageViews',
      month: '2024-01',
      name: 'inicio',
      measure: 'visits',
      counted: MAX_COUNT - 5,
      adding: 6,
      limit: MAX_COUNT,
    },
    {
      kind: 'pageViews',
      month: '2024-02',
      name: 'inicio',
      measure: 'seconds',
      counted: Number.MAX_SAFE_INTEGER - 10,
      adding: 11,
      limit: Number.MAX_SAFE_INTEGER,
    },
  ])
  // What does not overflow adds up in one transaction.
  const fits = { clicks: [months.clicks[1]!, months.clicks[2]!], pageViews: [months.pageViews[2]!] }
  await t.db.transaction((tx) =>
    addImportedAnalytics(tx, {
      clicks: fits.clicks.flatMap((month) => month.rows),
      pageViews: fits.pageViews.flatMap((month) => month.rows),
    }),
  )
  expect(await overflowingMonths(t.db, { clicks: [], pageViews: [] })).toEqual([])
})
