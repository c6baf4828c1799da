import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { categoryPath } from '#app/utils/paths.ts'
import { CHROMIUM_ARGS } from '../../scripts/ensure-chromium.js'
import { baseURL, declinedConsentCookie, gotoHydrated, PHONE, setupBrowser } from './browser.ts'
import { FIXTURES } from './fixtures.ts'

/**
 * What the first paint and the largest paint of a storefront page wait for on a slow link (issue
 * 10, Lighthouse mobile): the stylesheet is inline, no script is fetched before the page has
 * loaded, the largest image is preloaded as the page will pick it, and code for things not yet
 * used (toasts, the search panel) stays out.
 */
const browser = setupBrowser(PHONE)

/** Pages read as the server wrote them, as a browser without JavaScript sees them. */
let noScript: Browser
beforeAll(async () => {
  noScript = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  })
})
afterAll(async () => {
  await noScript?.close()
})

async function serverPage(path: string, viewport = PHONE) {
  const context = await noScript.newContext({ viewport, baseURL: baseURL(), javaScriptEnabled: false })
  await context.addCookies([declinedConsentCookie()])
  const page = await context.newPage()
  await page.goto(path)
  return { page, close: () => context.close() }
}

const STOREFRONT = [
  '/',
  categoryPath(FIXTURES.category),
  `/producto/${FIXTURES.discounted.sku}`,
  '/carrito',
  '/finalizar-pedido',
]

test('no storefront page has a render-blocking stylesheet or fetches scripts while it is parsed', async () => {
  for (const path of STOREFRONT) {
    const html = await (await fetch(new URL(path, baseURL()))).text()
    expect(html, path).not.toMatch(/<link[^>]*rel="stylesheet"/)
    expect(html, path).toMatch(/<style id="app-styles"[^>]*>[^<]*tailwindcss/)
    expect(html, path).not.toMatch(/<link[^>]*rel="modulepreload"/)
    for (const [, body] of html.matchAll(/<script[^>]*type="module"[^>]*>([^<]*)<\/script>/g)) {
      expect(body, path).not.toMatch(/^\s*import\s/m)
    }
  }
})

test('the home preloads its first banner as the picture will pick it, ahead of any other image', async () => {
  const { page, close } = await serverPage('/')
  const found = await page.evaluate(() => {
    const picture = document.querySelector('[data-testid="carousel-track"] picture')
    const source = picture?.querySelector('source')
    const img = picture?.querySelector('img')
    const preloads = [...document.head.querySelectorAll('link[rel="preload"][as="image"]')].map((link) => ({
      srcset: link.getAttribute('imagesrcset'),
      sizes: link.getAttribute('imagesizes'),
      media: link.getAttribute('media'),
      high: link.getAttribute('fetchpriority') === 'high',
    }))
    return {
      source: {
        srcset: source?.getAttribute('srcset'),
        sizes: source?.getAttribute('sizes'),
        media: source?.media,
      },
      img: { srcset: img?.getAttribute('srcset'), sizes: img?.getAttribute('sizes') },
      preloads,
    }
  })
  await close()
  expect(found.source.srcset).toBeTruthy()
  expect(found.preloads).toContainEqual({ ...found.source, high: true })
  expect(found.preloads).toContainEqual({
    srcset: found.img.srcset,
    sizes: found.img.sizes,
    media: '(min-width: 700px)',
    high: true,
  })
  // Product cards under the banner do not compete with it.
  expect(found.preloads.filter((preload) => preload.high)).toHaveLength(2)
})

test('without JavaScript the home paints styled, with its first banner loaded', async () => {
  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    const { page, close } = await serverPage('/', viewport)
    const banner = page.locator('[data-testid="carousel-track"] img').first()
    await expect
      .poll(() => banner.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0)
    const box = await banner.boundingBox()
    expect(box?.width).toBeGreaterThan(viewport.width / 2)
    expect(box?.x).toBeGreaterThanOrEqual(0)
    expect(await page.locator('header').evaluate((header) => getComputedStyle(header).position)).toBe(
      'sticky',
    )
    await close()
  }
})

test('banners after the first fetch their images once the page has loaded, and show without JavaScript', async () => {
  const page = await browser.page()
  const events: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/media/banners/')) events.push(new URL(request.url()).pathname)
  })
  page.on('load', () => events.push('load'))
  await gotoHydrated(page, '/')
  const slides = page.locator('[data-testid="carousel-track"] > [aria-roledescription="diapositiva"]')
  const laterImages = await slides.evaluateAll((all) =>
    all
      .slice(1)
      .flatMap((slide) => [...slide.querySelectorAll('img, source')])
      .flatMap((element) =>
        (element.getAttribute('srcset') ?? '').split(',').map((entry) => entry.trim().split(' ')[0]!),
      ),
  )
  expect(laterImages.length).toBeGreaterThan(0)
  // Once hydrated the next slide is rendered: swiping to it finds its image on the way.
  await expect.poll(() => events.filter((event) => laterImages.includes(event)).length).toBeGreaterThan(0)
  const loadedAt = events.indexOf('load')
  expect(loadedAt).toBeGreaterThan(0)
  for (const [index, event] of events.entries()) {
    if (laterImages.includes(event)) expect(index, event).toBeGreaterThan(loadedAt)
  }
  await page.close()

  const { page: noScriptPage, close } = await serverPage('/')
  const hidden = await noScriptPage
    .locator('[data-testid="carousel-track"] > [aria-roledescription="diapositiva"]')
    .evaluateAll(
      (all) => all.filter((slide) => getComputedStyle(slide).contentVisibility !== 'visible').length,
    )
  expect(hidden).toBe(0)
  await close()
})

test('a product page preloads its first image with high priority', async () => {
  const home = await serverPage('/')
  const hrefs = await home.page
    .locator('a[href^="/producto/"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
  await home.close()
  let checked = 0
  for (const href of new Set(hrefs)) {
    const { page, close } = await serverPage(href!)
    const first = await page
      .locator('[data-testid="carousel-track"] img')
      .first()
      .getAttribute('srcset')
      .catch(() => null)
    if (first) {
      const preloaded = await page.evaluate(() =>
        [...document.head.querySelectorAll('link[rel="preload"][as="image"][fetchpriority="high"]')].map(
          (link) => link.getAttribute('imagesrcset'),
        ),
      )
      expect(preloaded, href!).toContain(first)
      checked++
    }
    await close()
    if (checked) break
  }
  expect(checked).toBe(1)
})

test('a first visit loads neither the toaster nor the search panel; using the search box does', async () => {
  const page = await browser.page()
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  await gotoHydrated(page, '/')
  await page.waitForLoadState('networkidle')
  // Past the moment the toaster used to load by itself (the page idle, at most 2 s).
  await page.waitForTimeout(2500)
  expect(scripts.length).toBeGreaterThan(0)
  expect(scripts.filter((path) => /\/(toaster|search-results)-[^/]*\.js$/.test(path))).toEqual([])
  await page.getByRole('combobox', { name: 'Buscar productos' }).focus()
  await expect.poll(() => scripts.some((path) => /\/search-results-[^/]*\.js$/.test(path))).toBe(true)
})
