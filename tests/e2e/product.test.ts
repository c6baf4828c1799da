import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { categoryPath } from '#app/utils/paths.ts'
import {
  catalog,
  collectErrors,
  cop,
  gotoHydrated,
  plain,
  startWithCart,
  setupBrowser,
  storedCart,
  toastWith,
  WIDTHS,
} from './browser.ts'
import { FIXTURES, STORE } from './fixtures.ts'

const browser = setupBrowser()

const card = (page: Page, sku: string) => page.locator(`[data-testid="product-card"][data-sku="${sku}"]`)

describe.each(WIDTHS)('product card on a $name', ({ viewport }) => {
  test('name truncated after 14 characters, discount badge, es-CO price and an add button', async () => {
    const page = await browser.page(viewport)
    await startWithCart(page, [])
    await gotoHydrated(page, categoryPath(FIXTURES.category))

    const discounted = card(page, FIXTURES.discounted.sku)
    // "Collar Corazón de Prueba" has 24 characters: its first 15 and "...".
    expect(await discounted.locator('h3').textContent()).toBe('Collar Corazón ...')
    expect(await discounted.getByTestId('discount-badge').textContent()).toBe('-20%')
    const discountedText = plain(await discounted.textContent())
    expect(discountedText).toContain(cop(64000))
    expect(discountedText).toContain(cop(80000))

    const short = card(page, FIXTURES.shortName.sku)
    expect(await short.locator('h3').textContent()).toBe(FIXTURES.shortName.name)
    expect(await short.getByTestId('discount-badge').count()).toBe(0)
    expect(plain(await short.textContent())).toContain(cop(30000))

    await short.getByRole('button', { name: `Agregar ${FIXTURES.shortName.name} al carrito` }).click()
    await expect
      .poll(() => toastWith(page, `${FIXTURES.shortName.name} agregado al carrito.`).count())
      .toBe(1)
    expect(await storedCart(page)).toEqual([{ sku: FIXTURES.shortName.sku, quantity: 1 }])
    await short.getByRole('button', { name: `Agregar ${FIXTURES.shortName.name} al carrito` }).click()
    await expect.poll(() => storedCart(page)).toEqual([{ sku: FIXTURES.shortName.sku, quantity: 2 }])
    await page.close()
  })

  test('card images have srcset, width and height', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const images = page.getByTestId('product-card').locator('img')
    expect(await images.count()).toBeGreaterThan(0)
    const attributes = await images.evaluateAll((all) =>
      all.map((img) => ({
        srcset: img.getAttribute('srcset') ?? '',
        width: Number(img.getAttribute('width')),
        height: Number(img.getAttribute('height')),
        alt: img.getAttribute('alt'),
      })),
    )
    for (const image of attributes) {
      expect(image.srcset).toMatch(/\.webp \d+w/)
      expect(image.width).toBeGreaterThan(0)
      expect(image.height).toBeGreaterThan(0)
      expect(image.alt).toBeTruthy()
    }
    // The first best seller image is eager and really loads a WebP variant.
    const first = images.first()
    await expect
      .poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true)
    expect(await first.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\.webp$/)
    await page.close()
  })
})

