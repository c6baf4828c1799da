import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { LOCAL_ADMIN_EMAIL } from '#app/modules/auth/config.server.ts'
import {
  BANNER_MESSAGES,
  SETTINGS_MESSAGES,
  SHIPPING_ZONE_MESSAGES,
} from '#app/modules/settings/validators.ts'
import { acceptNextDialog, expectMessage, pngFile, signInAsAdmin } from './admin-session.ts'
import {
  cop,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  setStoredCart,
  setupBrowser,
  choosePlace,
} from './browser.ts'
import { FIXTURES, STORE } from './fixtures.ts'

/**
 * "Configuraciones" as the owner uses it. Other files compare totals and read the home page, so
 * every test puts back what it changed (the shipping cost, the banner it added), pass or fail.
 */

const browser = setupBrowser()
const SETTINGS = '/admin/configuraciones'

beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

async function saveShippingCost(page: Page, pesos: string) {
  await gotoHydrated(page, SETTINGS)
  await page.getByLabel('Costo de envío', { exact: true }).fill(pesos)
  await page.getByRole('button', { name: 'Guardar configuración' }).click()
  await expectMessage(page, SETTINGS_MESSAGES.saved)
}

/**
 * Puts the shipping cost back for the other files: reads what the page shows first, so a test that
 * failed before changing anything is not hidden behind a "nothing to save" here.
 */
async function restoreShippingCost(page: Page) {
  await gotoHydrated(page, SETTINGS)
  const shown = await page.getByLabel('Costo de envío', { exact: true }).inputValue()
  if (shown.replaceAll('.', '') === String(STORE.shippingCost)) return
  await saveShippingCost(page, String(STORE.shippingCost))
}

test('the menu opens Configuraciones; a refused save keeps what was typed and changes nothing', async () => {
  const page = await browser.page(PHONE)
  await gotoHydrated(page, '/admin')
  await page.getByRole('button', { name: /menú/i }).click()
  await page.getByTestId('admin-menu').getByRole('link', { name: 'Configuraciones' }).click()
  await page.waitForURL((url) => url.pathname === SETTINGS)
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  expect(await page.getByLabel('Costo de envío', { exact: true }).inputValue()).toBe(
    String(STORE.shippingCost),
  )

  await page.getByLabel('Costo de envío', { exact: true }).fill('-3000')
  await page.getByLabel('Número de WhatsApp').fill('12345')
  await page.getByLabel('Razón social').fill('Otra Razón Social S.A.S.')
  await page.getByRole('button', { name: 'Guardar configuración' }).click()
  await expectMessage(page, SETTINGS_MESSAGES.invalid)
  expect(await page.getByText(SETTINGS_MESSAGES.phone).isVisible()).toBe(true)
  expect(await page.getByLabel('Costo de envío', { exact: true }).inputValue()).toBe('-3000')
  expect(await page.getByLabel('Razón social').inputValue()).toBe('Otra Razón Social S.A.S.')
  // Nothing reached the storefront.
  await gotoHydrated(page, '/')
  expect(plain(await page.locator('footer').textContent())).toContain(STORE.sellerLegalName)
  await page.close()
})

