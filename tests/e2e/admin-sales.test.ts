import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { SALES_REPORT_MESSAGES } from '#app/modules/order/sales-report.ts'
import { acceptNextDialog, expectMessage, signInAsAdmin } from './admin-session.ts'
import {
  collectErrors,
  gotoHydrated,
  plain,
  screenshotAtBothWidths,
  seriousViolations,
  setupBrowser,
  startWithCart,
  choosePlace,
} from './browser.ts'
import { FIXTURES } from './fixtures.ts'

/**
 * "Ventas": an order placed in the storefront shows in the report (orders, units, products'
 * revenue, its department, best sellers), its margin turns from estimated to real once shipped,
 * and refused at delivery it leaves the sales for the cancelled figures. The units come back
 * through the return, so stock and the inventory totals end as they began.
 */

const browser = setupBrowser()
const SHOTS = 'test-results/admin-sales'
/** A department no other browser test orders from, so its row is this test's alone. */
const DEPARTMENT = 'Vaupés'
/** The fixture's entry cost (tests/e2e/fixtures.ts): the cost its exits record. */
const UNIT_COST = 15_000_00

beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

/** "$ 1.234,50" or "-$ 12,00" as centavos. */
function centavos(text: string): number {
  const digits = text.replace(/[^\d,-]/g, '')
  const negative = digits.includes('-')
  const value = Math.round(Number(digits.replace('-', '').replace(',', '.')) * 100)
  return negative ? -value : value
}

const count = (text: string) => Number(text.replace(/\D/g, ''))

/** The summary figures of today's report (the default range is the current month). */
async function summary(page: Page) {
  await gotoHydrated(page, '/admin/ventas')
  const read = async (id: string) => plain(await page.getByTestId(`sales-${id}`).innerText())
  return {
    orders: count(await read('orders')),
    units: count(await read('units')),
    revenue: centavos(await read('revenue')),
    shipping: centavos(await read('shipping')),
    margin: centavos(await read('margin')),
    estimatedMargin: centavos(await read('estimated-margin')),
    cancelled: count(await read('cancelled')),
    codRefused: count(await read('cod-refused')),
  }
}

/** The dashboard's inventory totals (units and value at cost), as text. */
async function inventoryTotals(page: Page) {
  await gotoHydrated(page, '/admin')
  return {
    units: plain(await page.getByTestId('total-units').innerText()),
    cost: plain(await page.getByTestId('total-cost').innerText()),
  }
}

async function changeStatus(page: Page, button: string, outcome: string) {
  const dialog = acceptNextDialog(page)
  await page.getByRole('button', { name: button, exact: true }).click()
  await dialog
  await expectMessage(page, outcome)
}

const shoot = (page: Page, name: string) => screenshotAtBothWidths(page, `${SHOTS}/${name}`)

