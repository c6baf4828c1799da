import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { categories, products } from '#app/modules/catalog/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import {
  consentIdOf,
  monthOf,
  monthReport,
  monthsWithData,
  recordClick,
  consentChoice,
  logConsent,
  recordedPageName,
  recordPageView,
} from './analytics.server.ts'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, readConsent, serializeConsent } from './consent.ts'
import { clickCounts, consentLog, pageViews } from './schema.ts'
import { CATEGORY_PAGE_PATTERN, OTHER_PAGE, PRODUCT_PAGE_PATTERN } from './tracking.ts'

const t = setupTestDatabase()

beforeEach(async () => {
  await t.db.delete(clickCounts)
  await t.db.delete(pageViews)
  await t.db.delete(consentLog)
})

describe('monthOf', () => {
  test('is the month in Bogotá time (UTC-5), not in UTC', () => {
    // 1 December 03:00 UTC is still 30 November 22:00 in Bogotá.
    expect(monthOf(new Date('2026-12-01T03:00:00Z'))).toBe('2026-11')
    expect(monthOf(new Date('2026-12-01T05:00:00Z'))).toBe('2026-12')
    expect(monthOf(new Date('2027-01-15T12:00:00Z'))).toBe('2027-01')
  })
})

describe('monthly records', () => {
  test('clicks add up per element and per month', async () => {
    const november = new Date('2026-11-10T15:00:00Z')
    const december = new Date('2026-12-10T15:00:00Z')
    await recordClick(t.db, 'agregar-carrito', november)
    await recordClick(t.db, 'agregar-carrito', november)
    await recordClick(t.db, 'whatsapp', november)
    await recordClick(t.db, 'agregar-carrito', december)

    expect((await monthReport(t.db, '2026-11')).clicks).toEqual([
      { elementName: 'agregar-carrito', clickCount: 2 },
      { elementName: 'whatsapp', clickCount: 1 },
    ])
    expect((await monthReport(t.db, '2026-12')).clicks).toEqual([
      { elementName: 'agregar-carrito', clickCount: 1 },
    ])
  })

  test('page views add a visit and the seconds; a return to a counted page adds seconds only', async () => {
    const now = new Date('2026-11-10T15:00:00Z')
    await recordPageView(t.db, { pageName: '/', seconds: 30, newVisit: true }, now)
    await recordPageView(t.db, { pageName: '/', seconds: 11, newVisit: true }, now)
    await recordPageView(t.db, { pageName: '/', seconds: 4, newVisit: false }, now)
    await recordPageView(t.db, { pageName: '/carrito', seconds: 0, newVisit: true }, now)

    expect((await monthReport(t.db, '2026-11')).pages).toEqual([
      { pageName: '/', visits: 2, totalTimeSeconds: 45, averageSeconds: 23 },
      { pageName: '/carrito', visits: 1, totalTimeSeconds: 0, averageSeconds: 0 },
    ])
  })

  test('the months with data are listed newest first, once each', async () => {
    await recordClick(t.db, 'buscar', new Date('2026-10-10T15:00:00Z'))
    await recordPageView(
      t.db,
      { pageName: '/', seconds: 1, newVisit: true },
      new Date('2026-12-10T15:00:00Z'),
    )
    await recordClick(t.db, 'buscar', new Date('2026-12-11T15:00:00Z'))
    expect(await monthsWithData(t.db)).toEqual(['2026-12', '2026-10'])
  })

  test('50 clicks at once on the same element all count (atomic increment)', async () => {
    const now = new Date('2026-11-10T15:00:00Z')
    await Promise.all(Array.from({ length: 50 }, () => recordClick(t.db, 'finalizar-pedido', now)))
    const [row] = await t.db.select().from(clickCounts).where(eq(clickCounts.elementName, 'finalizar-pedido'))
    expect(row?.clickCount).toBe(50)
  })

  test('50 page views at once on the same page all count, visits and seconds', async () => {
    const now = new Date('2026-11-10T15:00:00Z')
    await Promise.all(
      Array.from({ length: 50 }, () =>
        recordPageView(t.db, { pageName: '/', seconds: 3, newVisit: true }, now),
      ),
    )
    const [row] = await t.db.select().from(pageViews).where(eq(pageViews.pageName, '/'))
    expect(row).toMatchObject({ visits: 50, totalTimeSeconds: 150 })
  })
})

