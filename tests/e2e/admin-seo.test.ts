import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import { SEO_SETTINGS_MESSAGES } from '#app/modules/settings/validators.ts'
import { adminProductEditPath } from '#app/utils/paths.ts'
import { expectMessage, signInAsAdmin } from './admin-session.ts'
import { baseURL, DESKTOP, gotoHydrated, PHONE, screenshotAtBothWidths, setupBrowser } from './browser.ts'
import { FIXTURES } from './fixtures.ts'

/**
 * "SEO" as the owner uses it: a product's title, description and slug with the Google and WhatsApp
 * previews following what is typed; the old URL moved for good (301) to the new one in a shopper's
 * browser, before any script; and the Search Console tag saved on its page and shown on the home
 * page. The product and category are this file's own fixtures.
 */

const owner = setupBrowser()
/** A shopper's browser without scripts: what it gets is what the server answers. */
const shopper = setupBrowser(DESKTOP, { javaScriptEnabled: false })
const SHOTS = 'test-results/admin-seo'
const { sku } = FIXTURES.seoProduct

beforeAll(() => owner.startEachTestWith((page) => signInAsAdmin(page)))

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent()

/** The product's form: types the SEO fields and checks that both previews follow; returns the slug before. */
async function editSeo(
  page: Page,
  values: { title: string; description: string; slug: string; expectedSlug: string },
) {
  await gotoHydrated(page, adminProductEditPath(sku))
  const seo = page.getByTestId('seo-fields')
  const slugField = seo.getByLabel('URL', { exact: true })
  const before = await slugField.inputValue()
  // Empty fields show the defaults: the name in the title, the description's start.
  if (!(await seo.getByLabel('Título para buscadores').inputValue())) {
    expect(await text(page, 'seo-preview-title')).toContain(FIXTURES.seoProduct.name)
    expect(await text(page, 'seo-preview-description')).toBe(FIXTURES.seoProduct.description)
  }

  await seo.getByLabel('Título para buscadores').fill(values.title)
  await seo.getByLabel('Resumen para buscadores').fill(values.description)
  await slugField.fill(values.slug)
  await slugField.blur()
  // Normalised when the field is left: lower case, no accents, hyphens.
  expect(await slugField.inputValue()).toBe(values.expectedSlug)
  await expect.poll(() => text(page, 'seo-preview-title')).toBe(values.title)
  expect(await text(page, 'seo-preview-description')).toBe(values.description)
  expect(await text(page, 'seo-preview-url')).toContain(`producto › ${sku} › ${values.expectedSlug}`)
  expect(await text(page, 'seo-preview-card-title')).toBe(values.title)
  expect(await text(page, 'seo-preview-card-description')).toBe(values.description)
  expect(await text(page, 'product-seo-title-count')).toContain(`${values.title.length} de ~60`)
  return before
}

async function saveProduct(page: Page) {
  await page.getByRole('button', { name: 'Guardar cambios' }).click()
  await expectMessage(page, PRODUCT_MESSAGES.updated)
}

/** What a shopper's browser without scripts gets for `path`: the redirect it followed, and the page's head. */
async function visitWithoutScripts(path: string) {
  const page = await shopper.page()
  const response = await page.goto(path)
  const redirect = response?.request().redirectedFrom()
  const head = await page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
    ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
    verification: [...document.querySelectorAll('meta[name="google-site-verification"]')].map((meta) =>
      meta.getAttribute('content'),
    ),
  }))
  const moved = redirect ? { status: (await redirect.response())?.status(), from: redirect.url() } : null
  const answer = { status: response?.status(), url: page.url(), moved, head }
  await page.close()
  return answer
}

test.each([
  {
    width: 'phone',
    size: PHONE,
    title: 'Collar Enlace Legible dorado | Envío gratis',
    description: 'Collar dorado con pago contra entrega y envío a toda Colombia.',
    slug: 'Collar Súper  Legible!',
    expectedSlug: 'collar-super-legible',
  },
  {
    width: 'desktop',
    size: DESKTOP,
    title: 'Collar legible para escritorio',
    description: 'La descripción nueva que Google y WhatsApp muestran del collar.',
    slug: 'collar-legible-escritorio',
    expectedSlug: 'collar-legible-escritorio',
  },
])(
  'at $width width the owner edits a product’s SEO; its old URL moves for good to the new one',
  async (values) => {
    const page = await owner.page(values.size)
    const before = await editSeo(page, values)
    await screenshotAtBothWidths(page, `${SHOTS}/product-form-${values.width}`)
    await saveProduct(page)
    await page.close()

    const canonical = `${baseURL()}/producto/${sku}/${values.expectedSlug}`
    for (const old of [`/producto/${sku}/${before}`, `/producto/${sku}`]) {
      const visit = await visitWithoutScripts(old)
      expect(visit.moved, old).toEqual({ status: 301, from: `${baseURL()}${old}` })
      expect(visit.status, old).toBe(200)
      expect(visit.url, old).toBe(canonical)
      expect(visit.head, old).toMatchObject({
        title: values.title,
        description: values.description,
        canonical,
        ogTitle: values.title,
      })
    }
    // The canonical URL answers at once.
    expect((await visitWithoutScripts(canonical)).moved).toBeNull()
  },
)

test('the SEO page saves Search Console’s tag and the home page carries it; a bad one is refused', async () => {
  const page = await owner.page(PHONE)
  await gotoHydrated(page, '/admin')
  await page.getByRole('button', { name: /menú/i }).click()
  await page.getByTestId('admin-menu').getByRole('link', { name: 'SEO' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/seo')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  const field = page.getByLabel('Verificación de Google Search Console')
  try {
    await field.fill('"><script>alert(1)</script>')
    await page.getByRole('button', { name: 'Guardar' }).click()
    await expectMessage(page, SEO_SETTINGS_MESSAGES.invalid)
    expect(await page.getByText(SEO_SETTINGS_MESSAGES.verification).isVisible()).toBe(true)

    const token = 'e2eVerificacion_Token-1234567890abc'
    await page
      .getByLabel('Verificación de Google Search Console')
      .fill(`<meta name="google-site-verification" content="${token}" />`)
    await page.getByRole('button', { name: 'Guardar' }).click()
    await expectMessage(page, SEO_SETTINGS_MESSAGES.saved)
    // The form shows the code as saved (the tag's content alone).
    await expect.poll(() => page.getByLabel('Verificación de Google Search Console').inputValue()).toBe(token)
    await screenshotAtBothWidths(page, `${SHOTS}/seo-settings`)
    expect((await visitWithoutScripts('/')).head.verification).toEqual([token])
  } finally {
    // The other files read the home page: it goes back to no tag.
    await gotoHydrated(page, '/admin/seo')
    await page.getByLabel('Verificación de Google Search Console').fill('')
    await page.getByRole('button', { name: 'Guardar' }).click()
    await expectMessage(page, SEO_SETTINGS_MESSAGES.saved)
    await page.close()
  }
  expect((await visitWithoutScripts('/')).head.verification).toEqual([])
})