describe.each(WIDTHS)('product page on a $name', ({ viewport }) => {
  test('carousel with thumbnails, "Slide N" images and a silent looping video', async () => {
    const page = await browser.page(viewport)
    const errors = collectErrors(page)
    const response = await gotoHydrated(page, `/producto/${catalog().videoSku}`)
    expect(response?.status()).toBe(200)
    const detail = page.getByTestId('product-detail')
    const carousel = detail.getByRole('region', { name: /^Imágenes de / })
    const slides = carousel.locator('[aria-roledescription="diapositiva"]')
    const count = await slides.count()
    expect(count).toBeGreaterThan(1)
    const thumbnails = carousel.getByTestId('carousel-thumbnails').getByRole('button')
    expect(await thumbnails.count()).toBe(count)

    const images = carousel.locator('[aria-roledescription="diapositiva"] img')
    const alts = await images.evaluateAll((all) => all.map((img) => img.getAttribute('alt')))
    expect(alts.length).toBe(count - 1)
    for (const alt of alts) expect(alt).toMatch(/^Slide \d+$/)
    expect(alts[0]).toBe('Slide 1')

    const video = carousel.locator('video')
    expect(await video.count()).toBe(1)
    const state = await video.evaluate((v: HTMLVideoElement) => ({
      autoplay: v.autoplay,
      loop: v.loop,
      muted: v.muted,
      controls: v.controls,
      src: v.currentSrc || v.src,
    }))
    expect(state).toMatchObject({ autoplay: true, loop: true, muted: true, controls: false })
    expect(state.src).toMatch(/\.(mp4|webm|ogg)$/)

    // A thumbnail moves the carousel to its slide.
    await thumbnails.nth(1).click()
    await expect.poll(() => thumbnails.nth(1).getAttribute('aria-current')).toBe('true')
    const track = carousel.getByTestId('carousel-track')
    await expect
      .poll(() => track.evaluate((element) => Math.round(element.scrollLeft / element.clientWidth)))
      .toBe(1)
    expect(errors).toEqual([])
    await page.close()
  })

  test('stock, discount percentage, both prices and the free-shipping notice the settings allow', async () => {
    const page = await browser.page(viewport)
    const errors = collectErrors(page)
    await gotoHydrated(page, `/producto/${FIXTURES.discounted.sku}`)
    const detail = page.getByTestId('product-detail')
    expect(await detail.getByRole('heading', { level: 1 }).textContent()).toBe(FIXTURES.discounted.name)
    expect(plain(await detail.getByTestId('stock').textContent())).toBe('Stock: 3 unidades')
    const text = plain(await detail.textContent())
    expect(text).toContain('20% de descuento')
    expect(text).toContain(cop(80000))
    expect(text).toContain(cop(64000))
    const today = new Intl.DateTimeFormat('es-CO', {
      day: 'numeric',
      month: 'long',
      timeZone: 'America/Bogota',
    }).format(new Date())
    // 64.000 does not pass the 100.000 threshold and shipping costs 8.000: no "gratis hoy" promise.
    const notice = plain(await detail.getByTestId('free-shipping-today').textContent())
    expect(notice).toBe(`Envío gratis en compras superiores a ${cop(STORE.freeShippingThreshold)}`)
    expect(notice).not.toContain(today)

    // 120.000 ships free on its own: today's notice, with the date.
    await gotoHydrated(page, `/producto/${FIXTURES.single.sku}`)
    const free = plain(await page.getByTestId('free-shipping-today').textContent())
    expect(free).toMatch(/^¡Envío gratis hoy, .+!$/)
    expect(free).toContain(today)
    expect(errors).toEqual([])
    await page.close()
  })

  test('"Agregar al carrito" adds one unit', async () => {
    const page = await browser.page(viewport)
    await startWithCart(page, [])
    await gotoHydrated(page, `/producto/${FIXTURES.discounted.sku}`)
    await page.getByRole('button', { name: 'Agregar al carrito' }).click()
    await expect
      .poll(() => toastWith(page, `${FIXTURES.discounted.name} agregado al carrito.`).count())
      .toBe(1)
    expect(await storedCart(page)).toEqual([{ sku: FIXTURES.discounted.sku, quantity: 1 }])
    expect(await page.getByTestId('cart-count').textContent()).toBe('1')
    await page.close()
  })

  test('"COMPRAR AHORA" empties the cart, adds one unit and goes to checkout', async () => {
    const page = await browser.page(viewport)
    await startWithCart(page, [
      { sku: FIXTURES.shortName.sku, quantity: 2 },
      { sku: FIXTURES.discounted.sku, quantity: 2 },
    ])
    await gotoHydrated(page, `/producto/${FIXTURES.discounted.sku}`)
    await page.getByRole('button', { name: 'COMPRAR AHORA' }).click()
    await page.waitForURL((url) => url.pathname === '/finalizar-pedido')
    expect(await storedCart(page)).toEqual([{ sku: FIXTURES.discounted.sku, quantity: 1 }])
    await page.close()
  })

  test('a retail product without stock says "Agotado" and cannot be bought', async () => {
    const page = await browser.page(viewport)
    const response = await gotoHydrated(page, `/producto/${FIXTURES.soldOut.sku}`)
    expect(response?.status()).toBe(200)
    expect(await page.getByTestId('stock').textContent()).toBe('Agotado')
    expect(await page.getByRole('button', { name: 'COMPRAR AHORA' }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Agregar al carrito' }).isDisabled()).toBe(true)
    await page.close()
  })

  test('hidden and unknown skus are a 404', async () => {
    const page = await browser.page(viewport)
    for (const sku of [FIXTURES.hidden.sku, 'NOE-XIS-TE000000']) {
      const response = await gotoHydrated(page, `/producto/${sku}`)
      expect(response?.status()).toBe(404)
      expect(await page.getByText('Esta página no existe.').isVisible()).toBe(true)
      expect(await page.getByTestId('product-detail').count()).toBe(0)
      expect(await page.title()).toBe('Página no encontrada')
    }
    await page.close()
  })
})
