import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { STOCK_FORM_MESSAGES } from '#app/modules/inventory/validators.ts'
import { MUNICIPALITY_MESSAGES } from '#app/modules/order/delivery-place.ts'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { createOrder } from '#tests/factories.ts'
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
import { DESK_LOCATION, FIXTURES } from './fixtures.ts'
import { startOwnServer, type OwnServer } from './own-server.ts'

/**
 * The order desk from the storefront to delivery: an order placed by a shopper is confirmed, paid,
 * shipped and completed by the admin, and stock, reservation and ledger end right; a cancelled
 * order gives its units back.
 */

const browser = setupBrowser()
const SHOTS = 'test-results/admin-orders'

beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

async function available(page: Page, sku: string) {
  const response = await page.request.get(`/api/carrito?skus=${encodeURIComponent(sku)}`)
  return ((await response.json()) as { products: { available: number }[] }).products[0]?.available ?? 0
}

/** A cash-on-delivery order through the real checkout; answers its id and number. */
async function placeOrder(page: Page, sku: string, quantity: number, phone: string) {
  await startWithCart(page, [{ sku, quantity }])
  await gotoHydrated(page, '/finalizar-pedido')
  await page.getByLabel('Nombre', { exact: false }).first().fill('Marta')
  await page.getByLabel('Apellido').fill('Restrepo')
  await page.getByLabel('Teléfono (WhatsApp)').fill(phone)
  await page.getByLabel('Dirección').fill('Calle 45 # 12-34, apto 301')
  await choosePlace(page, 'Santander', 'Bucaramanga')
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
  await page.waitForURL('**/finalizar-pedido/success?pedido=*')
  const id = new URL(page.url()).searchParams.get('pedido')!
  const number = Number(await page.getByTestId('order-number').innerText())
  return { id, number }
}

/** Presses a status button, accepting the spec's confirm, and waits for the outcome. */
async function changeStatus(page: Page, button: string, state: string, outcome: string) {
  const dialog = acceptNextDialog(page)
  await page.getByRole('button', { name: button, exact: true }).click()
  expect(await dialog).toBe(`Va a cambiar el estado del pedido a: ${state}`)
  await expectMessage(page, outcome)
}

const shoot = (page: Page, name: string) => screenshotAtBothWidths(page, `${SHOTS}/${name}`)