test('a placed order appears in Ventas; shipped, its margin is real; refused, it leaves the sales', async () => {
  const page = await browser.page()
  const { sku, name } = FIXTURES.deskCancelled
  const inventory = await inventoryTotals(page)
  const before = await summary(page)
  // The figures open the page; how they are counted waits, closed, below the summary cards.
  const explanation = page.getByTestId('sales-explanation')
  expect(await explanation.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false)
  expect(await page.getByTestId('sales-rule').isVisible()).toBe(false)
  expect(
    await page
      .getByTestId('sales-summary')
      .evaluate(
        (summary, details) =>
          Boolean(summary.compareDocumentPosition(details!) & Node.DOCUMENT_POSITION_FOLLOWING),
        await explanation.elementHandle(),
      ),
  ).toBe(true)
  await shoot(page, 'report-closed')
  await explanation.getByText('Cómo se cuentan estas cifras').click()
  await page.getByTestId('sales-rule').waitFor({ state: 'visible' })
  expect(await page.getByTestId('sales-rule').innerText()).toContain('pedidos no cancelados')
  expect(await page.getByTestId('sales-margin-rule').innerText()).toContain('Margen bruto')
  await shoot(page, 'report-explained')

  // A shopper orders 2 units, cash on delivery, from Vaupés.
  await startWithCart(page, [{ sku, quantity: 2 }])
  await gotoHydrated(page, '/finalizar-pedido')
  await page.getByLabel('Nombre', { exact: false }).first().fill('Rosa')
  await page.getByLabel('Apellido').fill('Yepes')
  await page.getByLabel('Teléfono (WhatsApp)').fill('3187776655')
  await page.getByLabel('Dirección').fill('Calle 3 # 4-5')
  await choosePlace(page, DEPARTMENT, 'Mitú')
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
  await page.waitForURL('**/finalizar-pedido/success?pedido=*')
  const orderId = new URL(page.url()).searchParams.get('pedido')!
  const errors = collectErrors(page)

  const placed = await summary(page)
  expect(placed.orders).toBe(before.orders + 1)
  expect(placed.units).toBe(before.units + 2)
  const revenue = placed.revenue - before.revenue
  expect(revenue).toBeGreaterThan(0)
  // The shipping charged is not revenue: it shows apart.
  expect(placed.shipping).toBeGreaterThanOrEqual(before.shipping)
  // Not shipped yet: no real margin, an estimate at the current average cost.
  expect(placed.margin).toBe(before.margin)
  expect(placed.estimatedMargin - before.estimatedMargin).toBe(revenue - 2 * UNIT_COST)
  const department = page.locator(`[data-testid="sales-row-departments"][data-key="${DEPARTMENT}"]`)
  expect(plain(await department.innerText())).toContain(DEPARTMENT)
  expect(await department.locator('[data-column="orders"]').innerText()).toBe('1')
  expect(await department.locator('[data-column="units"]').innerText()).toBe('2')
  const seller = page.locator(`[data-testid="sales-best-seller"][data-sku="${sku}"]`)
  expect(plain(await seller.innerText())).toContain(name)
  await shoot(page, 'report')
  expect(await seriousViolations(page)).toEqual([])

  // Shipped from the desk: the exits record the cost, so the margin is real.
  await gotoHydrated(page, `/admin/pedidos/detalle/${orderId}`)
  await changeStatus(page, 'Marcar como Enviado', ORDER_DESK_MESSAGES.shipped)
  const shipped = await summary(page)
  expect(shipped.margin - before.margin).toBe(revenue - 2 * UNIT_COST)
  expect(shipped.estimatedMargin).toBe(before.estimatedMargin)

  // Refused at the door: cancelled, its units come back as a return; it is no longer a sale.
  await gotoHydrated(page, `/admin/pedidos/detalle/${orderId}`)
  await page.getByLabel('Motivo de la cancelación').fill('rechazado en la entrega')
  await changeStatus(page, 'Cancelado', ORDER_DESK_MESSAGES.cancelled)
  const refused = await summary(page)
  expect(refused).toMatchObject({
    orders: before.orders,
    units: before.units,
    revenue: before.revenue,
    margin: before.margin,
    cancelled: before.cancelled + 1,
    codRefused: before.codRefused + 1,
  })
  expect(await page.locator(`[data-testid="sales-row-departments"][data-key="${DEPARTMENT}"]`).count()).toBe(
    0,
  )

  // The CSV of the same range downloads with the report's columns.
  const csvHref = await page.getByTestId('sales-csv').getAttribute('href')
  const csv = await page.request.get(csvHref!)
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8')
  expect((await csv.text()).split('\r\n')[0]).toContain('Periodo;Fecha;Pedidos;Unidades;Ventas')

  expect(errors).toEqual([])
  // The return put the units back at their exit cost: the shop's inventory is as it was.
  expect(await inventoryTotals(page)).toEqual(inventory)

  // A reversed range is a Spanish message (answered 400), not an error page.
  await gotoHydrated(page, '/admin/ventas?desde=2026-12-31&hasta=2026-01-01')
  expect(await page.getByTestId('form-message').innerText()).toBe(SALES_REPORT_MESSAGES.rangeReversed)
})
