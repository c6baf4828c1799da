import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { PROMOTION_MESSAGES } from '#app/modules/promotions/validators.ts'
import { acceptNextDialog, expectMessage, signInAsAdmin } from './admin-session.ts'
import {
  choosePlace,
  cop,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  setStoredCart,
  setupBrowser,
} from './browser.ts'
import { FLOW_FIXTURES, STORE } from './fixtures.ts'

/**
 * "Descuentos y Promociones" from the owner's form to a paid order and its line in "Ventas", at
 * 390 px and 1280 px: a discount code and an automatic promotion, each made in the back office,
 * used by a shopper without JavaScript who pays with Mercado Pago (the simulated page), then seen
 * in the promotions list and in "Ventas". Each width ships to a department no other test ships to,
 * so its row in "Ventas" holds exactly these two orders; every promotion made here is ended.
 */
const admin = setupBrowser()
const TAG = Date.now().toString(36).toUpperCase()

type Width = { name: 'phone' | 'desktop'; viewport: typeof PHONE; department: string; municipality: string }
const WIDTHS: Width[] = [
  { name: 'phone', viewport: PHONE, department: 'Guainía', municipality: 'Inírida' },
  { name: 'desktop', viewport: DESKTOP, department: 'Vichada', municipality: 'Puerto Carreño' },
]

const itemOf = (page: Page, name: string) =>
  page
    .locator('[data-testid="promotion-item"]:visible')
    .filter({ has: page.getByTestId('promotion-name').getByText(name, { exact: true }) })

async function createPromotion(
  page: Page,
  fields: { name: string; code?: string; percent: string; sku: string },
) {
  await gotoHydrated(page, '/admin/descuentos/nueva')
  await page.getByLabel('Nombre').fill(fields.name)
  if (fields.code) await page.getByLabel('Código', { exact: true }).fill(fields.code)
  else await page.getByLabel('Promoción automática (sin código)').check()
  await page.getByLabel('Qué da').selectOption('percent')
  await page.getByLabel('Sobre qué').selectOption('products')
  await page.getByLabel('Porcentaje (%)').fill(fields.percent)
  await page.getByLabel('Productos (SKU)').fill(fields.sku)
  await page.getByRole('button', { name: 'Crear promoción' }).click()
  await expectMessage(page, PROMOTION_MESSAGES.created)
}

async function endPromotion(page: Page, name: string) {
  await gotoHydrated(page, '/admin/descuentos')
  const button = itemOf(page, name).getByRole('button', { name: /^Terminar ahora/ })
  if (!(await button.count())) return
  const asked = acceptNextDialog(page)
  await button.click()
  await asked
  await expectMessage(page, PROMOTION_MESSAGES.ended(name))
}

/** The shopper's checkout, without scripts, to Mercado Pago's simulated page and back paid. */
async function payWithMercadoPago(shopper: Page, width: Width) {
  await shopper.getByRole('link', { name: 'Finalizar pedido' }).click()
  await shopper.waitForURL((url) => url.pathname === '/finalizar-pedido')
  await shopper.getByLabel('Nombre').fill('Inés')
  await shopper.getByLabel('Teléfono (WhatsApp)').fill('3014445566')
  await shopper.getByLabel('Dirección').fill('Calle 5 # 6-7')
  await choosePlace(shopper, width.department, width.municipality)
  await shopper.getByLabel(/Pago en línea con Mercado Pago/).check()
  await shopper.getByLabel(/Autorizo el tratamiento/).check()
  const shown = plain(await shopper.getByTestId('checkout-total').textContent())
  await shopper.getByRole('button', { name: 'Confirmar pedido' }).click()
  await shopper.waitForURL('**/pago-simulado/**')
  // The simulated provider asks for exactly the discounted total.
  expect(plain(await shopper.locator('main').textContent())).toContain(shown)
  await shopper.getByRole('button', { name: 'Aprobar pago' }).click()
  await shopper.waitForURL('**/finalizar-pedido/success?**')
  await shopper.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
  return shown
}

