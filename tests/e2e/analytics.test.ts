import type { Page, Request } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { signInAsAdmin } from './admin-session.ts'
import { baseURL, gotoHydrated, PHONE, plain, seriousViolations, setupBrowser } from './browser.ts'
import { FIXTURES } from './fixtures.ts'
import { productPath } from '#app/utils/paths.ts'
import { slugify } from '#app/utils/slug.ts'

/**
 * Consent first (Ley 1581 de 2012): a new shopper sees the banner and nothing is measured or loaded
 * for it; after accepting analytics a click and a page view are recorded, and the admin sees them in
 * "Reportes".
 */

const shopper = setupBrowser(PHONE, { answeredConsent: false })
const admin = setupBrowser()
const SHOTS = 'test-results/analytics'
/** The product page's address, and the page name the analytics keep it under (its SKU alone). */
const PRODUCT_PATH = productPath({ sku: FIXTURES.shortName.sku, slug: slugify(FIXTURES.shortName.name) })
const PRODUCT_PAGE_NAME = `/producto/${FIXTURES.shortName.sku}`

beforeAll(() => admin.startEachTestWith((page) => signInAsAdmin(page)))

/** Every request of the page that measures or is loaded only with consent. */
function watchTracking(page: Page) {
  const seen: string[] = []
  page.on('request', (request: Request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith('/api/analitica') || /\/assets\/tracker-/.test(url.pathname))
      seen.push(`${request.method()} ${url.pathname}`)
  })
  return seen
}

/** The admin's numbers in Reportes for this month: clicks of an element and visits of a page. */
async function reportFigures(element: string, pageName: string) {
  const page = await admin.page()
  await gotoHydrated(page, '/admin/reportes')
  // Pages are rows keyed by their path (shown under the product's name); elements by their name.
  const row = (testId: string, label: string) =>
    testId === 'page-report'
      ? page.getByTestId(testId).locator(`tbody tr[data-page="${label}"]`)
      : page
          .getByTestId(testId)
          .locator('tbody tr')
          .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
  const number = async (testId: string, label: string) =>
    (await row(testId, label).count())
      ? Number(plain(await row(testId, label).locator('td').first().textContent()).replace(/\./g, ''))
      : 0
  const figures = {
    clicks: await number('click-report', element),
    visits: await number('page-report', pageName),
  }
  return { page, figures }
}

test('nothing is measured or loaded before consent; after it a click and a page view reach Reportes', async () => {
  const before = (await reportFigures('agregar-carrito', PRODUCT_PAGE_NAME)).figures

  const page = await shopper.page()
  const tracking = watchTracking(page)
  await gotoHydrated(page, PRODUCT_PATH)
  const banner = page.getByTestId('consent-banner')
  await expect(banner.isVisible()).resolves.toBe(true)
  await expect(banner.getByLabel(/Analítica/).isChecked()).resolves.toBe(false)
  await expect(banner.getByLabel(/Publicidad/).isChecked()).resolves.toBe(false)
  expect(await seriousViolations(page)).toEqual([])
  await page.screenshot({ path: `${SHOTS}/banner-phone.png` })
  // "Aceptar todo" and "Rechazar todo" carry the same weight: neither is nudged.
  const look = (name: string) =>
    banner.getByRole('button', { name }).evaluate((button) => {
      const style = getComputedStyle(button)
      return [
        style.color,
        style.backgroundColor,
        style.borderColor,
        style.fontWeight,
        button.clientHeight,
        button.clientWidth,
      ]
    })
  expect(await look('Aceptar todo')).toEqual(await look('Rechazar todo'))

  // Clicking and leaving pages before answering sends nothing and loads no tracker.
  await page.locator('[data-track="agregar-carrito"]').click()
  await page.getByRole('link', { name: /^Carrito/ }).click()
  await page.waitForURL('**/carrito')
  await page.goBack()
  await page.waitForURL(`**${PRODUCT_PATH}`)
  await page.waitForTimeout(500)
  expect(tracking).toEqual([])

  // Accept analytics only: the banner closes without a reload and the tracker starts.
  await banner.getByLabel(/Analítica/).check()
  const consentEvent = page.evaluate(
    () =>
      new Promise((resolve) =>
        window.addEventListener('vitrina:consent', (event) => resolve((event as CustomEvent).detail), {
          once: true,
        }),
      ),
  )
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))
  await banner.getByRole('button', { name: 'Aceptar selección' }).click()
  await expect(consentEvent).resolves.toMatchObject({ analytics: true, advertising: false })
  await banner.waitFor({ state: 'hidden' })
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
  // The pressed button is gone: the focus goes to where the choice can be changed, not to <body>.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
    .toBe('Preferencias de privacidad')

  const clickSent = page.waitForResponse((r) => r.url().endsWith('/api/analitica/clic') && r.status() === 204)
  await page.locator('[data-track="agregar-carrito"]').click()
  await clickSent
  // Leaving the product page for the cart (a route change) sends its page view.
  const viewSent = page.waitForResponse((r) => r.url().endsWith('/api/analitica/vista') && r.status() === 204)
  await page.getByRole('link', { name: /^Carrito/ }).click()
  const viewRequest = (await viewSent).request()
  expect(JSON.parse(viewRequest.postData() ?? '{}')).toMatchObject({
    page_title: PRODUCT_PAGE_NAME,
    new_visit: true,
  })

  // "Preferencias de privacidad" in the footer opens the banner again with the choice as it is.
  await page.getByRole('link', { name: 'Preferencias de privacidad' }).click()
  await banner.waitFor({ state: 'visible' })
  await expect(banner.getByLabel(/Analítica/).isChecked()).resolves.toBe(true)

  const { page: reports, figures } = await reportFigures('agregar-carrito', PRODUCT_PAGE_NAME)
  expect(figures).toEqual({ clicks: before.clicks + 1, visits: before.visits + 1 })
  await reports.screenshot({ path: `${SHOTS}/reportes-desktop.png`, fullPage: true })
})

test('without JavaScript the banner is a plain form that remembers the choice', async () => {
  const page = await shopper.page()
  await shopper.context.route('**/*.js', (route) => route.abort())
  await page.goto('/')
  const banner = page.getByTestId('consent-banner')
  await banner.getByRole('button', { name: 'Rechazar todo' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await expect(banner.isHidden()).resolves.toBe(true)
  const cookie = (await shopper.context.cookies()).find((c) => c.name === 'vitrina_consent')
  expect(decodeURIComponent(cookie?.value ?? '')).toMatch(/\|a=0\|m=0\|i=/)
})

test('a malformed consent cookie is no answer: the page works and asks again', async () => {
  const page = await shopper.page()
  await shopper.context.addCookies([{ name: 'vitrina_consent', value: '%E0', url: baseURL() }])
  const response = await page.goto(PRODUCT_PATH)
  expect(response?.status()).toBe(200)
  await expect(page.getByTestId('consent-banner').isVisible()).resolves.toBe(true)
})
