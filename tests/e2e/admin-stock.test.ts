import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import { KARDEX_COLUMNS } from '#app/modules/inventory/kardex-columns.ts'
import { STOCK_FORM_MESSAGES, STOCK_MESSAGES } from '#app/modules/inventory/validators.ts'
import { LOCAL_ADMIN_EMAIL } from '#app/modules/auth/config.server.ts'
import { FIXTURES } from './fixtures.ts'
import {
  collectErrors,
  cop,
  DESKTOP,
  gotoHydrated,
  PHONE,
  plain,
  seriousViolations,
  setupBrowser,
} from './browser.ts'
import { expectMessage, signInAsAdmin } from './admin-session.ts'

const browser = setupBrowser()
const PRODUCT = FIXTURES.stockMoves
const MAIN = 'P1-C1-A1-E1-X1-Y1-Z1'
const SHELF = 'P2-C3-A1-E1-X1-Y1-Z1'

beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

const fieldError = (page: Page, id: string) => page.locator(`#${id}-error`)

async function submit(page: Page, name: 'Registrar entrada' | 'Registrar salida') {
  await page.getByRole('button', { name }).click()
}

/**
 * One story, in order, because each step starts from the stock the previous one left: entries
 * through the picker, exits refused with every message of spec §5, then the kardex and its CSV.
 */