describe.each(WIDTHS)('a code and an automatic promotion to a paid order ($name)', (width) => {
  const shopperBrowser = setupBrowser(width.viewport, { javaScriptEnabled: false })
  const products = FLOW_FIXTURES[width.name]
  const codeName = `Flujo código ${width.name} ${TAG}`
  const code = `FLUJO${width.name === 'phone' ? 'T' : 'E'}${TAG}`
  const autoName = `Flujo automática ${width.name} ${TAG}`

  test('made in the back office, paid by a shopper, counted in the list and in Ventas', async () => {
    const page = await admin.page(width.viewport)
    await signInAsAdmin(page)
    try {
      await createPromotion(page, { name: codeName, code, percent: '20', sku: products.code.sku })
      await createPromotion(page, { name: autoName, percent: '25', sku: products.automatic.sku })

      // The code, typed in the cart without scripts: 20 % of 40.000 off, shipping below the threshold.
      const shopper = await shopperBrowser.page()
      await setStoredCart(shopper, [{ sku: products.code.sku, quantity: 1 }])
      await shopper.goto('/carrito')
      await shopper.getByLabel('Código de descuento').fill(code.toLowerCase())
      await Promise.all([
        shopper.waitForEvent('load'),
        shopper.getByRole('button', { name: 'Aplicar' }).click(),
      ])
      expect(plain(await shopper.getByTestId('cart-discount').textContent())).toBe(`-${cop(8000)}`)
      const codeTotal = await payWithMercadoPago(shopper, width)
      expect(codeTotal).toBe(cop(32000 + STORE.shippingCost))
      await shopper.screenshot({
        path: `test-results/promotions-flow-code-paid-${width.name}.png`,
        fullPage: true,
      })

      // The automatic promotion: its price and badge on the product page, its row in the cart.
      await shopper.goto(`/producto/${products.automatic.sku}`)
      expect(plain(await shopper.locator('main').textContent())).toContain(cop(30000))
      await setStoredCart(shopper, [{ sku: products.automatic.sku, quantity: 1 }])
      await shopper.goto('/carrito')
      expect(plain(await shopper.getByTestId('cart-discount').textContent())).toBe(`-${cop(10000)}`)
      const autoTotal = await payWithMercadoPago(shopper, width)
      expect(autoTotal).toBe(cop(30000 + STORE.shippingCost))

      // The list: one use each, and the sales of the orders that used them.
      await gotoHydrated(page, '/admin/descuentos')
      expect(plain(await itemOf(page, codeName).getByTestId('promotion-uses').textContent())).toBe('1')
      expect(plain(await itemOf(page, autoName).getByTestId('promotion-uses').textContent())).toBe('1')
      await page.screenshot({ path: `test-results/promotions-flow-list-${width.name}.png`, fullPage: true })

      // "Ventas": the department's row holds both paid orders, net of their 18.000 of discounts.
      // A payment settles from Mercado Pago's notification, a job after the shopper's page: on a
      // loaded machine the second order may be counted a moment after the success page showed.
      const row = page.locator(`[data-testid="sales-row-departments"][data-key="${width.department}"]`)
      await expect
        .poll(
          async () => {
            await gotoHydrated(page, '/admin/ventas')
            return row.locator('[data-column="orders"]').innerText()
          },
          { timeout: 20_000 },
        )
        .toBe('2')
      expect(plain(await row.locator('[data-column="revenue"]').innerText())).toBe(cop(62000))
      expect(plain(await row.locator('[data-column="discount"]').innerText())).toBe(cop(18000))
      await row.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `test-results/promotions-flow-ventas-${width.name}.png`, fullPage: true })
    } finally {
      await endPromotion(page, codeName)
      await endPromotion(page, autoName)
    }
  })
})
