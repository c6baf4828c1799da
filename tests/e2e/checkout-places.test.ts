import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import {
  choosePlace,
  declinedConsentCookie,
  DESKTOP,
  gotoHydrated,
  homeSkusInStock,
  PHONE,
  setStoredCart,
  setupBrowser,
  baseURL,
  cop,
  plain,
} from './browser.ts'
import { STORE } from './fixtures.ts'
import { SHIPPING_ZONE_MESSAGES } from '#app/modules/settings/validators.ts'
import { expectMessage, signInAsAdmin } from './admin-session.ts'

/**
 * Where an order goes (issue 24): the department, then the municipality from DANE's list for it,
 * searchable with scripts and a plain select without them; and the buyer's identity document.
 */
const browser = setupBrowser(PHONE)

let used = 0
/**
 * A different in-stock product for each order (from the end of the list: checkout.test.ts takes
 * from the start), cheap enough that its order pays for shipping.
 */
async function nextSku(page: Page) {
  const skus = await homeSkusInStock(page, 2, STORE.freeShippingThreshold * 100)
  const sku = skus[skus.length - 1 - (used++ % skus.length)]
  if (!sku) throw new Error('No quedan productos con stock en la tienda de pruebas')
  return sku
}

async function fillBuyer(page: Page) {
  await page.getByLabel('Nombre', { exact: false }).first().fill('Marta')
  await page.getByLabel('Apellido').fill('Ríos')
  await page.getByLabel('Teléfono (WhatsApp)').fill('3157654321')
  await page.getByLabel('Dirección').fill('Avenida 6N # 23-45')
  await page.getByLabel('Tipo de documento').selectOption('NIT')
  await page.getByLabel('Número de identificación').fill('800.197.268-4')
}

/** The order's page on the desk, read by the signed-in owner. */
async function deskTextOf(page: Page, orderId: string) {
  await gotoHydrated(page, `/admin/pedidos/detalle/${orderId}`)
  return (await page.locator('main').innerText()).replace(/\s+/g, ' ')
}

describe.each([
  { name: 'phone', viewport: PHONE },
  { name: 'desktop', viewport: DESKTOP },
])('an order to a chosen municipality ($name)', ({ name, viewport }) => {
  test('the search box narrows the department’s list; the order keeps both codes and the document', async () => {
    const page = await browser.page(viewport)
    const sku = await nextSku(page)
    await setStoredCart(page, [{ sku, quantity: 1 }])
    await gotoHydrated(page, '/finalizar-pedido')
    const municipality = page.getByRole('combobox', { name: 'Municipio', exact: true })
    expect(await municipality.locator('option').allTextContents()).toEqual(['Primero elige el departamento'])
    await fillBuyer(page)
    await page.getByLabel('Departamento').selectOption('Valle del Cauca')
    await expect.poll(() => municipality.locator('option').count()).toBe(43)
    await page.getByLabel('Buscar municipio').fill('cali')
    await expect
      .poll(() => municipality.locator('option').allTextContents())
      .toEqual(['Selecciona…', 'Calima', 'Santiago de Cali'])
    await municipality.selectOption({ label: 'Santiago de Cali' })
    await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
    await page.screenshot({ path: `test-results/checkout-municipality-${name}.png`, fullPage: true })
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.waitForURL('**/finalizar-pedido/success?pedido=*')
    const orderId = new URL(page.url()).searchParams.get('pedido')!

    await signInAsAdmin(page)
    const desk = await deskTextOf(page, orderId)
    expect(desk).toContain('Municipio Santiago de Cali (76001)')
    expect(desk).toContain('Departamento Valle del Cauca')
    expect(desk).toContain('Documento NIT 800197268-4')
  })
})

test('a wrong NIT check digit is refused beside the field, and the form keeps what was typed', async () => {
  const page = await browser.page()
  await setStoredCart(page, [{ sku: await nextSku(page), quantity: 1 }])
  await gotoHydrated(page, '/finalizar-pedido')
  await fillBuyer(page)
  await page.getByLabel('Número de identificación').fill('800197268-5')
  await choosePlace(page, 'Antioquia', 'Medellín')
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
  await page
    .getByText(
      'El dígito de verificación no corresponde al NIT 800197268: revisa el número después del guion.',
    )
    .waitFor()
  expect(await page.getByLabel('Tipo de documento').inputValue()).toBe('NIT')
  expect(await page.getByRole('combobox', { name: 'Municipio', exact: true }).inputValue()).toBe('05001')
})

