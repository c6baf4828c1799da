import type { Dialog, Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { INVENTORY_STORAGE_KEY, PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import { FORBIDDEN_POST_MESSAGE, NOTICES } from '#app/modules/auth/messages.ts'
import { UPLOAD_MESSAGES } from '#app/modules/media/validators.ts'
import { WEBM_BYTES } from '#tests/media.ts'
import { FIXTURES } from './fixtures.ts'
import {
  baseURL,
  collectErrors,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  seriousViolations,
  setupBrowser,
} from './browser.ts'
import { acceptNextDialog, expectMessage, noisyPngFile, pngFile, signInAsAdmin } from './admin-session.ts'

const browser = setupBrowser()
const NAME = `Collar Prueba ${Date.now().toString(36)}`
let sku = ''

// Signed in once; every test's context starts with that session.
beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

async function openCreate(page: Page) {
  await gotoHydrated(page, '/admin/productos/crear')
}

async function fillBasics(page: Page) {
  await page.getByLabel('Nombre').fill(NAME)
  await page.getByLabel('Descripción').fill('Collar de prueba con dije dorado')
  await page.getByRole('group', { name: 'Categorías' }).getByRole('checkbox').first().check()
}

const submitCreate = (page: Page) => page.getByRole('button', { name: 'Crear producto' }).click()

test('the products header links Inventario, Crear producto, Entrada and Salida', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin')
  await page.getByTestId('admin-menu').getByRole('link', { name: 'Productos' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/productos')
  const nav = page.getByTestId('products-nav')
  expect(await nav.getByRole('link', { name: 'Inventario' }).getAttribute('href')).toBe('/admin/productos')
  expect(await nav.getByRole('link', { name: 'Crear producto' }).getAttribute('href')).toBe(
    '/admin/productos/crear',
  )
  expect(await nav.getByRole('link', { name: 'Entrada' }).getAttribute('href')).toBe(
    '/admin/productos/entrada',
  )
  expect(await nav.getByRole('link', { name: 'Salida' }).getAttribute('href')).toBe('/admin/productos/salida')
  await page.close()
})

test('create: prices start empty, checkboxes are big enough for a finger', async () => {
  for (const viewport of [PHONE, DESKTOP]) {
    const page = await browser.page(viewport)
    await openCreate(page)
    for (const label of ['Costo', 'Precio nivel 1', 'Precio nivel 5'])
      expect(await page.getByLabel(label, { exact: true }).inputValue()).toBe('')
    // Typing a price needs no "0" deleted first; level 5 follows level 1.
    await page.getByLabel('Precio nivel 1').pressSequentially('50000')
    expect(await page.getByLabel('Precio nivel 1').inputValue()).toBe('50000')
    expect(await page.getByLabel('Precio nivel 5').inputValue()).toBe('20000')
    const targets = page.locator('label:has(input[type="checkbox"])')
    expect(await targets.count()).toBeGreaterThan(2)
    for (const box of await targets.evaluateAll((labels) =>
      labels.map((label) => label.getBoundingClientRect()).map(({ width, height }) => ({ width, height })),
    )) {
      expect(box.height).toBeGreaterThanOrEqual(24)
      expect(box.width).toBeGreaterThanOrEqual(24)
    }
    await page.close()
  }
})

test('create: every validation message of spec §5, in order', async () => {
  const page = await browser.page()
  await openCreate(page)
  await submitCreate(page)
  await expectMessage(page, PRODUCT_MESSAGES.required)

  await fillBasics(page)
  await submitCreate(page)
  await expectMessage(page, PRODUCT_MESSAGES.imagesRequiredForm)

  await page
    .getByLabel('Imágenes')
    .setInputFiles([await pngFile('uno.png', '#c0392b'), await pngFile('dos.png', '#2980b9')])
  expect(await page.getByTestId('new-images').locator('li').count()).toBe(2)
  // The first image is the main one until the admin picks another: no "selecciona una imagen
  // principal" on a first save.
  expect(await page.getByLabel('Imagen principal: uno.png').isChecked()).toBe(true)
  await page.getByLabel('Imagen principal: dos.png').check()
  expect(await page.getByLabel('Imagen principal: uno.png').isChecked()).toBe(false)

  // Over 10 MB: refused before uploading.
  await page.getByLabel('Imágenes').setInputFiles({
    name: 'enorme.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
  })
  await page.getByLabel(/Imagen principal: enorme\.png/).check()
  await submitCreate(page)
  // Not a spec §5 text: spec §8's "Error: {message}".
  await expectMessage(page, PRODUCT_MESSAGES.failure(UPLOAD_MESSAGES.imageTooLarge('enorme.png')))

  // A text file renamed .jpg passes the browser's accept filter but not the server.
  await page.getByLabel('Imágenes').setInputFiles({
    name: 'falsa.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('no soy una imagen'),
  })
  await page.getByLabel(/Imagen principal: falsa\.jpg/).check()
  await submitCreate(page)
  await expectMessage(page, PRODUCT_MESSAGES.failure(UPLOAD_MESSAGES.notMedia('falsa.jpg')))
  await page.close()
})

test('the server refuses posts without images or a valid main image (spec §5 wording)', async () => {
  const page = await browser.page()
  await openCreate(page)
  const csrf = await page.locator('input[name="csrf"]').first().inputValue()
  const categoryId = await page
    .getByRole('group', { name: 'Categorías' })
    .getByRole('checkbox')
    .first()
    .getAttribute('value')
  const post = (extra: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>) =>
    page.request.post('/admin/productos/guardar', {
      headers: { 'X-CSRF-Token': csrf, Origin: baseURL() },
      multipart: { name: 'Anillo', description: 'Plata', categoryIds: categoryId!, level1: '1000', ...extra },
    })
  const noImages = await post({})
  expect(noImages.status()).toBe(422)
  expect((await noImages.json()).message).toBe(PRODUCT_MESSAGES.imagesRequired)
  const badMain = await post({ images: await pngFile('a.png', '#000000'), mainImage: 'nueva:3' })
  expect((await badMain.json()).message).toBe(PRODUCT_MESSAGES.mainImageInvalid)
  const noToken = await page.request.post('/admin/productos/guardar', {
    headers: { Origin: baseURL() },
    multipart: { name: 'Anillo' },
  })
  expect(noToken.status()).toBe(403)
  await page.close()
})

test('the file chooser takes images and videos; a chosen video is previewed as a video', async () => {
  const page = await browser.page()
  await openCreate(page)
  expect(await page.getByLabel('Imágenes').getAttribute('accept')).toBe(
    'image/*,video/mp4,video/webm,video/ogg',
  )
  await page
    .getByLabel('Imágenes')
    .setInputFiles([
      await pngFile('foto.png', '#c0392b'),
      { name: 'clip.webm', mimeType: 'video/webm', buffer: WEBM_BYTES },
    ])
  const items = page.getByTestId('new-images').locator('li')
  expect(await items.count()).toBe(2)
  expect(await items.nth(0).locator('img').count()).toBe(1)
  expect(await items.nth(1).locator('img').count()).toBe(0)
  const video = items.nth(1).getByTestId('new-video-preview')
  expect(await video.evaluate((element) => element.tagName)).toBe('VIDEO')
  expect(await video.getAttribute('src')).toMatch(/^blob:/)
  await page.getByLabel('Imagen principal: clip.webm').check()
  await page.close()
})

test('prices: levels 2–4 at 80/70/60 %, level 5 at 40 % and editable, profit = price − cost', async () => {
  const page = await browser.page()
  await openCreate(page)
  await page.getByLabel('Costo').fill('12000')
  await page.getByLabel('Precio nivel 1').fill('45000.5')
  expect(plain(await page.getByTestId('level2').textContent())).toBe('$ 36.000,40')
  expect(plain(await page.getByTestId('level3').textContent())).toBe('$ 31.500,35')
  expect(plain(await page.getByTestId('level4').textContent())).toBe('$ 27.000,30')
  expect(await page.getByLabel('Precio nivel 5').inputValue()).toBe('18000.2')
  expect(plain(await page.getByTestId('profit').textContent())).toBe('$ 33.000,50')
  await page.getByLabel('Precio nivel 5').fill('15000')
  expect(await page.getByLabel('Precio nivel 5').inputValue()).toBe('15000')
  await page.close()
})

test('create a product with two images and see it in the storefront', async () => {
  const page = await browser.page()
  await openCreate(page)
  await fillBasics(page)
  await page.getByLabel('Costo').fill('12000')
  await page.getByLabel('Precio nivel 1').fill('45000')
  await page.getByLabel('Descuento (%)').fill('10')
  await page.getByLabel('Link de compra').fill('https://proveedor.example/collar')
  await page.getByLabel('Información del proveedor').fill('Proveedor de Medellín')
  await page.getByLabel('Mostrar a mayoristas (Mayor)').check()
  await page
    .getByLabel('Imágenes')
    .setInputFiles([await pngFile('uno.png', '#c0392b', 900, 900), await noisyPngFile('dos.png')])
  await page.getByLabel('Imagen principal: dos.png').check()
  // A slow uplink (about 250 KB/s) so the upload progress has time to show.
  const cdp = await browser.context.newCDPSession(page)
  await cdp.send('Network.enable')
  const uplink = (bytesPerSecond: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    })
  await uplink(250 * 1024)
  await submitCreate(page)
  const progress = page.getByTestId('upload-progress')
  await progress.waitFor()
  expect(plain(await progress.textContent())).toMatch(/^Subiendo… \d+ %$/)
  await page.waitForURL((url) => url.pathname.startsWith('/admin/productos/editar/'))
  await uplink(-1)
  await expectMessage(page, PRODUCT_MESSAGES.created)
  sku = await page.getByLabel('SKU').inputValue()
  expect(sku).toMatch(/^COL-CAT-[A-Z0-9]{8}$/)
  expect(await page.getByLabel('SKU').getAttribute('readonly')).not.toBeNull()
  const media = page.getByTestId('product-media-item')
  expect(await media.count()).toBe(2)
  expect(await media.nth(1).getAttribute('data-main')).toBe('true')

  await gotoHydrated(page, `/producto/${sku}`)
  expect(plain(await page.getByRole('heading', { level: 1 }).textContent())).toBe(NAME)
  expect(
    await page.getByTestId('product-detail').locator('img[src^="/media/products/"]').count(),
  ).toBeGreaterThan(0)
  // Spec §5: shoppers' lists and search show only products with stock, and a new product has none
  // until its first stock entry; the search finds it then (app/modules/catalog tests).
  await gotoHydrated(page, `/buscar?q=${encodeURIComponent(NAME)}`)
  expect(await page.getByTestId('product-card').count()).toBe(0)
  await page.close()
})

test('edit it: fields saved, main image changed, the main image protected, another image deleted', async () => {
  expect(sku).not.toBe('')
  const page = await browser.page()
  await gotoHydrated(page, `/admin/productos/editar/${sku}`)
  await page.getByLabel('Nombre').fill(`${NAME} editado`)
  await page.getByLabel('Agregar imágenes').setInputFiles(await pngFile('tres.png', '#27ae60'))
  await page.getByRole('button', { name: 'Guardar cambios' }).click()
  await expectMessage(page, PRODUCT_MESSAGES.updated)
  const media = page.getByTestId('product-media-item')
  await expect.poll(() => media.count()).toBe(3)

  // Change the main image to the first one.
  const firstId = await media.nth(0).getAttribute('data-media-id')
  await media.nth(0).getByRole('button', { name: 'Usar como principal' }).click()
  await expect.poll(() => page.locator(`[data-media-id="${firstId}"]`).getAttribute('data-main')).toBe('true')
  expect(await page.locator('[data-main="true"]').count()).toBe(1)

  // The main image cannot be deleted: refused at once, without first asking "¿Estás seguro…?".
  const asked: string[] = []
  const onDialog = (dialog: Dialog) => {
    asked.push(dialog.message())
    void dialog.dismiss()
  }
  page.on('dialog', onDialog)
  await page.locator('[data-main="true"]').getByRole('button', { name: 'Eliminar' }).click()
  await expectMessage(page, PRODUCT_MESSAGES.imageDeleteMain)
  page.off('dialog', onDialog)
  expect(asked).toEqual([])
  expect(await media.count()).toBe(3)

  // Another one can.
  const dialog = acceptNextDialog(page)
  await page.locator('[data-main="false"]').first().getByRole('button', { name: 'Eliminar' }).click()
  expect(await dialog).toBe(PRODUCT_MESSAGES.imageDeleteConfirm)
  await expect.poll(() => media.count()).toBe(2)

  await gotoHydrated(page, `/producto/${sku}`)
  expect(plain(await page.getByRole('heading', { level: 1 }).textContent())).toBe(`${NAME} editado`)
  await page.close()
})

test('edit its IVA: "19 %", then "Excluido", each kept after a reload', async () => {
  expect(sku).not.toBe('')
  const page = await browser.page()
  const path = `/admin/productos/editar/${sku}`
  await gotoHydrated(page, path)
  const vat = page.getByLabel('IVA', { exact: true })
  // A new product follows the shop's default, named in the first option.
  expect(await vat.inputValue()).toBe('')
  expect(plain(await vat.locator('option').first().textContent())).toMatch(/^Según la configuración \(.+\)$/)
  expect((await vat.locator('option').allTextContents()).slice(1)).toEqual([
    'Excluido',
    'Exento',
    '5 %',
    '19 %',
  ])

  for (const [label, value] of [
    ['19 %', '19'],
    ['Excluido', 'excluded'],
  ] as const) {
    await vat.selectOption({ label })
    await page.getByRole('button', { name: 'Guardar cambios' }).click()
    await expectMessage(page, PRODUCT_MESSAGES.updated)
    await gotoHydrated(page, path)
    expect(await vat.inputValue()).toBe(value)
    expect(plain(await vat.locator('option:checked').textContent())).toBe(label)
  }
  await page.close()
})

test('an unknown sku says "Producto no encontrado."', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin/productos/editar/NO-EXISTE-123')
  await expectMessage(page, PRODUCT_MESSAGES.notFound)
  await page.close()
})

test('edit: a product without images needs one, and a main one, before it saves', async () => {
  const page = await browser.page()
  await gotoHydrated(page, `/admin/productos/editar/${FIXTURES.hidden.sku}`)
  await page.getByRole('button', { name: 'Guardar cambios' }).click()
  await expectMessage(page, PRODUCT_MESSAGES.imagesRequiredForm)
  await page.getByLabel('Agregar imágenes').setInputFiles(await pngFile('nueva.png', '#f1c40f'))
  // Its first new image will be the main one unless the admin picks another.
  expect(await page.getByLabel('Imagen principal: nueva.png').isChecked()).toBe(true)
  await page.close()
})

test('inventory: card fields, search by SKU, filters persisted across reloads', async () => {
  const page = await browser.page()
  // The server renders the cards: the grid works without JavaScript, and says it is loading only
  // while other filters are fetched.
  const html = await (await page.request.get('/admin/productos')).text()
  expect(html).toContain('data-testid="inventory-card"')
  expect(html).not.toContain(PRODUCT_MESSAGES.loading)
  await gotoHydrated(page, '/admin/productos')
  await page.evaluate((key) => window.localStorage.removeItem(key), INVENTORY_STORAGE_KEY)
  await gotoHydrated(page, '/admin/productos')
  await page.getByTestId('inventory-grid').waitFor()
  expect(await page.getByTestId('inventory-card').count()).toBe(24)

  await page.getByLabel('Buscar por nombre o SKU').fill(sku.toLowerCase())
  await page.waitForURL((url) => url.searchParams.get('q') === sku.toLowerCase())
  const card = page.getByTestId('inventory-card')
  await expect.poll(() => card.count()).toBe(1)
  expect(plain(await card.getByTestId('inventory-sku').textContent())).toBe(sku)
  expect(plain(await card.getByTestId('inventory-name').textContent())).toBe(`${NAME} editado`)
  expect(plain(await card.getByTestId('inventory-stock').textContent())).toBe('0')
  expect(await card.getByTestId('inventory-stock').getAttribute('class')).toContain('text-red-600')
  expect(plain(await card.getByTestId('inventory-price').textContent())).toBe('$ 45.000,00')
  expect(plain(await card.getByTestId('inventory-cost').textContent())).toBe('$ 12.000,00')
  expect(plain(await card.getByTestId('inventory-wholesale').textContent())).toBe('Activo')
  expect(plain(await card.getByTestId('inventory-retail').textContent())).toBe('Activo')

  // Its name finds it too, in any case and without its accents, as the stock forms' search does.
  const typedName = `${NAME} editado`
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toUpperCase()
  await page.getByLabel('Buscar por nombre o SKU').fill(typedName)
  await page.waitForURL((url) => url.searchParams.get('q') === typedName)
  await expect.poll(() => card.count()).toBe(1)
  expect(plain(await card.getByTestId('inventory-sku').textContent())).toBe(sku)
  await page.getByLabel('Buscar por nombre o SKU').fill(sku.toLowerCase())
  await page.waitForURL((url) => url.searchParams.get('q') === sku.toLowerCase())

  // "sin stock" unticked hides it (stock 0); the choice and the search survive a reload.
  await page.getByLabel('Mostrar productos sin stock').uncheck()
  await page.getByTestId('inventory-empty').waitFor()
  expect(plain(await page.getByTestId('inventory-empty').textContent())).toBe(PRODUCT_MESSAGES.empty)
  await gotoHydrated(page, '/admin/productos')
  await page.getByTestId('inventory-empty').waitFor()
  expect(await page.getByLabel('Buscar por nombre o SKU').inputValue()).toBe(sku.toLowerCase())
  expect(await page.getByLabel('Mostrar productos sin stock').isChecked()).toBe(false)
  expect(await page.getByLabel('Mayoristas').isChecked()).toBe(true)

  await page.getByLabel('Mostrar productos sin stock').check()
  await expect.poll(() => card.count()).toBe(1)
  await page.getByLabel('Mayoristas').uncheck()
  await page.getByLabel('Detal').uncheck()
  await page.getByTestId('inventory-empty').waitFor()
  await page.reload()
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await page.getByTestId('inventory-empty').waitFor()
  expect(await page.getByLabel('Mayoristas').isChecked()).toBe(false)
  expect(await page.getByLabel('Detal').isChecked()).toBe(false)
  await page.getByLabel('Mayoristas').check()
  await page.getByLabel('Detal').check()
  await expect.poll(() => card.count()).toBe(1)
  await page.close()
})

test('inventory: a SKU is never broken across lines, from a small phone to a wide screen', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin/productos')
  for (const width of [320, 390, 640, 768, 1024, 1280, 1536]) {
    await page.setViewportSize({ width, height: 900 })
    const broken = await page.getByTestId('inventory-sku').evaluateAll((cells) =>
      cells
        .filter((cell) => {
          const range = document.createRange()
          range.selectNodeContents(cell)
          const card = cell.closest('[data-testid="inventory-card"]')!.getBoundingClientRect()
          const text = range.getBoundingClientRect()
          // One line box, and all of it inside its card.
          return range.getClientRects().length !== 1 || text.right > card.right + 0.5
        })
        .map((cell) => cell.textContent),
    )
    expect({ width, broken }).toEqual({ width, broken: [] })
  }
  await page.close()
})