test('a changed shipping cost changes the cart and the order total, and the free-shipping notices', async () => {
  const page = await browser.page(PHONE)
  const { sku, pesos } = FIXTURES.shippingSettings
  // A shopper already browsing (the store layout loaded with the old cost) before the change.
  const shopper = await browser.page(PHONE)
  try {
    await gotoHydrated(shopper, '/')
    await setStoredCart(shopper, [{ sku, quantity: 1 }])
    await saveShippingCost(page, '15.000')
    // Moving to the cart and the checkout inside the app shows the new cost, the one the order charges.
    await shopper.getByRole('link', { name: 'Ir al carrito' }).click()
    await shopper.waitForURL('**/carrito')
    await expect
      .poll(async () => plain(await shopper.getByTestId('cart-shipping').textContent()))
      .toBe(cop(15000))
    await shopper.getByRole('link', { name: 'Finalizar pedido' }).click()
    await shopper.waitForURL('**/finalizar-pedido')
    await expect
      .poll(async () => plain(await shopper.getByTestId('checkout-shipping').textContent()))
      .toBe(cop(15000))
    expect(plain(await shopper.getByTestId('checkout-total').textContent())).toBe(cop(pesos + 15000))
    await shopper.close()
    // "Últimos cambios" comes with the page's data, a moment after the outcome message.
    const latestChange = async () => plain(await page.getByTestId('setting-change').first().textContent())
    await expect.poll(latestChange).toContain(cop(15000))
    const latest = await latestChange()
    expect(latest).toContain('Costo de envío')
    expect(latest).toContain(LOCAL_ADMIN_EMAIL)
    expect(latest).toContain(cop(15000))

    await gotoHydrated(page, '/')
    await setStoredCart(page, [{ sku, quantity: 1 }])
    await gotoHydrated(page, '/carrito')
    await expect
      .poll(async () => plain(await page.getByTestId('cart-shipping').textContent()))
      .toBe(cop(15000))
    expect(plain(await page.getByTestId('cart-total').textContent())).toBe(cop(pesos + 15000))

    await page.getByRole('link', { name: 'Finalizar pedido' }).click()
    await page.waitForURL('**/finalizar-pedido')
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await page.getByLabel('Nombre', { exact: false }).first().fill('Laura')
    await page.getByLabel('Apellido').fill('Ríos')
    await page.getByLabel('Teléfono (WhatsApp)').fill('3109876543')
    await page.getByLabel('Correo electrónico').fill('laura@example.com')
    await page.getByLabel('Dirección').fill('Carrera 5 # 6-7')
    await choosePlace(page, 'Valle del Cauca', 'Santiago de Cali')
    await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.waitForURL('**/finalizar-pedido/success?pedido=*')
    expect(plain(await page.getByTestId('order-shipping').textContent())).toBe(cop(15000))
    expect(plain(await page.getByTestId('order-total').textContent())).toBe(cop(pesos + 15000))

    // Free shipping for everything: the product page promises it today, the home badge too.
    await saveShippingCost(page, '0')
    await gotoHydrated(page, `/producto/${sku}`)
    expect(plain(await page.getByTestId('free-shipping-today').textContent())).toMatch(
      /^¡Envío gratis hoy, .+!$/,
    )
    await gotoHydrated(page, '/')
    expect(plain(await page.getByTestId('free-shipping-badge').textContent())).toContain(
      'Por tiempo limitado',
    )
  } finally {
    await restoreShippingCost(page)
  }
  await gotoHydrated(page, `/producto/${sku}`)
  expect(plain(await page.getByTestId('free-shipping-today').textContent())).toBe(
    `Envío gratis en compras superiores a ${cop(STORE.freeShippingThreshold)}`,
  )
  await page.close()
})

