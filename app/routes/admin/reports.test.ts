import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { monthOf, recordClick, recordPageView } from '#app/modules/analytics/analytics.server.ts'
import { clickCounts, pageViews } from '#app/modules/analytics/schema.ts'
import { useServices } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { testServices } from '#tests/services.ts'
import { duration, loader, monthLabel } from './reports.tsx'

/** /admin/reportes: one month's clicks and page views, the current month unless another is chosen. */

const BASE = 'http://127.0.0.1:5572'
const t = setupTestDatabase()
const config = testAuthConfig(BASE)
let cookie = ''

beforeAll(async () => {
  useServices(testServices({ database: t.database, auth: config }))
  ;({ cookie } = await signedInAs(t.db, config, ADMIN_EMAIL))
})
afterAll(() => useServices(undefined))
beforeEach(async () => {
  await t.db.delete(clickCounts)
  await t.db.delete(pageViews)
})

const load = (query = '') =>
  loader({
    request: new Request(`${BASE}/admin/reportes${query}`, { headers: { Cookie: cookie } }),
    url: new URL(`${BASE}/admin/reportes${query}`),
    params: {},
    context: {},
  } as never)

test('shows the current month by default and lists every month with data', async () => {
  await recordClick(t.db, 'whatsapp')
  await recordClick(t.db, 'whatsapp', new Date('2025-03-10T15:00:00Z'))
  await recordPageView(t.db, { pageName: '/', seconds: 10, newVisit: true })
  await recordPageView(t.db, { pageName: '/', seconds: 5, newVisit: true })

  const current = await load()
  expect(current.month).toBe(monthOf())
  expect(current.months).toEqual([monthOf(), '2025-03'])
  expect(current.clicks).toEqual([{ elementName: 'whatsapp', clickCount: 1 }])
  expect(current.pages).toEqual([{ pageName: '/', visits: 2, totalTimeSeconds: 15, averageSeconds: 8 }])

  const march = await load('?mes=2025-03')
  expect(march.clicks).toEqual([{ elementName: 'whatsapp', clickCount: 1 }])
  expect(march.pages).toEqual([])
})

test('a month that is not YYYY-MM falls back to the current one', async () => {
  expect((await load('?mes=2025-13')).month).toBe(monthOf())
  expect((await load('?mes=marzo')).month).toBe(monthOf())
})

test('month names and durations in Spanish', () => {
  expect(monthLabel('2026-11')).toBe('noviembre de 2026')
  expect(duration(42)).toBe('42 s')
  expect(duration(65)).toBe('1 min 05 s')
})