test('entries and exits through the forms, every message, then the kardex and its CSV', async () => {
  const page = await browser.page()
  const errors = collectErrors(page)

  // Entrada, reached from the products header; the product found by part of its name.
  await gotoHydrated(page, '/admin/productos')
  await page.getByTestId('products-nav').getByRole('link', { name: 'Entrada' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/productos/entrada')
  await submit(page, 'Registrar entrada')
  await expectMessage(page, STOCK_FORM_MESSAGES.required)
  expect(await page.getByTestId('error-sku').textContent()).toBe(STOCK_FORM_MESSAGES.required)

  await page.getByLabel('Producto (buscar por nombre o SKU)').fill('tobillera kardex')
  await page.getByTestId('product-option').filter({ hasText: PRODUCT.sku }).click()
  await page.waitForURL((url) => url.searchParams.get('sku') === PRODUCT.sku)
  expect(await page.getByTestId('picked-product').getAttribute('data-sku')).toBe(PRODUCT.sku)
  expect(await page.getByLabel('Ubicación').inputValue()).toBe(MAIN)

  // Missing quantity and cost: the spec's message, beside each field; the typed receipt stays.
  await page.getByLabel('Recibo').fill('F-E2E-1')
  await submit(page, 'Registrar entrada')
  await expectMessage(page, STOCK_FORM_MESSAGES.required)
  expect(await fieldError(page, 'entry-quantity').textContent()).toBe(STOCK_FORM_MESSAGES.required)
  expect(await fieldError(page, 'entry-unitPrice').textContent()).toBe(STOCK_FORM_MESSAGES.required)
  expect(await page.getByLabel('Recibo').inputValue()).toBe('F-E2E-1')

  await page.getByLabel('Cantidad').fill('10')
  await page.getByLabel('Costo unitario').fill('1500.50')
  await page.getByLabel('Nota').fill('Compra inicial, "lote" 1')
  await submit(page, 'Registrar entrada')
  await expectMessage(page, STOCK_FORM_MESSAGES.entrySaved)
  await expect.poll(() => page.getByTestId('picked-stock').textContent()).toBe('10')
  // A registered entry clears the form for the next one, product kept.
  expect(await page.getByLabel('Cantidad').inputValue()).toBe('')

  await page.getByLabel('Cantidad').fill('2')
  await page.getByLabel('Costo unitario').fill('1500.50')
  await page.getByLabel('Ubicación').fill(SHELF.toLowerCase())
  await submit(page, 'Registrar entrada')
  await expectMessage(page, STOCK_FORM_MESSAGES.entrySaved)
  await expect.poll(() => page.getByTestId('picked-stock').textContent()).toBe('12')

  // Salida, from the product's inventory card: product preselected, price read-only at the cost.
  await gotoHydrated(page, `/admin/productos?q=${PRODUCT.sku}&sinStock=1&inactivos=1`)
  const card = page.locator(`[data-testid="inventory-card"][data-sku="${PRODUCT.sku}"]`)
  expect(await card.getByTestId('inventory-stock').textContent()).toBe('12')
  expect(await card.getByTestId('inventory-reserved').textContent()).toBe('0')
  expect(await card.getByTestId('inventory-available').textContent()).toBe('12')
  await card.getByTestId('inventory-exit').click()
  await page.waitForURL((url) => url.pathname === '/admin/productos/salida')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  const price = page.getByLabel('Precio unitario')
  expect(await price.inputValue()).toBe('1500.50')
  // The form locks the price in its own effect, a render after the page (already hydrated) shows it.
  await expect.poll(() => price.getAttribute('readonly')).not.toBeNull()
  expect(
    await page
      .getByTestId('location-suggestions')
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
  ).toEqual([MAIN, SHELF])

  await page.getByLabel('Recibo').fill('V-E2E-1')
  await page.getByLabel('Cantidad').fill('13')
  await page.getByLabel('Ubicación').fill(MAIN)
  await submit(page, 'Registrar salida')
  await expectMessage(page, STOCK_MESSAGES.notEnoughStock)
  expect(await fieldError(page, 'exit-quantity').textContent()).toBe(STOCK_MESSAGES.notEnoughStock)
  expect(await page.getByLabel('Recibo').inputValue()).toBe('V-E2E-1')

  await page.getByLabel('Cantidad').fill('3')
  await page.getByLabel('Ubicación').fill('P9-C1-A1-E1-X1-Y1-Z1')
  await submit(page, 'Registrar salida')
  await expectMessage(page, STOCK_MESSAGES.unknownLocation('P9-C1-A1-E1-X1-Y1-Z1'))
  expect(await fieldError(page, 'exit-location').textContent()).toBe(
    STOCK_MESSAGES.unknownLocation('P9-C1-A1-E1-X1-Y1-Z1'),
  )

  await page.getByLabel('Ubicación').fill(SHELF)
  await submit(page, 'Registrar salida')
  await expectMessage(page, STOCK_MESSAGES.notEnoughAtLocation(SHELF))

  await page.getByLabel('Ubicación').fill('')
  await submit(page, 'Registrar salida')
  await expectMessage(page, STOCK_FORM_MESSAGES.required)
  expect(await fieldError(page, 'exit-location').textContent()).toBe(STOCK_FORM_MESSAGES.required)

  // "Editar Precio" makes the price editable; a blank one is missing.
  await page.getByLabel('Editar Precio').check()
  expect(await price.getAttribute('readonly')).toBeNull()
  await price.fill('')
  await page.getByLabel('Ubicación').fill(MAIN)
  await submit(page, 'Registrar salida')
  await expectMessage(page, STOCK_FORM_MESSAGES.required)
  expect(await fieldError(page, 'exit-unitPrice').textContent()).toBe(STOCK_FORM_MESSAGES.required)

  await price.fill('2000')
  await submit(page, 'Registrar salida')
  await expectMessage(page, STOCK_FORM_MESSAGES.exitSaved)
  await expect.poll(() => page.getByTestId('picked-stock').textContent()).toBe('9')

  // The kardex, from the picked product's link.
  await page.getByTestId('picked-product').getByRole('link', { name: 'Movimientos' }).click()
  await page.waitForURL((url) => url.pathname === `/admin/productos/movimientos/${PRODUCT.sku}`)
  const rows = page.getByTestId('kardex-row')
  await expect.poll(() => rows.count()).toBe(3)
  const cells = await rows.evaluateAll((all) =>
    all.map((row) => [...row.querySelectorAll('td')].map((td) => td.innerText.replace(/\s+/g, ' ').trim())),
  )
  // Receipt and note share a column, the receipt first.
  expect(cells.map((row) => [row[1], row[2], row[5], row[6], row[7], row[9]])).toEqual([
    ['Entrada', '10', 'F-E2E-1 Compra inicial, "lote" 1', MAIN, '10', LOCAL_ADMIN_EMAIL],
    ['Entrada', '2', '', SHELF, '12', LOCAL_ADMIN_EMAIL],
    ['Salida', '3', 'V-E2E-1', MAIN, '9', LOCAL_ADMIN_EMAIL],
  ])
  expect(plain(cells[2]![3]!)).toBe('$ 2.000,00')
  expect(plain(cells[2]![4]!)).toBe('$ 6.000,00')

  // A day range that leaves every row out; one backwards says so; then the CSV of all of them.
  await page.getByLabel('Desde').fill('2020-01-01')
  await page.getByLabel('Hasta').fill('2020-01-31')
  await page.getByRole('button', { name: 'Filtrar' }).click()
  await page.getByTestId('kardex-empty').waitFor()
  await page.getByLabel('Desde').fill('2020-02-01')
  await page.getByRole('button', { name: 'Filtrar' }).click()
  await page.getByRole('alert').filter({ hasText: STOCK_MESSAGES.rangeReversed }).waitFor()
  expect(await page.getByTestId('kardex-empty').count()).toBe(0)
  await page.getByRole('link', { name: 'Quitar filtro' }).click()
  await expect.poll(() => rows.count()).toBe(3)

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('kardex-csv').click(),
  ])
  expect(download.suggestedFilename()).toBe(`kardex-${PRODUCT.sku}.csv`)
  const bytes = await readFile((await download.path())!)
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n')
  expect(lines[0]).toBe(
    'Fecha;Tipo;Cantidad;Precio unitario;Total;Recibo;Nota;Ubicación;Stock después;Costo promedio después;Usuario',
  )
  expect(lines.slice(1).map((line) => line.replace(/^[^;]+;/, ''))).toEqual([
    `Entrada;10;1500,50;15005,00;F-E2E-1;"Compra inicial, ""lote"" 1";${MAIN};10;1500,50;${LOCAL_ADMIN_EMAIL}`,
    `Entrada;2;1500,50;3001,00;;;${SHELF};12;1500,50;${LOCAL_ADMIN_EMAIL}`,
    expect.stringMatching(new RegExp(`^Salida;3;2000,00;6000,00;V-E2E-1;;${MAIN};9;`)),
  ])
  // Toasts vanish after 3 s; the page itself is what is checked.
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' })
  expect(await seriousViolations(page)).toEqual([])

  // The product leaves as it came (no units, so no cost): the shop's inventory totals, which the
  // sign-in test compares with the seeded ones, do not depend on the order the tests run in.
  for (const [quantity, location, stockAfter] of [
    ['7', MAIN, '2'],
    ['2', SHELF, '0'],
  ] as const) {
    await gotoHydrated(page, `/admin/productos/salida?sku=${PRODUCT.sku}`)
    await page.getByLabel('Cantidad').fill(quantity)
    await page.getByLabel('Ubicación').fill(location)
    await submit(page, 'Registrar salida')
    await expectMessage(page, STOCK_FORM_MESSAGES.exitSaved)
    await expect.poll(() => page.getByTestId('picked-stock').textContent()).toBe(stockAfter)
  }
  // Refused posts answer 4xx, which Chromium also logs as failed loads; nothing else may appear.
  expect(errors.filter((error) => !error.startsWith('Failed to load resource'))).toEqual([])
  await page.close()
})