describe('consent log', () => {
  test('logs the policy version and both choices; a change keeps the first answer’s id', async () => {
    const first = consentChoice({ analytics: true, advertising: false })
    await logConsent(t.db, first)
    expect(first).toMatchObject({ version: CONSENT_POLICY_VERSION, analytics: true, advertising: false })
    const cookie = `otra=1; ${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent(first))}`
    expect(readConsent(cookie)).toEqual(first)
    expect(consentIdOf(cookie)).toBe(first.id)

    const second = consentChoice({ analytics: false, advertising: false, previousId: first.id })
    await logConsent(t.db, second)
    expect(second.id).toBe(first.id)
    const rows = await t.db.select().from(consentLog).orderBy(consentLog.id)
    expect(
      rows.map(({ consentId, policyVersion, analytics, advertising }) => ({
        consentId,
        policyVersion,
        analytics,
        advertising,
      })),
    ).toEqual([
      { consentId: first.id, policyVersion: CONSENT_POLICY_VERSION, analytics: true, advertising: false },
      { consentId: first.id, policyVersion: CONSENT_POLICY_VERSION, analytics: false, advertising: false },
    ])
    expect(rows.every((row) => row.createdAt instanceof Date)).toBe(true)
  })

  test('a cookie without an id (the contract’s older shape) still reads', () => {
    const cookie = `${CONSENT_COOKIE}=${encodeURIComponent(`v=${CONSENT_POLICY_VERSION}|a=1|m=1`)}`
    expect(readConsent(cookie)).toEqual({
      version: CONSENT_POLICY_VERSION,
      analytics: true,
      advertising: true,
    })
    expect(consentIdOf(cookie)).toBeUndefined()
  })
})

describe('bounded records', () => {
  test('a product or category page keeps its SKU or id only while it exists', async () => {
    const category = await createCategory(t.db)
    const product = await createProduct(t.db)
    expect(await recordedPageName(t.db, `/producto/${product.sku}`)).toBe(`/producto/${product.sku}`)
    expect(await recordedPageName(t.db, '/producto/NO-EXISTE-1')).toBe(PRODUCT_PAGE_PATTERN)
    expect(await recordedPageName(t.db, `/categoria/${category.id}/Collares`)).toBe(
      `/categoria/${category.id}`,
    )
    expect(await recordedPageName(t.db, '/categoria/Categoria_0')).toBe(CATEGORY_PAGE_PATTERN)
    expect(await recordedPageName(t.db, '/pago-simulado/abc')).toBe('/pago-simulado/:id')
    expect(await recordedPageName(t.db, '/lo-que-sea/123')).toBe(OTHER_PAGE)
    expect(await recordedPageName(t.db, '/Admin/productos')).toBeNull()
    await t.db.delete(products).where(eq(products.sku, product.sku))
    await t.db.delete(categories).where(eq(categories.id, category.id))
  })

  test('a page’s seconds can pass an integer’s range (bigint)', async () => {
    const now = new Date('2026-11-10T15:00:00Z')
    await recordPageView(t.db, { pageName: '/', seconds: 2_000_000_000, newVisit: true }, now)
    await recordPageView(t.db, { pageName: '/', seconds: 2_000_000_000, newVisit: true }, now)
    const [row] = await t.db.select().from(pageViews)
    expect(row?.totalTimeSeconds).toBe(4_000_000_000)
  })

  test('the report lists the biggest rows and counts the rest', async () => {
    const now = new Date('2026-11-10T15:00:00Z')
    for (const name of ['a', 'b', 'b', 'c', 'c', 'c']) await recordClick(t.db, name, now)
    for (const name of ['/x', '/y', '/y'])
      await recordPageView(t.db, { pageName: name, seconds: 1, newVisit: true }, now)
    const report = await monthReport(t.db, '2026-11', 2)
    expect(report.clicks.map((row) => row.elementName)).toEqual(['c', 'b'])
    expect(report.moreClicks).toBe(1)
    expect(report.pages.map((row) => row.pageName)).toEqual(['/y', '/x'])
    expect(report.morePages).toBe(0)
  })

  test('a product’s or category’s page carries its name; one since deleted keeps only its key', async () => {
    const now = new Date('2026-11-10T15:00:00Z')
    const category = await createCategory(t.db, { name: 'Collares' })
    const product = await createProduct(t.db, { name: 'Collar Luna', categoryIds: [category.id] })
    const gone = await createProduct(t.db, { name: 'Collar Sol' })
    const goneCategory = await createCategory(t.db, { name: 'Broches' })
    for (const pageName of [
      `/producto/${product.sku}`,
      `/producto/${product.sku}`,
      `/categoria/${category.id}`,
      `/producto/${gone.sku}`,
      `/categoria/${goneCategory.id}`,
      '/',
      PRODUCT_PAGE_PATTERN,
    ])
      await recordPageView(t.db, { pageName, seconds: 1, newVisit: true }, now)
    await t.db.delete(products).where(eq(products.sku, gone.sku))
    await t.db.delete(categories).where(eq(categories.id, goneCategory.id))

    const byPage = new Map((await monthReport(t.db, '2026-11')).pages.map((row) => [row.pageName, row]))
    expect(byPage.get(`/producto/${product.sku}`)).toEqual({
      pageName: `/producto/${product.sku}`,
      title: 'Collar Luna',
      visits: 2,
      totalTimeSeconds: 2,
      averageSeconds: 1,
    })
    expect(byPage.get(`/categoria/${category.id}`)?.title).toBe('Collares')
    for (const key of [`/producto/${gone.sku}`, `/categoria/${goneCategory.id}`, '/', PRODUCT_PAGE_PATTERN]) {
      expect(byPage.get(key)).toBeDefined()
      expect(byPage.get(key)).not.toHaveProperty('title')
    }
    await t.db.delete(products).where(eq(products.sku, product.sku))
    await t.db.delete(categories).where(eq(categories.id, category.id))
  })
})
