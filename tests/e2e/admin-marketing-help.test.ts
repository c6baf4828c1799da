import { beforeAll, expect, test } from 'vitest'
import { signInAsAdmin } from './admin-session.ts'
import { DESKTOP, gotoHydrated, PHONE, screenshotAtBothWidths, setupBrowser } from './browser.ts'

/**
 * "Marketing" and "Ayuda" in a browser, at 390 px and 1280 px: the catalog feeds' addresses and
 * counts match what the feeds serve, and the header's "?" opens the guide at the page's section.
 */

const browser = setupBrowser()
const SHOTS = 'test-results/admin-marketing-help'

beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

test('the Marketing page shows each feed with its address and count, and the feeds serve that many items', async () => {
  const page = await browser.page(PHONE)
  await gotoHydrated(page, '/admin/marketing')
  await expect.poll(() => page.getByTestId('feed').count()).toBe(2)
  for (const [index, path] of ['/catalogo/meta.xml', '/catalogo/google.xml'].entries()) {
    const feed = page.getByTestId('feed').nth(index)
    const url = await feed.getByTestId('feed-url').inputValue()
    expect(new URL(url).pathname).toBe(path)
    const count = Number((await feed.getByTestId('feed-count').textContent())!.replace(/\D/g, ''))
    expect(count).toBeGreaterThan(0)
    const served = await page.request.get(path)
    expect(served.status()).toBe(200)
    expect(served.headers()['content-type']).toBe('application/xml; charset=utf-8')
    expect((await served.text()).match(/<item>/g)?.length).toBe(count)
  }
  await screenshotAtBothWidths(page, `${SHOTS}/marketing`)
})

test('the header\'s "?" opens the guide at the section of the page, without scripts too', async () => {
  const page = await browser.page(DESKTOP)
  await gotoHydrated(page, '/admin/marketing')
  await page.getByRole('link', { name: 'Ayuda de esta sección' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/ayuda' && url.hash === '#marketing')
  await expect.poll(() => page.locator('#marketing').isVisible()).toBe(true)
  await screenshotAtBothWidths(page, `${SHOTS}/ayuda`)

  // The link is plain HTML: a page whose scripts have not run has it already.
  const html = await (await page.request.get('/admin/productos/entrada')).text()
  expect(html).toContain('href="/admin/ayuda#entradas-y-salidas"')
})
