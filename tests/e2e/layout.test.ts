import { describe, expect, test } from 'vitest'
import { categoryPath } from '#app/utils/paths.ts'
import {
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  startWithCart,
  setupBrowser,
  toastWith,
  WIDTHS,
} from './browser.ts'
import { FIXTURES, STORE } from './fixtures.ts'

const browser = setupBrowser()

describe.each(WIDTHS)('header and footer on a $name', ({ viewport }) => {
  test('logo, search box and a cart badge counting every unit', async () => {
    const page = await browser.page(viewport)
    await startWithCart(page, [])
    await gotoHydrated(page, '/')
    const header = page.locator('header')
    await expect
      .poll(() =>
        header
          .getByRole('link', { name: /inicio/i })
          .first()
          .isVisible(),
      )
      .toBe(true)
    expect(
      await header
        .getByRole('link', { name: /inicio/i })
        .first()
        .locator('svg')
        .isVisible(),
    ).toBe(true)
    const search = header.getByRole('combobox', { name: 'Buscar productos' })
    expect(await search.getAttribute('placeholder')).toBe('Collares...')
    expect(await search.isVisible()).toBe(true)
    const badge = page.getByTestId('cart-count')
    expect(await badge.textContent()).toBe('0')

    // Two different products, one of them twice: the badge counts units, not lines.
    const cards = page.getByTestId('you-may-like').getByTestId('product-card')
    // The list is shuffled: the product added twice must have at least two units.
    const skus = await cards.evaluateAll((all) => all.map((card) => card.getAttribute('data-sku')!))
    const answer = await page.request.get(`/api/carrito?skus=${encodeURIComponent(skus.join(','))}`)
    const { products } = (await answer.json()) as { products: { sku: string; available: number }[] }
    const roomy = new Set(products.filter((product) => product.available >= 2).map((product) => product.sku))
    const firstIndex = skus.findIndex((sku) => roomy.has(sku))
    expect(firstIndex).toBeGreaterThanOrEqual(0)
    const first = cards.nth(firstIndex)
    const second = cards.nth(firstIndex === 0 ? 1 : 0)
    await first.getByRole('button', { name: /^Agregar / }).click()
    await expect.poll(() => badge.textContent()).toBe('1')
    await second.getByRole('button', { name: /^Agregar / }).click()
    await expect.poll(() => badge.textContent()).toBe('2')
    await first.getByRole('button', { name: /^Agregar / }).click()
    await expect.poll(() => badge.textContent()).toBe('3')

    await header.getByTestId('header-cart').click()
    await page.waitForURL((url) => url.pathname === '/carrito')
    expect(await page.getByTestId('cart-count').textContent()).toBe('3')
    await page.close()
  })

  test('the "Inicio" link goes home', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/carrito')
    await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Inicio' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await page.close()
  })

  test('floating cart and WhatsApp buttons', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, `/producto/${FIXTURES.discounted.sku}`)
    const whatsapp = page.getByTestId('whatsapp-button')
    expect(await whatsapp.isVisible()).toBe(true)
    const href = new URL((await whatsapp.getAttribute('href'))!)
    expect(href.origin).toBe('https://wa.me')
    expect(href.pathname).toBe(`/${STORE.whatsappNumber}`)
    expect(href.searchParams.get('text')).toMatch(/más información/i)

    const floatingCart = page.getByTestId('floating-cart')
    expect(await floatingCart.isVisible()).toBe(true)
    await floatingCart.click()
    await page.waitForURL((url) => url.pathname === '/carrito')
    await page.close()
  })

  test('the footer names the seller, how to reach them, payment, delivery time and the right of withdrawal', async () => {
    const page = await browser.page(viewport)
    await gotoHydrated(page, '/')
    const footer = plain(await page.locator('footer').textContent())
    expect(footer).toContain(STORE.sellerLegalName)
    expect(footer).toContain(`NIT ${STORE.sellerNit}`)
    // Ley 1480, art. 50: address, payment methods and delivery time too.
    expect(footer).toContain(STORE.sellerAddress)
    expect(footer).toMatch(/contra entrega/i)
    expect(footer).toContain('Mercado Pago')
    expect(footer).toContain(`Tiempo de entrega: ${STORE.deliveryTime}`)
    expect(footer).toContain(STORE.sellerEmail)
    expect(footer).toContain(`+${STORE.whatsappNumber}`)
    expect(footer).toMatch(/derecho de retracto/i)
    expect(footer).toMatch(/5 días hábiles/)
    await page.close()
  })
})

test('a cart kept from an earlier visit is counted in the badge once the page is up', async () => {
  const page = await browser.page(PHONE)
  await startWithCart(page, [{ sku: FIXTURES.discounted.sku, quantity: 2 }])
  await gotoHydrated(page, '/')
  // The stored cart is read just after hydration, in a task of its own.
  await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('2')
  expect(await page.getByTestId('header-cart').getAttribute('aria-label')).toBe('Carrito, 2 productos')
  await page.close()
})

