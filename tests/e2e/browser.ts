import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, inject } from 'vitest'
import { CHROMIUM_ARGS } from '../../scripts/ensure-chromium.js'
import { FIXTURE_SKUS } from './fixtures.ts'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, serializeConsent } from '#app/modules/analytics/consent.ts'
import { CART_COOKIE, cartCookieAssignment } from '#app/modules/cart/cart-cookie.ts'
import { cartLinesOf } from '#app/modules/cart/cart.ts'

export const PHONE = { width: 390, height: 844 }
export const DESKTOP = { width: 1280, height: 900 }

export const baseURL = () => inject('baseURL')

/** The consent cookie of a shopper who declined analytics and advertising (on `url`'s shop). */
export function declinedConsentCookie(url = baseURL()) {
  const consent = { version: CONSENT_POLICY_VERSION, analytics: false, advertising: false }
  return { name: CONSENT_COOKIE, value: encodeURIComponent(serializeConsent(consent)), url }
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

/**
 * One Chromium per test file and a fresh browser context per test: no test sees another's
 * localStorage, cookies (the cart), HTTP cache, routes or fake clock, whatever order they run in.
 * `page()` opens a tab in the current test's context, so the tabs of one test share them.
 */
export function setupBrowser(
  viewport = DESKTOP,
  options: { answeredConsent?: boolean; javaScriptEnabled?: boolean } = {},
) {
  let browser: Browser
  let context: BrowserContext | undefined
  let startState: StorageState | undefined
  const newContext = async () => {
    const created = await browser.newContext({
      viewport,
      baseURL: baseURL(),
      locale: 'es-CO',
      timezoneId: 'America/Bogota',
      storageState: startState,
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    })
    // A shopper who already answered the consent banner (declining both), so the banner does not
    // cover the page; tests of the banner itself start without an answer.
    if (options.answeredConsent ?? true) await created.addCookies([declinedConsentCookie()])
    return created
  }
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    })
  })
  afterEach(async () => {
    await context?.close()
    context = undefined
  })
  afterAll(async () => {
    await browser?.close()
  })
  const current = async () => (context ??= await newContext())
  return {
    async page(size = viewport): Promise<Page> {
      const page = await (await current()).newPage()
      await page.setViewportSize(size)
      return page
    },
    /** The current test's context, once the test has opened a page. */
    get context(): BrowserContext {
      if (!context) throw new Error('Abre una página (browser.page()) antes de usar el contexto.')
      return context
    },
    /**
     * Runs `prepare` (e.g. signing in) once in a context of its own; every test's context then
     * starts with the cookies and storage it left.
     */
    async startEachTestWith(prepare: (page: Page) => Promise<void>) {
      const once = await newContext()
      try {
        await prepare(await once.newPage())
        startState = await once.storageState()
      } finally {
        await once.close()
      }
    },
  }
}

/**
 * Waits until React has hydrated the document, so clicks reach their handlers, and the page has
 * settled: what was skipped while off screen is laid out, so nothing moves under a click.
 */
export async function gotoHydrated(page: Page, url: string) {
  const response = await page.goto(url)
  await page.waitForFunction(() => document.documentElement.dataset.settled === 'true')
  return response
}

/** Leaves the page without IntersectionObserver: nothing loads more on its own as it scrolls. */
export function withoutIntersectionObserver(page: Page) {
  return page.addInitScript(() => {
    window.IntersectionObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return []
      }
    } as unknown as typeof IntersectionObserver
  })
}

/**
 * Jumps to the element, as a fling or a click on it does, and returns its top on the screen over
 * the next frames: one value when nothing moves it once it is in view.
 */
export function topsAfterJumpingTo(element: Locator): Promise<number[]> {
  return element.evaluate(async (target) => {
    target.scrollIntoView({ block: 'end' })
    const tops: number[] = []
    for (let frame = 0; frame < 5; frame++) {
      tops.push(Math.round(target.getBoundingClientRect().top))
      await new Promise(requestAnimationFrame)
    }
    return tops
  })
}