test('an unknown sku: the kardex says "Producto no encontrado." and the forms offer the search', async () => {
  const page = await browser.page()
  const response = await gotoHydrated(page, '/admin/productos/movimientos/NO-EXISTE-123')
  expect(response?.status()).toBe(404)
  await expectMessage(page, 'Producto no encontrado.')
  await gotoHydrated(page, '/admin/productos/salida?sku=NO-EXISTE-123')
  expect(await page.getByRole('alert').filter({ hasText: 'Producto no encontrado.' }).count()).toBe(1)
  await page.close()
})

/** Each kardex card's fields, label → text, and whether every value lies inside the screen. */
function cardFields(page: Page) {
  return page.getByTestId('kardex-card').evaluateAll((cards) =>
    cards.map((card) => {
      const fields: Record<string, string> = {}
      const outside: string[] = []
      for (const label of card.querySelectorAll('dt')) {
        const value = label.nextElementSibling as HTMLElement
        const name = (label.textContent ?? '').trim()
        fields[name] = (value.textContent ?? '').replace(/\s+/g, ' ').trim()
        const box = value.getBoundingClientRect()
        if (box.width === 0 || box.left < 0 || box.right > window.innerWidth) outside.push(name)
      }
      return { fields, outside }
    }),
  )
}

test('the kardex fits a 1280 px desktop without sideways scrolling, and a phone shows each movement as a card', async () => {
  const page = await browser.page(DESKTOP)
  // Two movements of its own, with the widest things a row holds (a large cost, a long receipt and
  // note); the exit leaves the product without units, as it came.
  const receipt = 'FAC-PROVEEDOR-2025-000123'
  const note = 'Compra al proveedor de Medellín; dos cajas llegaron golpeadas y se revisaron una a una'
  await gotoHydrated(page, `/admin/productos/entrada?sku=${PRODUCT.sku}`)
  await page.getByLabel('Cantidad').fill('4')
  await page.getByLabel('Costo unitario').fill('1234567.89')
  await page.getByLabel('Recibo').fill(receipt)
  await page.getByLabel('Nota').fill(note)
  await submit(page, 'Registrar entrada')
  await expectMessage(page, STOCK_FORM_MESSAGES.entrySaved)
  await gotoHydrated(page, `/admin/productos/salida?sku=${PRODUCT.sku}`)
  await page.getByLabel('Cantidad').fill('4')
  await page.getByLabel('Ubicación').fill(MAIN)
  await submit(page, 'Registrar salida')
  await expectMessage(page, STOCK_FORM_MESSAGES.exitSaved)
  await expect.poll(() => page.getByTestId('picked-stock').textContent()).toBe('0')

  await gotoHydrated(page, `/admin/productos/movimientos/${PRODUCT.sku}`)
  const table = page.getByTestId('kardex-table')
  const fit = await table.evaluate((element) => {
    const container = element.parentElement!
    return {
      table: element.scrollWidth,
      scrolled: container.scrollWidth,
      container: container.clientWidth,
      page: document.documentElement.scrollWidth,
    }
  })
  expect(fit.table).toBeLessThanOrEqual(fit.container)
  expect(fit.scrolled).toBeLessThanOrEqual(fit.container)
  expect(fit.page).toBeLessThanOrEqual(DESKTOP.width)
  // "Costo promedio después": its header and every value are on screen.
  const averageCost = await table.evaluate((element) => {
    const table = element as HTMLTableElement
    const headers = [...table.tHead!.rows[0]!.cells]
    const index = headers.findIndex((cell) => cell.textContent?.trim() === 'Costo promedio después')
    const cells = [headers[index]!, ...[...table.tBodies[0]!.rows].map((row) => row.cells[index]!)]
    return cells.map((cell) => {
      const box = cell.getBoundingClientRect()
      return { text: (cell.textContent ?? '').replace(/\s+/g, ' ').trim(), left: box.left, right: box.right }
    })
  })
  expect(averageCost[0]!.text).toBe('Costo promedio después')
  expect(averageCost.length).toBeGreaterThanOrEqual(3)
  for (const cell of averageCost) {
    expect(cell.left).toBeGreaterThanOrEqual(0)
    expect(cell.right).toBeLessThanOrEqual(DESKTOP.width)
  }
  expect(averageCost.at(-2)!.text).toBe(cop(1_234_567.89))
  expect(await page.getByTestId('kardex-cards').isVisible()).toBe(false)

  // On a phone: no table, one card per movement, each showing every field the table has.
  await page.setViewportSize(PHONE)
  await page.getByTestId('kardex-cards').waitFor()
  expect(await table.isVisible()).toBe(false)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  const rowCount = await page.getByTestId('kardex-row').count()
  const cards = await cardFields(page)
  expect(cards.length).toBe(rowCount)
  for (const card of cards) {
    expect(Object.keys(card.fields).sort()).toEqual([...KARDEX_COLUMNS].sort())
    expect(card.outside).toEqual([])
    for (const [name, text] of Object.entries(card.fields)) expect(text, name).not.toBe('')
  }
  const [entry, exit] = cards.slice(-2).map((card) => card.fields)
  expect(entry).toEqual({
    Fecha: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}/),
    Tipo: 'Entrada',
    Cantidad: '4',
    'Precio unitario': cop(1_234_567.89),
    Total: cop(4_938_271.56),
    Recibo: receipt,
    Nota: note,
    Ubicación: MAIN,
    'Stock después': '4',
    'Costo promedio después': cop(1_234_567.89),
    Usuario: LOCAL_ADMIN_EMAIL,
  })
  expect(exit).toMatchObject({
    Tipo: 'Salida',
    Cantidad: '4',
    'Precio unitario': cop(1_234_567.89),
    Total: cop(4_938_271.56),
    Ubicación: MAIN,
    'Stock después': '0',
    Usuario: LOCAL_ADMIN_EMAIL,
  })
  await page.close()
})