test('desktop: hovering "Accesorios" lists every category with image and title', async () => {
  const page = await browser.page(DESKTOP)
  await gotoHydrated(page, '/')
  expect(await page.getByTestId('mobile-categories').isVisible()).toBe(false)
  const menu = page.getByTestId('accesorios-menu')
  const list = menu.getByRole('list')
  expect(await list.isVisible()).toBe(false)
  await menu.getByRole('button', { name: 'Accesorios' }).hover()
  await expect.poll(() => list.isVisible()).toBe(true)

  const links = list.getByRole('link')
  const demoCategories = ['Collares', 'Aretes', 'Pulseras', 'Anillos', 'Tobilleras', 'Sets y regalos']
  for (const name of demoCategories) {
    const link = links.filter({ hasText: name })
    expect(await link.count()).toBe(1)
    // Demo categories carry an image that really loads.
    const image = link.locator('img')
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    expect(await link.getAttribute('href')).toMatch(/^\/categoria\/Categoria_\d+\//)
  }
  const fixture = links.filter({ hasText: FIXTURES.category.name })
  expect(await fixture.getAttribute('href')).toBe(categoryPath(FIXTURES.category))

  await links.filter({ hasText: 'Aretes' }).click()
  await page.waitForURL((url) => url.pathname.startsWith('/categoria/'))
  expect(decodeURIComponent(new URL(page.url()).pathname)).toMatch(/^\/categoria\/Categoria_\d+\/aretes$/)
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Aretes')
  await page.close()
})

test('phone: "Todas las categorías" navigates to the chosen category and closes', async () => {
  const page = await browser.page(PHONE)
  await gotoHydrated(page, '/')
  expect(await page.getByTestId('accesorios-menu').isVisible()).toBe(false)
  const dropdown = page.getByTestId('mobile-categories')
  const summary = dropdown.getByText('Todas las categorías')
  expect(await summary.isVisible()).toBe(true)
  const option = dropdown.getByRole('link', { name: 'Pulseras' })
  expect(await option.isVisible()).toBe(false)
  await summary.click()
  await expect.poll(() => option.isVisible()).toBe(true)
  expect(await option.locator('img').count()).toBe(1)
  await option.click()
  await page.waitForURL((url) => decodeURIComponent(url.pathname).endsWith('/pulseras'))
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pulseras')
  await expect.poll(() => option.isVisible()).toBe(false)
  expect(await dropdown.getAttribute('open')).toBeNull()
  await page.close()
})

test('desktop: choosing a category closes the "Accesorios" list, though the pointer is still on it', async () => {
  const page = await browser.page(DESKTOP)
  await gotoHydrated(page, '/')
  const menu = page.getByTestId('accesorios-menu')
  const list = menu.getByRole('list')
  await menu.getByRole('button', { name: 'Accesorios' }).hover()
  await expect.poll(() => list.isVisible()).toBe(true)
  await list.getByRole('link').filter({ hasText: 'Anillos' }).click()
  await page.waitForURL((url) => decodeURIComponent(url.pathname).endsWith('/anillos'))
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Anillos')
  // The mouse has not moved and the link was clicked: neither hover nor focus keeps it open.
  await expect.poll(() => list.isVisible()).toBe(false)
  expect(
    await page.evaluate(() => document.activeElement?.closest('[data-testid="accesorios-menu"]')),
  ).toBeNull()

  // Leaving and hovering again opens it as before.
  await page.mouse.move(5, 800)
  await menu.getByRole('button', { name: 'Accesorios' }).hover()
  await expect.poll(() => list.isVisible()).toBe(true)
  await page.close()
})

test('phone: choosing the category already shown closes "Todas las categorías" too', async () => {
  const page = await browser.page(PHONE)
  await gotoHydrated(page, '/')
  const dropdown = page.getByTestId('mobile-categories')
  const option = dropdown.getByRole('link', { name: 'Aretes' })
  await dropdown.getByText('Todas las categorías').click()
  await option.click()
  await page.waitForURL((url) => decodeURIComponent(url.pathname).endsWith('/aretes'))
  await expect.poll(() => option.isVisible()).toBe(false)
  // The URL changes before the page arrives: "already shown" means its heading is there.
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Aretes')

  // Open it again and choose the same category: the path does not change, the list still closes.
  await dropdown.getByText('Todas las categorías').click()
  await expect.poll(() => option.isVisible()).toBe(true)
  await option.click()
  await expect.poll(() => option.isVisible()).toBe(false)
  expect(await dropdown.getAttribute('open')).toBeNull()
  expect(decodeURIComponent(new URL(page.url()).pathname)).toMatch(/\/aretes$/)
  await page.close()
})

test('phone: "Todas las categorías" opened again while the chosen page loads stays open when it arrives', async () => {
  const page = await browser.page(PHONE)
  await gotoHydrated(page, '/')
  // The category's data is held, as on a slow phone connection, until the list is open again.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/categoria/**', async (route) => {
    await held
    await route.continue()
  })
  const dropdown = page.getByTestId('mobile-categories')
  const option = dropdown.getByRole('link', { name: 'Aretes' })
  await dropdown.getByText('Todas las categorías').click()
  await option.click()
  await expect.poll(() => option.isVisible()).toBe(false)
  await dropdown.getByText('Todas las categorías').click()
  await expect.poll(() => option.isVisible()).toBe(true)

  release()
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Aretes')
  // Effects of the new page run before its next frames: after them the list is still open.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))))
  expect(await dropdown.getAttribute('open')).not.toBeNull()
  expect(await option.isVisible()).toBe(true)
  await page.close()
})

test('adding a product shows the success toast', async () => {
  const page = await browser.page(PHONE)
  await startWithCart(page, [])
  await gotoHydrated(page, `/categoria/${FIXTURES.category.id}/${FIXTURES.category.name}`)
  const card = page.locator(`[data-testid="product-card"][data-sku="${FIXTURES.shortName.sku}"]`)
  await card.getByRole('button', { name: /^Agregar / }).click()
  await expect.poll(() => toastWith(page, `${FIXTURES.shortName.name} agregado al carrito.`).count()).toBe(1)
  await page.close()
})