export const catalog = () => inject('catalog')

/** Both widths the storefront is proved at. */
export const WIDTHS = [
  { name: 'phone', viewport: PHONE },
  { name: 'desktop', viewport: DESKTOP },
] as const

/** The cart the browser holds: the cart cookie (docs/decisions/0018-cart-in-a-cookie.md). */
export async function storedCart(page: Page): Promise<{ sku: string; quantity: number }[]> {
  const cookie = (await page.context().cookies(baseURL())).find((c) => c.name === CART_COOKIE)
  return cartLinesOf(cookie ? `${CART_COOKIE}=${cookie.value}` : '')
}

/** Replaces the cart the page's browser context holds on `url`'s shop (an empty list empties it). */
export async function setStoredCart(page: Page, lines: { sku: string; quantity: number }[], url = baseURL()) {
  const assignment = cartCookieAssignment(lines, false)
  const value = assignment.slice(CART_COOKIE.length + 1, assignment.indexOf(';'))
  await page.context().addCookies([{ name: CART_COOKIE, value, url }])
}

/** es-CO money as the shop shows it, with plain spaces so the comparison ignores NBSP. */
export const cop = (pesos: number) =>
  `$ ${pesos.toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
export const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim()

/** A toast with exactly this message. */
export function toastWith(page: Page, message: string) {
  return page.locator('[data-sonner-toast]').filter({ has: page.getByText(message, { exact: true }) })
}

/** Hue (degrees) of an element's computed background, whether Chromium reports oklch or rgb. */
export async function backgroundHue(page: Page, selector: Locator): Promise<{ hue: number; color: string }> {
  const color = await selector.evaluate((element) => getComputedStyle(element).backgroundColor)
  const oklch = color.match(/^oklch\(([\d.]+%?) ([\d.]+) ([\d.]+)/)
  if (oklch) return { hue: Number(oklch[3]), color }
  const rgb = color.match(/rgba?\((\d+),\s*(\d+),\s*(\d+)/)
  if (!rgb) throw new Error(`Color no reconocido: ${color}`)
  const [r, g, b] = rgb.slice(1, 4).map((v) => Number(v) / 255) as [number, number, number]
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  if (max === min) return { hue: -1, color }
  const d = max - min
  const hue = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return { hue: (hue * 60 + 360) % 360, color }
}

/**
 * Uncaught errors and console errors of a page (hydration mismatches show up here), and every
 * Content-Security-Policy violation of its documents, whether the browser logs it or not (a
 * `securitypolicyviolation` event, also on pages the app does not draw, such as the sign-in
 * provider's).
 */
export function collectErrors(page: Page) {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  // Reported as a console error, which the listener above keeps. Playwright sends its commands in
  // order, so the script is in place before the next navigation.
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Violación de CSP en ${event.documentURI}: ${event.effectiveDirective} bloqueó ${event.blockedURI || 'inline'}` +
          (event.sample ? ` («${event.sample}»)` : ''),
      )
    })
  })
  return errors
}

const AXE_PATH = path.resolve('node_modules/axe-core/axe.min.js')

/** Serious and critical axe-core violations of the page as it is now. */
export async function seriousViolations(page: Page) {
  // Evaluated rather than added as a script tag, which the page's Content-Security-Policy refuses.
  await page.evaluate(fs.readFileSync(AXE_PATH, 'utf8'))
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe
    type AxeResults = {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[]
    }
    return axe.run(document)
  })
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }))
}

/**
 * Records every product-card count a list goes through, so a test can tell "10 more at a time"
 * from one big jump, whatever triggered the loads. Read it back with `cardCountsSeen`.
 */
export async function recordCardCounts(page: Page, listSelector: string) {
  await page.evaluate((selector) => {
    const list = document.querySelector(selector)!
    const count = () => list.querySelectorAll('[data-testid="product-card"]').length
    const seen = [count()]
    ;(window as unknown as { __cardCounts: number[] }).__cardCounts = seen
    new MutationObserver(() => {
      if (count() !== seen.at(-1)) seen.push(count())
    }).observe(list, { childList: true, subtree: true })
  }, listSelector)
}

