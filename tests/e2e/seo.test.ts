import http from 'node:http'
import sharp from 'sharp'
import { expect, test } from 'vitest'
import { categoryPath, productPath } from '#app/utils/paths.ts'
import { slugify } from '#app/utils/slug.ts'
import { baseURL, catalog, gotoHydrated, setupBrowser } from './browser.ts'
import { FIXTURES } from './fixtures.ts'

const browser = setupBrowser()

/** The URL answers with a JPEG of this size. */
async function expectJpeg(url: string, width: number, height: number) {
  const response = await fetch(url)
  expect(response.status, url).toBe(200)
  expect(response.headers.get('content-type'), url).toMatch(/^image\/jpeg/)
  const info = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
  expect(info, url).toMatchObject({ format: 'jpeg', width, height })
}

const PAGES = [
  '/',
  categoryPath(FIXTURES.category),
  `/producto/${FIXTURES.discounted.sku}`,
  '/carrito',
  '/buscar?q=collar',
  '/no-existe',
  `/producto/${FIXTURES.hidden.sku}`,
]

test('every page has one title and a description', async () => {
  const page = await browser.page()
  for (const path of PAGES) {
    await gotoHydrated(page, path)
    const head = await page.evaluate(() => ({
      titles: document.head.querySelectorAll('title').length,
      title: document.title,
      descriptions: [...document.head.querySelectorAll('meta[name="description"]')].map((meta) =>
        meta.getAttribute('content'),
      ),
    }))
    expect(head.titles, path).toBe(1)
    expect(head.title.trim(), path).not.toBe('')
    expect(head.descriptions, path).toHaveLength(1)
    expect(head.descriptions[0]?.trim(), path).not.toBe('')
  }
  await page.close()
})

test('a product page carries Open Graph tags and JSON-LD in the server HTML', async () => {
  // Link previews (WhatsApp) read the HTML without running scripts.
  const response = await fetch(`${baseURL()}/producto/${FIXTURES.discounted.sku}`)
  expect(response.status).toBe(200)
  const html = await response.text()
  const page = await browser.page()
  await page.setContent(html.replace(/<script\b[^>]*type="module"[^>]*>[\s\S]*?<\/script>/g, ''))
  const meta = (property: string) =>
    page.locator(`head meta[property="${property}"]`).getAttribute('content', { timeout: 1000 })
  expect(await meta('og:title')).toBe(FIXTURES.discounted.name)
  expect(await meta('og:type')).toBe('product')
  expect(await meta('product:price:amount')).toBe('64000.00')
  expect(await meta('product:price:currency')).toBe('COP')

  // Link previews get a JPEG (WhatsApp often skips WebP) with its size and type. The fixture has
  // no image: the shop's logo stands in.
  expect(await meta('og:image')).toBe(`${baseURL()}/og-image.jpg`)
  expect(await meta('og:image:type')).toBe('image/jpeg')
  expect(await meta('og:image:width')).toBe('1200')
  expect(await meta('og:image:height')).toBe('630')
  await expectJpeg(`${baseURL()}/og-image.jpg`, 1200, 630)

  // A product with images links its own 1200×630 JPEG, as an absolute URL that loads.
  const withImage = await fetch(`${baseURL()}/producto/${catalog().videoSku}`).then((r) => r.text())
  const tag = (property: string) =>
    withImage.match(new RegExp(`<meta property="${property}" content="([^"]+)"`))?.[1]
  const image = tag('og:image')
  expect(image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/.+\.jpg$/)
  expect(tag('og:image:type')).toBe('image/jpeg')
  expect(tag('og:image:width')).toBe('1200')
  expect(tag('og:image:height')).toBe('630')
  await expectJpeg(image!, 1200, 630)

  // The Product block (the page also has its BreadcrumbList).
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents()
  const product = blocks.map((block) => JSON.parse(block)).find((data) => data['@type'] === 'Product')
  expect(product).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: FIXTURES.discounted.name,
    sku: FIXTURES.discounted.sku,
    offers: { '@type': 'Offer', priceCurrency: 'COP', price: '64000.00' },
  })
  expect(product.offers.availability).toBe('https://schema.org/InStock')
  await page.close()
})

test('sitemap.xml lists listed products and robots.txt points at it', async () => {
  const sitemap = await fetch(`${baseURL()}/sitemap.xml`)
  expect(sitemap.status).toBe(200)
  expect(sitemap.headers.get('content-type')).toMatch(/xml/)
  const xml = await sitemap.text()
  const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])
  // Each at its canonical URL (the slug from the name: none of these was given another).
  // (admin-seo.test.ts gives its own product another slug.)
  for (const { sku, name } of catalog().visible.filter(({ sku }) => sku !== FIXTURES.seoProduct.sku))
    expect(locations).toContain(`${baseURL()}${productPath({ sku, slug: slugify(name) })}`)
  expect(
    locations.some((location) => location?.startsWith(`${baseURL()}/producto/${FIXTURES.hidden.sku}`)),
  ).toBe(false)

  const robots = await fetch(`${baseURL()}/robots.txt`)
  expect(robots.status).toBe(200)
  expect(await robots.text()).toContain(`Sitemap: ${baseURL()}/sitemap.xml`)
})

test('unknown paths answer 404 in the HTML itself', async () => {
  for (const path of ['/no-existe', '/producto/NOE-XIS-TE000000', '/categoria/NADA/Nada']) {
    const response = await fetch(`${baseURL()}${path}`)
    expect(response.status, path).toBe(404)
    expect(await response.text(), path).toContain('Esta página no existe.')
  }
})

test('a request to an old host is moved permanently to the same path on PUBLIC_URL', async () => {
  const { port } = new URL(baseURL())
  const answer = await new Promise<{ status: number; location?: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/producto/ABC-DEF-12345678?ref=viejo',
        headers: { Host: 'viejo.localhost' },
      },
      (response) => {
        response.resume()
        resolve({ status: response.statusCode!, location: response.headers.location })
      },
    )
    request.on('error', reject)
    request.end()
  })
  expect(answer).toEqual({
    status: 301,
    location: `${baseURL()}/producto/ABC-DEF-12345678?ref=viejo`,
  })
})