test('without JavaScript: "Ver municipios del departamento" shows the list, and the order is placed', async () => {
  const page = await browser.page()
  const sku = await nextSku(page)
  const { chromium } = await import('playwright-core')
  const noJs = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  try {
    const context = await noJs.newContext({ javaScriptEnabled: false, baseURL: baseURL(), viewport: PHONE })
    await context.addCookies([
      declinedConsentCookie(),
      { name: 'vitrina_carrito', value: `${encodeURIComponent(sku)}:1`, url: baseURL() },
    ])
    const noJsPage = await context.newPage()
    await noJsPage.goto('/finalizar-pedido')
    await fillBuyer(noJsPage)
    await noJsPage.getByLabel('Departamento').selectOption('Santander')
    await Promise.all([
      noJsPage.waitForEvent('load'),
      noJsPage.getByRole('button', { name: 'Ver municipios del departamento' }).click(),
    ])
    // The form comes back as typed, with Santander's municipalities and no order placed.
    expect(await noJsPage.getByTestId('checkout-errors').count()).toBe(0)
    expect(await noJsPage.getByLabel('Apellido').inputValue()).toBe('Ríos')
    expect(await noJsPage.getByLabel('Departamento').inputValue()).toBe('Santander')
    await noJsPage
      .getByRole('combobox', { name: 'Municipio', exact: true })
      .selectOption({ label: 'Bucaramanga' })
    await noJsPage.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
    await noJsPage.screenshot({ path: 'test-results/checkout-municipality-no-js.png', fullPage: true })
    await noJsPage.getByRole('button', { name: 'Confirmar pedido' }).click()
    await noJsPage.waitForURL('**/finalizar-pedido/success?pedido=*')
    const orderId = new URL(noJsPage.url()).searchParams.get('pedido')!
    await signInAsAdmin(page)
    expect(await deskTextOf(page, orderId)).toContain('Municipio Bucaramanga (68001)')
  } finally {
    await noJs.close()
  }
})

test('a department picked before the scripts ran gets its municipalities once they run', async () => {
  const page = await browser.page()
  await setStoredCart(page, [{ sku: await nextSku(page), quantity: 1 }])
  let release = () => {}
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/.+\.js(\?.*)?$/, async (route) => {
    await scriptsHeld
    await route.continue()
  })
  await page.goto('/finalizar-pedido', { waitUntil: 'commit' })
  await page.getByLabel('Departamento').selectOption('Caldas')
  release()
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await page
    .getByRole('combobox', { name: 'Municipio', exact: true })
    .locator('option', { hasText: 'Manizales' })
    .waitFor({
      state: 'attached',
    })
  expect(await page.getByLabel('Departamento').inputValue()).toBe('Caldas')
})

test("a municipality's own shipping cost shows once it is chosen; where cash on delivery is off, the order is paid online", async () => {
  const page = await browser.page()
  await signInAsAdmin(page)
  const card = page.getByTestId('shipping-zones')
  // Jardín (Antioquia): no other file ships there.
  const zoneRow = () => card.getByTestId('shipping-zone').filter({ hasText: 'Jardín (Antioquia)' })
  try {
    await gotoHydrated(page, '/admin/configuraciones')
    const form = card.getByTestId('shipping-zone-form')
    await form.getByLabel('Departamento o municipio').selectOption('05364')
    await form.getByLabel('Costo de envío (vacío: costo general)').fill('15.000')
    await form.getByRole('checkbox', { name: 'Acepta pago contra entrega' }).uncheck()
    await form.getByRole('button', { name: 'Guardar zona' }).click()
    await expectMessage(page, SHIPPING_ZONE_MESSAGES.saved)

    const sku = await nextSku(page)
    await setStoredCart(page, [{ sku, quantity: 1 }])
    await gotoHydrated(page, '/finalizar-pedido')
    const shipping = page.getByTestId('checkout-shipping')
    const general = plain(await shipping.textContent())
    await fillBuyer(page)
    await choosePlace(page, 'Antioquia', 'Jardín')
    await expect.poll(async () => plain(await shipping.textContent())).toBe(cop(15000))
    await choosePlace(page, 'Antioquia', 'Medellín')
    await expect.poll(async () => plain(await shipping.textContent())).toBe(general)
    await choosePlace(page, 'Antioquia', 'Jardín')
    await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.getByTestId('checkout-errors').waitFor()
    expect(await page.getByTestId('checkout-errors').innerText()).toBe(
      'En Jardín no tenemos pago contra entrega. Elige otro método de pago.',
    )
    await page.getByLabel(/Pago en línea con Mercado Pago/).check()
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.waitForURL('**/pago-simulado/**')
  } finally {
    await gotoHydrated(page, '/admin/configuraciones')
    if (await zoneRow().count()) {
      await zoneRow().getByRole('button', { name: 'Quitar' }).click()
      await expectMessage(page, SHIPPING_ZONE_MESSAGES.removed)
    }
  }
})