test('inventory: "Cargar más" adds the next page', async () => {
  const page = await browser.page()
  await gotoHydrated(page, '/admin/productos')
  await page.getByLabel('Buscar por nombre o SKU').fill('')
  await page.waitForURL((url) => !url.searchParams.get('q'))
  const cards = page.getByTestId('inventory-card')
  await expect.poll(() => cards.count()).toBe(24)
  await page.getByRole('button', { name: 'Cargar más' }).click()
  await expect.poll(() => cards.count()).toBe(48)
  await page.close()
})

test('delete the product from the inventory: confirm, message, gone from the store', async () => {
  const page = await browser.page()
  await gotoHydrated(page, `/admin/productos?q=${sku}`)
  const card = page.getByTestId('inventory-card')
  await expect.poll(() => card.count()).toBe(1)
  const dialog = acceptNextDialog(page)
  await card.getByRole('button', { name: /^Eliminar/ }).click()
  expect(await dialog).toBe(PRODUCT_MESSAGES.deleteConfirm)
  await expectMessage(page, PRODUCT_MESSAGES.deleted)
  await page.getByTestId('inventory-empty').waitFor()
  const response = await page.goto(`/producto/${sku}`)
  expect(response?.status()).toBe(404)
  await page.close()
})

test('a save after signing in again elsewhere, or once signed out, says so in Spanish', async () => {
  const page = await browser.page()
  await openCreate(page)
  await fillBasics(page)
  await page.getByLabel('Imágenes').setInputFiles(await pngFile('uno.png', '#c0392b'))
  await page.getByLabel('Imagen principal: uno.png').check()

  // Signed in again in another tab: a new session, so this page's anti-forgery token is stale.
  await browser.context.clearCookies()
  const other = await browser.page()
  await signInAsAdmin(other)
  await other.close()
  await submitCreate(page)
  await expectMessage(page, FORBIDDEN_POST_MESSAGE)

  // Signed out (the session cookie is gone, as when it expires): the way back in is offered.
  await browser.context.clearCookies()
  await submitCreate(page)
  await expectMessage(page, NOTICES['sesion-expirada'])
  expect(await page.getByText('Unexpected Server Error').count()).toBe(0)
  const signIn = page.getByTestId('form-message-link')
  expect(plain(await signIn.textContent())).toBe('Iniciar sesión')
  expect(await signIn.getAttribute('href')).toBe(
    '/login-admin?aviso=sesion-expirada&volver=%2Fadmin%2Fproductos%2Fcrear',
  )
  await signIn.click()
  await page.waitForURL((url) => url.pathname === '/login-admin')
  await page.close()
})

test('the inventory, create and edit pages have no serious accessibility problems nor errors', async () => {
  const page = await browser.page()
  const errors = collectErrors(page)
  for (const url of [
    '/admin/productos',
    '/admin/productos/crear',
    '/admin/categorias',
    '/admin/categorias/crear',
  ]) {
    await gotoHydrated(page, url)
    await page.waitForLoadState('networkidle')
    expect({ url, violations: await seriousViolations(page) }).toEqual({ url, violations: [] })
  }
  await gotoHydrated(page, '/admin/productos')
  const edit = page
    .getByTestId('inventory-card')
    .first()
    .getByRole('link', { name: /^Editar/ })
  await edit.click()
  await page.waitForURL((url) => url.pathname.startsWith('/admin/productos/editar/'))
  await page.getByTestId('product-form').waitFor()
  expect(await seriousViolations(page)).toEqual([])
  // No hydration mismatch or other console error on any of them.
  expect(errors).toEqual([])
  await page.close()
})