test('confirmed, paid, shipped and completed from the desk: stock, reservation and ledger end right', async () => {
  const page = await browser.page()
  const { sku } = FIXTURES.deskShipped
  const before = await available(page, sku)
  const order = await placeOrder(page, sku, 2, '3156667788')
  expect(await available(page, sku)).toBe(before - 2)
  // From here on, the desk's pages (the cart was set from robots.txt, whose favicon is a 404).
  const errors = collectErrors(page)

  // The list finds it by number, with its flags; the dashboard counts it as one to confirm.
  await gotoHydrated(page, '/admin')
  const toConfirm = Number(await page.getByTestId('count-to-confirm').innerText())
  expect(toConfirm).toBeGreaterThanOrEqual(1)
  await page.getByTestId('orders-to-confirm').click()
  await page.waitForURL((url) => url.searchParams.get('ver') === 'por-confirmar')
  await page.getByRole('searchbox').fill(String(order.number))
  await page.getByRole('button', { name: 'Filtrar' }).click()
  await page.waitForURL((url) => url.searchParams.get('q') === String(order.number))
  const row = page.getByTestId('order-row')
  await expect.poll(() => row.count()).toBe(1)
  expect(plain(await row.innerText())).toContain('Marta Restrepo')
  expect(await row.getByTestId('order-confirmed').getAttribute('data-on')).toBe('false')
  expect(plain(await row.innerText())).toMatch(/Se libera en 4[78] h/)
  await gotoHydrated(page, `/admin/pedidos?q=${order.number}`)
  await shoot(page, 'list')
  expect(await seriousViolations(page)).toEqual([])
  await page
    .getByRole('link', { name: `#${order.number}` })
    .last()
    .click()
  await page.waitForURL(`**/admin/pedidos/detalle/${order.id}`)
  await page.getByRole('heading', { name: `Pedido #${order.number}` }).waitFor()

  // Cash on delivery: the WhatsApp chat is prefilled, then "Confirmado" is recorded.
  const chat = new URL((await page.getByTestId('whatsapp-confirm').getAttribute('href'))!)
  expect(chat.origin + chat.pathname).toBe('https://wa.me/573156667788')
  expect(chat.searchParams.get('text')).toContain(`pedido #${order.number}`)
  expect(chat.searchParams.get('text')).toContain('Total a pagar contra entrega:')
  expect(chat.searchParams.get('text')).toContain('Calle 45 # 12-34, apto 301, Bucaramanga, Santander')
  // The checkout kept the shopper's address as the server saw it (this test's browser: loopback).
  expect(await page.getByTestId('order-client-address').innerText()).toMatch(/^(::ffff:)?127\.0\.0\.1$/)
  await shoot(page, 'detail')
  expect(await seriousViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Confirmado', exact: true }).click()
  await expectMessage(page, ORDER_DESK_MESSAGES.confirmed)
  await expect.poll(() => page.getByTestId('whatsapp-confirm').count()).toBe(0)

  await changeStatus(page, 'Marcar como pagado', 'pagado', ORDER_DESK_MESSAGES.paid)
  await expect.poll(() => page.getByTestId('order-status').first().innerText()).toBe('pagado')
  await expect.poll(() => page.getByRole('button', { name: 'Marcar como pagado' }).count()).toBe(0)

  await page.getByLabel('Transportadora (opcional)').fill('Servientrega')
  await page.getByLabel('Número de guía (opcional)').fill('SV-998877')
  await changeStatus(page, 'Marcar como Enviado', 'enviado', ORDER_DESK_MESSAGES.shipped)
  await expect.poll(() => page.getByRole('button', { name: 'Marcar como Enviado' }).count()).toBe(0)
  await expect.poll(() => page.getByTestId('order-carrier').count()).toBe(1)
  expect(await page.getByTestId('order-carrier').innerText()).toBe('Servientrega')
  expect(await page.getByTestId('order-tracking').innerText()).toBe('SV-998877')
  // Shipped: the reservation became exits (stock − 2, reserved back to 0), so available is unchanged.
  expect(await available(page, sku)).toBe(before - 2)
  const exits = page.getByTestId('order-movement')
  expect(await exits.count()).toBe(1)
  expect(plain(await exits.innerText())).toContain(`Salida 2 × ${sku} · ${DESK_LOCATION}`)
  expect(plain(await exits.innerText())).toContain(`recibo ${order.number}`)

  await changeStatus(page, 'Completado', 'Completado', ORDER_DESK_MESSAGES.completed)
  await expect.poll(() => page.getByTestId('order-status').first().innerText()).toBe('Completado')
  await expect.poll(() => page.getByTestId('order-actions').count()).toBe(0)
  const timeline = await page
    .getByTestId('order-event')
    .evaluateAll((items) =>
      items.map((item) => ({ type: item.getAttribute('data-type'), text: item.textContent ?? '' })),
    )
  const byAdmin = timeline.filter(({ text }) => text.includes('admin@vitrina.local')).map(({ type }) => type)
  expect(byAdmin).toEqual(['confirmed', 'paid', 'shipped', 'completed'])
  expect(await available(page, sku)).toBe(before - 2)

  // The packing slip: where to pick, and nothing to collect (paid).
  await gotoHydrated(page, `/admin/pedidos/guia/${order.id}`)
  const slip = page.getByTestId('packing-slip')
  expect(await slip.count()).toBe(1)
  expect(await slip.getByTestId('slip-collect').innerText()).toMatch(/^\$\s0,00$/)
  expect(plain(await slip.innerText())).toContain('Tel. 3156667788')
  await shoot(page, 'slip')
  expect(await seriousViolations(page)).toEqual([])
  expect(errors).toEqual([])

  // The two units come back through an entry at their cost, so the shop's inventory totals (which
  // the dashboard test compares with the seeded shop) end as they began, whatever the test order.
  await gotoHydrated(page, `/admin/productos/entrada?sku=${sku}`)
  await page.getByLabel('Cantidad').fill('2')
  await page.getByLabel('Costo unitario').fill('15000')
  await page.getByLabel('Ubicación').fill(DESK_LOCATION)
  await page.getByLabel('Recibo').fill(`Reposición pedido ${order.number}`)
  await page.getByRole('button', { name: 'Registrar entrada' }).click()
  await expectMessage(page, STOCK_FORM_MESSAGES.entrySaved)
  expect(await available(page, sku)).toBe(before)
})

test('a cancelled order gives its units back; refused at delivery, they come back as a return', async () => {
  const page = await browser.page()
  const { sku } = FIXTURES.deskCancelled
  const before = await available(page, sku)

  const first = await placeOrder(page, sku, 2, '3171234500')
  expect(await available(page, sku)).toBe(before - 2)
  await gotoHydrated(page, `/admin/pedidos/detalle/${first.id}`)
  // The confirm refused: nothing happens.
  page.once('dialog', (dialog) => void dialog.dismiss())
  await page.getByLabel('Motivo de la cancelación').fill('el cliente canceló')
  await page.getByRole('button', { name: 'Cancelado', exact: true }).click()
  await expect.poll(() => page.getByTestId('order-status').first().innerText()).toBe('pendiente de pago')
  await changeStatus(page, 'Cancelado', 'cancelado', ORDER_DESK_MESSAGES.cancelled)
  await expect.poll(() => page.getByTestId('order-status').first().innerText()).toBe('cancelado')
  await expect.poll(() => page.getByTestId('order-actions').count()).toBe(0)
  expect(await available(page, sku)).toBe(before)

  const second = await placeOrder(page, sku, 1, '3171234500')
  await gotoHydrated(page, `/admin/pedidos/detalle/${second.id}`)
  expect(plain(await page.getByTestId('order-history').innerText())).toContain('1 pedido anterior')
  await changeStatus(page, 'Marcar como Enviado', 'enviado', ORDER_DESK_MESSAGES.shipped)
  expect(await available(page, sku)).toBe(before - 1)
  await page.getByLabel('Motivo de la cancelación').fill('rechazado en la entrega')
  await changeStatus(page, 'Cancelado', 'cancelado', ORDER_DESK_MESSAGES.cancelled)
  expect(await available(page, sku)).toBe(before)
  await expect.poll(() => page.getByTestId('order-movement').count()).toBe(2)
  const movements = await page
    .getByTestId('order-movement')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-type')))
  expect(movements).toEqual(['out', 'in'])

  // The cancelled filter lists both.
  await gotoHydrated(page, `/admin/pedidos?ver=cancelados&q=3171234500`)
  expect(await page.getByTestId('order-row').count()).toBe(2)
})

test('an unknown order is "Pedido no encontrado." with a 404', async () => {
  const page = await browser.page()
  const response = await page.goto('/admin/pedidos/detalle/00000000-0000-4000-8000-000000000000')
  expect(response?.status()).toBe(404)
  expect(await page.getByTestId('admin-error').innerText()).toBe('Pedido no encontrado.')
  expect(await page.title()).toBe('Página no encontrada')
  expect((await page.goto('/admin/pedidos/detalle/no-es-un-id'))?.status()).toBe(404)
})

describe('an order without its DANE municipality (placed before the checkout asked for it, or imported)', () => {
  // The checkout now asks every shopper for the municipality, so such an order is written straight
  // into a shop of this test's own, before its server opens the database (as security.test.ts does).
  const orderId = randomUUID()
  const owner = 'duena@vitrina.test'
  let server: OwnServer | undefined
  let base = ''
  let sessionCookie = { name: '', value: '' }

  beforeAll(async () => {
    server = await startOwnServer({
      name: 'municipio',
      owner,
      async seed(db) {
        await createOrder(db, {
          id: orderId,
          customerName: 'Rosa',
          customerLastName: 'Arango',
          customerIdentificationType: 'CC',
          customerIdentificationNumber: '43123456',
          customerAddress: 'Calle 10 # 43-12',
          customerCity: 'medellin',
          customerDepartment: 'Antioquia',
          customerDepartmentCode: '05',
        })
      },
    })
    base = server.base
    sessionCookie = server.ownerCookie
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
  })

  test('the desk asks for it, the owner picks it, and the page, the timeline and the slip show it', async () => {
    const page = await browser.page()
    await browser.context.addCookies([{ ...sessionCookie, url: base }])
    const errors = collectErrors(page)
    await gotoHydrated(page, `${base}/admin/pedidos/detalle/${orderId}`)

    const customer = page.getByTestId('order-customer')
    expect(await page.getByTestId('order-document').innerText()).toBe('Cédula de ciudadanía 43123456')
    expect(await page.getByTestId('order-department').innerText()).toBe('Antioquia')
    expect(await page.getByTestId('order-typed-city').innerText()).toBe('medellin')
    expect(await page.getByTestId('order-municipality').count()).toBe(0)
    const missing = page.getByTestId('order-municipality-missing')
    expect(plain(await missing.innerText())).toContain(MUNICIPALITY_MESSAGES.missing)
    // The municipality the typed city names comes chosen; the list is Antioquia's.
    const select = page.getByLabel('Municipio (DANE)')
    expect(await select.inputValue()).toBe('05001')
    expect(await select.locator('option').count()).toBe(126)
    await shoot(page, 'municipality-missing')
    expect(await seriousViolations(page)).toEqual([])

    await select.selectOption({ label: 'Envigado (05266)' })
    await page.getByRole('button', { name: 'Guardar municipio' }).click()
    await expectMessage(page, MUNICIPALITY_MESSAGES.saved)
    await expect.poll(() => missing.count()).toBe(0)
    expect(plain(await customer.innerText())).toContain('Municipio Envigado (05266)')
    expect(await page.getByTestId('order-municipality').innerText()).toBe('Envigado (05266)')
    // What the shopper wrote stays, beside the municipality it is not the name of.
    expect(await page.getByTestId('order-typed-city').innerText()).toBe('medellin')
    const entry = page.getByTestId('order-event').and(page.locator('[data-type="municipality-set"]'))
    expect(plain(await entry.innerText())).toContain('Municipio asignado: Envigado, Antioquia (05266).')
    expect(plain(await entry.innerText())).toContain(owner)

    await gotoHydrated(page, `${base}/admin/pedidos/guia/${orderId}`)
    expect(plain(await page.getByTestId('slip-place').innerText())).toBe('Envigado, Antioquia (DANE 05266)')
    expect(errors).toEqual([])
  })
})