export function cardCountsSeen(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __cardCounts: number[] }).__cardCounts)
}

/** Scrolls the list's sentinel into view, if it is still there. */
export function revealSentinel(page: Page) {
  return page.evaluate(() => document.querySelector('[data-testid="sentinel"]')?.scrollIntoView())
}

/** Sets the stored cart from a tiny same-origin page, cheaper than rendering the home page first. */
export async function startWithCart(page: Page, lines: { sku: string; quantity: number }[]) {
  await setStoredCart(page, lines)
}

/**
 * Skus of products on the home page with at least `units` units available, fixtures left out: other
 * tests count on their stock, so a test that buys "any product" must not take one of them. With
 * `maxPrice` (centavos), only products that cost at most that, for a test whose order must not
 * reach the free-shipping threshold (the home list is shuffled, and a third of it costs more).
 */
export async function homeSkusInStock(
  page: Page,
  units = 2,
  maxPrice = Number.POSITIVE_INFINITY,
): Promise<string[]> {
  await gotoHydrated(page, '/')
  const skus = await page
    .getByTestId('product-card')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-sku')!))
  const candidates = [...new Set(skus)].filter((sku) => !FIXTURE_SKUS.has(sku))
  const response = await page.request.get(`/api/carrito?skus=${encodeURIComponent(candidates.join(','))}`)
  const { products } = (await response.json()) as {
    products: { sku: string; available: number; finalPrice: number }[]
  }
  return products
    .filter((product) => product.available >= units && product.finalPrice <= maxPrice)
    .map((product) => product.sku)
}

/**
 * Full-page screenshots at phone and desktop width, `${prefix}-phone.png` and `-desktop.png` (under
 * test-results/, for a person to look at); the page is left at the desktop width.
 */
export async function screenshotAtBothWidths(page: Page, prefix: string) {
  for (const [label, size] of [
    ['phone', PHONE],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size)
    await page.screenshot({ path: `${prefix}-${label}.png`, fullPage: true })
  }
  await page.setViewportSize(DESKTOP)
}

/**
 * The checkout's "Departamento", then its "Municipio" by name once the page has that department's
 * list: fetched by the page's scripts, or, on a page without them, shown by the server after
 * "Ver municipios del departamento".
 */
export async function choosePlace(page: Page, department: string, municipality: string) {
  await page.getByLabel('Departamento').selectOption(department)
  const showList = page.getByRole('button', { name: 'Ver municipios del departamento' })
  if (await showList.isVisible()) {
    await Promise.all([page.waitForEvent('load'), showList.click()])
  }
  const select = page.getByRole('combobox', { name: 'Municipio', exact: true })
  await select.locator('option', { hasText: municipality }).first().waitFor({ state: 'attached' })
  await select.selectOption({ label: municipality })
}

/**
 * From the cart to the success page: "Finalizar pedido", the buyer's name, phone and an address in
 * Medellín, cash on delivery, the authorization, "Confirmar pedido". Works with or without the
 * page's scripts. Answers the subtotal the summary showed.
 */
export async function placeCashOnDeliveryOrder(page: Page, buyer: { name: string; phone: string }) {
  await page.getByRole('link', { name: 'Finalizar pedido' }).click()
  await page.waitForURL((url) => url.pathname === '/finalizar-pedido')
  await page.getByLabel('Nombre').fill(buyer.name)
  await page.getByLabel('Teléfono (WhatsApp)').fill(buyer.phone)
  await page.getByLabel('Dirección').fill('Carrera 43A # 1-50')
  await choosePlace(page, 'Antioquia', 'Medellín')
  await page.getByLabel('Pago contra entrega').check()
  await page.getByLabel(/Autorizo el tratamiento/).check()
  const subtotal = plain(await page.getByTestId('checkout-subtotal').textContent())
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
  await page.waitForURL('**/finalizar-pedido/success?**')
  return subtotal
}