test('a new product search clears the message of the last answer; a new save shows its own', async () => {
  const page = await browser.page()
  const search = () => page.getByLabel('Producto (buscar por nombre o SKU)')
  const message = page.getByTestId('form-message')

  // A save without a product: the spec's message, on the form, beside the search and the fields.
  await gotoHydrated(page, '/admin/productos/entrada')
  await page.getByLabel('Recibo').fill('F-BUSQUEDA')
  await submit(page, 'Registrar entrada')
  await expectMessage(page, STOCK_FORM_MESSAGES.required)
  await page.getByTestId('error-sku').waitFor()
  expect(await fieldError(page, 'entry-quantity').textContent()).toBe(STOCK_FORM_MESSAGES.required)

  await search().fill('tobillera kardex')
  await page.getByTestId('product-option').filter({ hasText: PRODUCT.sku }).waitFor()
  expect(await message.count()).toBe(0)
  expect(await page.getByTestId('error-sku').count()).toBe(0)
  expect(await search().getAttribute('aria-invalid')).toBeNull()
  expect(await fieldError(page, 'entry-quantity').count()).toBe(0)
  // What was typed stays.
  expect(await page.getByLabel('Recibo').inputValue()).toBe('F-BUSQUEDA')

  // The next save answers again.
  await submit(page, 'Registrar entrada')
  await expectMessage(page, STOCK_FORM_MESSAGES.required)
  await page.getByTestId('error-sku').waitFor()
  await fieldError(page, 'entry-quantity').waitFor()

  // "Producto no encontrado." for an unknown product goes with the next search too.
  await gotoHydrated(page, '/admin/productos/salida?sku=NO-EXISTE-123')
  const notFound = page.getByRole('alert').filter({ hasText: 'Producto no encontrado.' })
  expect(await notFound.count()).toBe(1)
  await search().fill('tobillera kardex')
  await page.getByTestId('product-option').filter({ hasText: PRODUCT.sku }).waitFor()
  expect(await notFound.count()).toBe(0)
  await page.close()
})