test('a banner added in Configuraciones shows first on the home page at 390 and 1280 px', async () => {
  const alt = `Banner de prueba ${Date.now().toString(36)}`
  const page = await browser.page(DESKTOP)
  try {
    await gotoHydrated(page, SETTINGS)
    const form = page.getByTestId('banner-create')
    // A link that is neither a shop path nor https is refused; what was typed stays.
    await form
      .getByLabel('Imagen para pantallas anchas o video')
      .setInputFiles(await pngFile('ancho.png', '#c0392b', 1600, 600))
    await form.getByLabel('Texto alternativo').fill(alt)
    await form.getByLabel('Enlace (opcional)').fill('http://inseguro.example')
    await form.getByRole('button', { name: 'Agregar banner' }).click()
    await expectMessage(page, BANNER_MESSAGES.link)
    expect(await page.getByTestId('banner-create').getByLabel('Texto alternativo').inputValue()).toBe(alt)

    const again = page.getByTestId('banner-create')
    await again
      .getByLabel('Imagen para pantallas anchas o video')
      .setInputFiles(await pngFile('ancho.png', '#c0392b', 1600, 600))
    await again
      .getByLabel('Imagen para celulares (opcional)')
      .setInputFiles(await pngFile('celular.png', '#2471a3', 700, 700))
    await again.getByLabel('Enlace (opcional)').fill('/buscar?q=collar')
    await again.getByRole('button', { name: 'Agregar banner' }).click()
    await expectMessage(page, BANNER_MESSAGES.created)
    const item = page.getByTestId('banner-item').filter({ hasText: alt })
    await item.waitFor()
    await item.getByRole('spinbutton').fill('1')
    await item.getByRole('button', { name: 'Mover' }).click()
    await expectMessage(page, BANNER_MESSAGES.moved)
    await gotoHydrated(page, SETTINGS)
    expect(plain(await page.getByTestId('banner-item').first().textContent())).toContain(alt)

    const seen: Record<string, string> = {}
    for (const [name, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const home = await browser.page(viewport)
      await gotoHydrated(home, '/')
      const image = home.getByRole('region', { name: 'Promociones' }).locator('picture img').first()
      expect(await image.getAttribute('alt')).toBe(alt)
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeTruthy()
      expect(await image.isVisible()).toBe(true)
      seen[name] = await image.evaluate((img: HTMLImageElement) => img.currentSrc)
      expect(seen[name]).toMatch(/\/media\/banners\//)
      expect(await image.locator('xpath=ancestor::a[1]').getAttribute('href')).toBe('/buscar?q=collar')
      await home.close()
    }
    expect(seen.phone).not.toBe(seen.desktop)

    // Inactive: no longer on the home page.
    await gotoHydrated(page, SETTINGS)
    const editing = page.getByTestId('banner-item').filter({ hasText: alt })
    await editing.getByText('Editar').click()
    await editing.getByLabel(/^Activo/).uncheck()
    await editing.getByRole('button', { name: 'Guardar banner' }).click()
    await expectMessage(page, BANNER_MESSAGES.updated)
    await gotoHydrated(page, '/')
    expect(await page.locator(`img[alt="${alt}"]`).count()).toBe(0)
  } finally {
    await gotoHydrated(page, SETTINGS)
    const added = page.getByTestId('banner-item').filter({ hasText: alt })
    if (await added.count()) {
      const confirmed = acceptNextDialog(page)
      await added.getByRole('button', { name: `Eliminar ${alt}` }).click()
      expect(await confirmed).toBe(BANNER_MESSAGES.deleteConfirm)
      await expectMessage(page, BANNER_MESSAGES.deleted)
    }
  }
  // The outcome shows as soon as the action answers; the list follows with the page's reload of data.
  await expect.poll(() => page.getByTestId('banner-item').filter({ hasText: alt }).count()).toBe(0)
  await page.close()
})

test('"Pedidos sin pagar ni confirmar": the four hold limits, each checked, at both widths', async () => {
  for (const viewport of [PHONE, DESKTOP]) {
    const page = await browser.page(viewport)
    await gotoHydrated(page, SETTINGS)
    const card = page.getByTestId('hold-limits')
    expect(plain(await card.locator('legend').textContent())).toBe('Pedidos sin pagar ni confirmar')
    // The test server's first-run values (global-setup), until the owner saves others.
    expect(await card.getByLabel('Pedidos sin pagar por teléfono').inputValue()).toBe('100000')
    expect(await card.getByLabel('Unidades sin pagar por teléfono').inputValue()).toBe('1000000')
    expect(await card.getByLabel('Pedidos sin pagar por conexión').inputValue()).toBe('100000')
    expect(await card.getByLabel('Unidades sin pagar por conexión').inputValue()).toBe('1000000')
    // A refused save changes nothing (other files place orders under these limits).
    await card.getByLabel('Unidades sin pagar por teléfono').fill('0')
    await page.getByRole('button', { name: 'Guardar configuración' }).click()
    await expectMessage(page, SETTINGS_MESSAGES.invalid)
    expect(await page.getByText(SETTINGS_MESSAGES.count('Unidades sin pagar por teléfono')).isVisible()).toBe(
      true,
    )
    await page.close()
  }
})

test('"Envío por zona": a municipality with its own cost and no cash on delivery, listed and removed', async () => {
  const page = await browser.page(DESKTOP)
  const card = page.getByTestId('shipping-zones')
  // Leticia: no other file ships there.
  const row = () => card.getByTestId('shipping-zone').filter({ hasText: 'Leticia (Amazonas)' })
  try {
    await gotoHydrated(page, SETTINGS)
    const form = card.getByTestId('shipping-zone-form')
    await form.getByLabel('Departamento o municipio').selectOption('91001')
    await form.getByLabel('Costo de envío (vacío: costo general)').fill('25.000')
    const cash = form.getByRole('checkbox', { name: 'Acepta pago contra entrega' })
    expect(await cash.isChecked()).toBe(true)
    await cash.uncheck()
    await form.getByRole('button', { name: 'Guardar zona' }).click()
    await expectMessage(page, SHIPPING_ZONE_MESSAGES.saved)
    await row().waitFor()
    const cells = (await row().locator('th, td').allTextContents()).map(plain)
    expect(cells.slice(0, 3)).toEqual(['Leticia (Amazonas)', cop(25000), 'No'])
    // The form starts afresh after a save.
    expect(await card.getByLabel('Departamento o municipio').inputValue()).toBe('')
    expect(await card.getByRole('checkbox', { name: 'Acepta pago contra entrega' }).isChecked()).toBe(true)
    await expect
      .poll(async () => plain(await page.getByTestId('setting-change').first().textContent()))
      .toContain('Leticia (Amazonas)')

    await row().getByRole('button', { name: 'Quitar' }).click()
    await expectMessage(page, SHIPPING_ZONE_MESSAGES.removed)
    await expect.poll(() => row().count()).toBe(0)
  } finally {
    // Put the zones back as they were for the other files, pass or fail.
    await gotoHydrated(page, SETTINGS)
    if (await row().count()) {
      await row().getByRole('button', { name: 'Quitar' }).click()
      await expectMessage(page, SHIPPING_ZONE_MESSAGES.removed)
    }
  }
  await page.close()
})

test('"Facturación electrónica": when to issue and the default IVA, both kept after a reload', async () => {
  const page = await browser.page(DESKTOP)
  const card = page.getByTestId('invoice-settings')
  const manual = () => card.getByRole('radio', { name: 'Solo cuando la emita desde el pedido' })
  const auto = () =>
    card.getByRole('radio', {
      name: 'Automáticamente: al confirmarse el pago en línea, o al entregar un pedido contra entrega',
    })
  const defaultVat = () => card.getByLabel('IVA por defecto de los productos')
  try {
    await gotoHydrated(page, SETTINGS)
    expect(plain(await card.locator('legend').first().textContent())).toBe('Facturación electrónica')
    // First-run values: automatic, 19 %.
    expect(await auto().isChecked()).toBe(true)
    expect(await manual().isChecked()).toBe(false)
    expect(await defaultVat().inputValue()).toBe('19')
    expect((await defaultVat().locator('option').allTextContents()).map(plain)).toEqual([
      '19 %',
      '5 %',
      'Exento',
      'Excluido',
    ])

    await manual().check()
    await defaultVat().selectOption({ label: 'Exento' })
    await page.getByRole('button', { name: 'Guardar configuración' }).click()
    await expectMessage(page, SETTINGS_MESSAGES.saved)

    await gotoHydrated(page, SETTINGS)
    expect(await manual().isChecked()).toBe(true)
    expect(await auto().isChecked()).toBe(false)
    expect(await defaultVat().inputValue()).toBe('exempt')
    const changes = (await page.getByTestId('setting-change').allTextContents()).map(plain)
    expect(changes.slice(0, 2).join(' | ')).toContain('Cuándo emitir la factura')
    expect(changes.slice(0, 2).join(' | ')).toContain('IVA por defecto de los productos')
    expect(changes.slice(0, 2).join(' | ')).toContain('19 % → Exento')
  } finally {
    // Put both back for the other files, pass or fail.
    await gotoHydrated(page, SETTINGS)
    if (!(await auto().isChecked()) || (await defaultVat().inputValue()) !== '19') {
      await auto().check()
      await defaultVat().selectOption('19')
      await page.getByRole('button', { name: 'Guardar configuración' }).click()
      await expectMessage(page, SETTINGS_MESSAGES.saved)
    }
  }
  await page.close()
})
