import type { BrowserContext, Page, Route } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import {
  baseURL,
  declinedConsentCookie,
  DESKTOP,
  gotoHydrated,
  homeSkusInStock,
  PHONE,
  setStoredCart,
  setupBrowser,
  storedCart,
  choosePlace,
} from './browser.ts'

const browser = setupBrowser(PHONE)

/** A separate Chromium with JavaScript off (a phone that has not run the page's scripts yet). */
async function withoutJavaScript(
  cookies: Awaited<ReturnType<BrowserContext['cookies']>>,
  run: (page: Page, context: BrowserContext) => Promise<void>,
) {
  const { chromium } = await import('playwright-core')
  const noJs = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  try {
    const context = await noJs.newContext({ javaScriptEnabled: false, baseURL: baseURL() })
    await context.addCookies([declinedConsentCookie(), ...cookies])
    await run(await context.newPage(), context)
  } finally {
    await noJs.close()
  }
}

let used = 0
/** A different in-stock product for each order, so tests do not exhaust each other's stock. */
async function nextSku(page: Page) {
  const skus = await homeSkusInStock(page)
  const sku = skus[used++ % skus.length]
  if (!sku) throw new Error('No quedan productos con stock en la tienda de pruebas')
  return sku
}

async function fillCustomer(page: Page, method: 'acordar' | 'mercadopago' = 'acordar') {
  await page.getByLabel('Nombre', { exact: false }).first().fill('Ana')
  await page.getByLabel('Apellido').fill('Gómez')
  await page.getByLabel('Teléfono (WhatsApp)').fill('3001234567')
  await page.getByLabel('Correo electrónico').fill('ana@example.com')
  await page.getByLabel('Dirección').fill('Calle 10 # 20-30')
  await choosePlace(page, 'Antioquia', 'Medellín')
  if (method === 'mercadopago') await page.getByLabel(/Pago en línea con Mercado Pago/).check()
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
}

async function placeOnlineOrder(page: Page) {
  const sku = await nextSku(page)
  await gotoHydrated(page, `/producto/${sku}`)
  await page.getByRole('button', { name: 'COMPRAR AHORA' }).click()
  await page.waitForURL('**/finalizar-pedido')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await fillCustomer(page, 'mercadopago')
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
  await page.waitForURL('**/pago-simulado/**')
  return sku
}

async function available(page: Page, sku: string) {
  const response = await page.request.get(`/api/carrito?skus=${encodeURIComponent(sku)}`)
  return ((await response.json()) as { products: { available: number }[] }).products[0]?.available ?? 0
}

describe.each([
  { name: 'phone', viewport: PHONE },
  { name: 'desktop', viewport: DESKTOP },
])('cash on delivery ($name)', ({ viewport }) => {
  test('from the product page to the success page, which empties the cart', async () => {
    const page = await browser.page(viewport)
    const sku = await nextSku(page)
    const before = await available(page, sku)
    await gotoHydrated(page, `/producto/${sku}`)
    await page.getByRole('button', { name: 'Agregar al carrito' }).click()
    await gotoHydrated(page, '/carrito')
    await page.getByRole('link', { name: 'Finalizar pedido' }).click()
    await page.waitForURL('**/finalizar-pedido')
    await expect.poll(() => page.getByTestId('checkout-summary').innerText()).toContain('× 1')
    await fillCustomer(page)
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.waitForURL('**/finalizar-pedido/success?pedido=*')
    await page.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
    expect(Number(await page.getByTestId('order-number').innerText())).toBeGreaterThanOrEqual(1001)
    expect(await page.getByTestId('order-status').innerText()).toBe('pendiente de pago')
    await expect
      .poll(() => page.locator('[data-sonner-toast]').allInnerTexts())
      .toContain('Pedido realizado con éxito.')
    await expect.poll(() => storedCart(page)).toEqual([])
    expect(await page.getByTestId('cart-count').innerText()).toBe('0')
    expect(await available(page, sku)).toBe(before - 1)
    await page.getByRole('link', { name: 'Volver a la tienda' }).click()
    await page.waitForURL((url) => url.pathname === '/')
  })
})

describe('Mercado Pago through the simulated payment page', () => {
  test('approve: back on the success page and the order becomes "pagado"', async () => {
    const page = await browser.page()
    await placeOnlineOrder(page)
    await page.getByRole('heading', { name: 'Pago simulado' }).waitFor()
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    // An impatient double click still records one payment (the button waits, the server checks).
    await page.getByRole('button', { name: 'Aprobar pago' }).dblclick()
    await page.waitForURL('**/finalizar-pedido/success?**')
    expect(new URL(page.url()).searchParams.get('status')).toBe('approved')
    await page.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
    // Until the notice (a job) has been processed the page says the payment is being confirmed,
    // never "pendiente de pago", and it updates in place once it has: no reload here.
    expect(await page.getByTestId('order-status').innerText()).not.toBe('pendiente de pago')
    await expect
      .poll(() => page.getByTestId('order-status').innerText(), { timeout: 20_000, interval: 500 })
      .toBe('pagado')
    expect(await page.getByTestId('payment-confirming').count()).toBe(0)
  })

  test('pending: "Pago Pendiente" and the order stays pending', async () => {
    const page = await browser.page()
    await placeOnlineOrder(page)
    await page.getByRole('button', { name: 'Dejar pendiente' }).click()
    await page.waitForURL('**/finalizar-pedido/pending?**')
    await page.getByRole('heading', { name: 'Pago Pendiente' }).waitFor()
    expect(await page.getByTestId('order-status').innerText()).toBe('pendiente de pago')
  })

  test('reject: "¡Error en el Pago!" with a way to pay again, which works', async () => {
    const page = await browser.page()
    const sku = await placeOnlineOrder(page)
    const reserved = await available(page, sku)
    await page.getByRole('button', { name: 'Rechazar pago' }).click()
    await page.waitForURL('**/finalizar-pedido/failure?**')
    await page.getByRole('heading', { name: '¡Error en el Pago!' }).waitFor()
    expect(await page.getByTestId('order-status').innerText()).toBe('pendiente de pago')
    // The units stay reserved for the retry.
    expect(await available(page, sku)).toBe(reserved)
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await page.getByRole('button', { name: 'Intentar pagar de nuevo' }).click()
    await page.waitForURL('**/pago-simulado/**')
    await page.getByRole('button', { name: 'Aprobar pago' }).click()
    await page.waitForURL('**/finalizar-pedido/success?**')
  })
})

describe('a checkout post that gets no answer', () => {
  test.each([
    { lost: 'never reaches the server', held: 0, answer: (route: Route) => route.abort('connectionreset') },
    {
      lost: 'makes the order but its answer is lost',
      held: 1,
      answer: async (route: Route) => {
        await route.fetch({ maxRedirects: 0 })
        await route.abort('connectionreset')
      },
    },
  ])(
    'one that $lost keeps the form as typed; sent again, it makes exactly one order',
    async ({ answer, held }) => {
      const page = await browser.page()
      const sku = await nextSku(page)
      const before = await available(page, sku)
      await setStoredCart(page, [{ sku, quantity: 1 }])
      await gotoHydrated(page, '/finalizar-pedido')
      await fillCustomer(page)
      await page.route(/\/finalizar-pedido\.data/, answer, { times: 1 })
      await page.getByRole('button', { name: 'Confirmar pedido' }).click()
      await page.getByTestId('checkout-errors').waitFor()
      expect(await page.getByTestId('checkout-errors').innerText()).toBe(
        'No hay respuesta del servidor, intente más tarde o comuníquese con servicio al cliente',
      )
      expect(await page.getByLabel('Apellido').inputValue()).toBe('Gómez')
      expect(await page.getByLabel('Dirección').inputValue()).toBe('Calle 10 # 20-30')
      expect(await page.getByLabel('Departamento').inputValue()).toBe('Antioquia')
      expect(await page.getByRole('link', { name: 'Ir a Inicio' }).count()).toBe(0)
      expect(await available(page, sku)).toBe(before - held)

      await page.getByRole('button', { name: 'Confirmar pedido' }).click()
      await page.waitForURL('**/finalizar-pedido/success?pedido=*')
      await page.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
      expect(await available(page, sku)).toBe(before - 1)
    },
  )
})

describe('validation messages (spec §5, §8)', () => {
  async function submitWith(page: Page, lines: { sku: string; quantity: number }[], fill = true) {
    await gotoHydrated(page, '/')
    await setStoredCart(page, lines)
    await gotoHydrated(page, '/finalizar-pedido')
    if (fill) await fillCustomer(page)
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.getByTestId('checkout-errors').waitFor()
    return page.getByTestId('checkout-errors').innerText()
  }

  test('an empty cart', async () => {
    const page = await browser.page()
    expect(await submitWith(page, [])).toBe('Debe tener al menos un producto')
  })

  test('missing required fields, and what was typed is kept', async () => {
    const page = await browser.page()
    const sku = await nextSku(page)
    await gotoHydrated(page, '/')
    await setStoredCart(page, [{ sku, quantity: 1 }])
    await gotoHydrated(page, '/finalizar-pedido')
    await page.getByLabel('Apellido').fill('Gómez')
    await choosePlace(page, 'Valle del Cauca', 'Santiago de Cali')
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.getByTestId('checkout-errors').waitFor()
    expect(await page.getByTestId('checkout-errors').innerText()).toBe('Por favor complete todos los campos.')
    expect(await page.getByLabel('Apellido').inputValue()).toBe('Gómez')
    expect(await page.getByRole('combobox', { name: 'Municipio', exact: true }).inputValue()).toBe('76001')
    await expect
      .poll(() => page.locator('[data-sonner-toast]').allInnerTexts())
      .toContain('Por favor complete todos los campos.')
  })

  test('a quantity of 0', async () => {
    const page = await browser.page()
    const sku = await nextSku(page)
    expect(await submitWith(page, [{ sku, quantity: 0 }])).toBe(
      'Hay productos con cantidad igual a 0. Por favor, revisa tu carrito.',
    )
  })

  test('more units than in stock', async () => {
    const page = await browser.page()
    const sku = await nextSku(page)
    expect(await submitWith(page, [{ sku, quantity: 9999 }])).toBe(
      'Hay productos con cantidades superiores al stock.',
    )
  })

  test('phone, e-mail and consent are checked', async () => {
    const page = await browser.page()
    const sku = await nextSku(page)
    await gotoHydrated(page, '/')
    await setStoredCart(page, [{ sku, quantity: 1 }])
    await gotoHydrated(page, '/finalizar-pedido')
    await fillCustomer(page)
    await page.getByLabel('Teléfono (WhatsApp)').fill('123')
    await page.getByLabel('Correo electrónico').fill('ana@')
    await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).uncheck()
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.getByText('Ingresa un teléfono válido de 10 dígitos, por ejemplo 3001234567.').waitFor()
    expect(await page.getByText('Ingresa un correo electrónico válido.').isVisible()).toBe(true)
    expect(
      await page
        .getByText('Debes aceptar la política de tratamiento de datos personales para continuar.')
        .isVisible(),
    ).toBe(true)
  })

  test('without JavaScript the form still answers and keeps what was typed', async () => {
    await withoutJavaScript([], async (page) => {
      await page.goto('/finalizar-pedido')
      await page.getByLabel('Apellido').fill('Pérez')
      await page.getByRole('button', { name: 'Confirmar pedido' }).click()
      await page.getByTestId('checkout-errors').waitFor()
      expect(await page.getByTestId('checkout-errors').innerText()).toBe('Debe tener al menos un producto')
      expect(await page.getByLabel('Apellido').inputValue()).toBe('Pérez')
    })
  })
})

test('a checkout sent without JavaScript places the order from the cart cookie a JS page left', async () => {
  // A page with JavaScript fills the cart, which the cart store keeps in a small cookie.
  const page = await browser.page()
  const sku = await nextSku(page)
  const before = await available(page, sku)
  await setStoredCart(page, [])
  await gotoHydrated(page, `/producto/${sku}`)
  await page.getByRole('button', { name: 'Agregar al carrito' }).click()
  await expect
    .poll(async () => (await browser.context.cookies()).find((c) => c.name === 'vitrina_carrito')?.value)
    .toBe(`${encodeURIComponent(sku)}:1`)
  const cookies = (await browser.context.cookies()).filter((c) => c.name === 'vitrina_carrito')

  // The same shopper on a phone that has not run the JavaScript (yet): the server draws the cart.
  await withoutJavaScript(cookies, async (noJsPage, context) => {
    await noJsPage.goto('/finalizar-pedido')
    expect(await noJsPage.getByTestId('checkout-summary').innerText()).toContain('× 1')
    expect(JSON.parse(await noJsPage.locator('input[name="cart"]').inputValue())).toEqual([
      { sku, quantity: 1 },
    ])
    await fillCustomer(noJsPage)
    await noJsPage.getByRole('button', { name: 'Confirmar pedido' }).click()
    await noJsPage.waitForURL('**/finalizar-pedido/success?pedido=*')
    await noJsPage.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
    expect(Number(await noJsPage.getByTestId('order-number').innerText())).toBeGreaterThanOrEqual(1001)
    expect(await available(page, sku)).toBe(before - 1)
    // Those lines are an order now: the cart is empty.
    expect((await context.cookies()).find((c) => c.name === 'vitrina_carrito')).toBeUndefined()
  })
})

test('without JavaScript, Mercado Pago too: the form goes to its (simulated) page, and approving pays', async () => {
  const page = await browser.page()
  const sku = await nextSku(page)
  await setStoredCart(page, [{ sku, quantity: 1 }])
  const cookies = (await browser.context.cookies()).filter((c) => c.name === 'vitrina_carrito')
  await withoutJavaScript(cookies, async (noJsPage) => {
    await noJsPage.goto('/finalizar-pedido')
    await fillCustomer(noJsPage, 'mercadopago')
    await noJsPage.getByRole('button', { name: 'Confirmar pedido' }).click()
    await noJsPage.waitForURL('**/pago-simulado/**')
    await noJsPage.getByRole('button', { name: 'Aprobar pago' }).click()
    await noJsPage.waitForURL('**/finalizar-pedido/success?**')
    await noJsPage.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
    // Without scripts nothing polls: the page as drawn says paid or confirming, never "pendiente".
    expect(await noJsPage.getByTestId('order-status').innerText()).not.toBe('pendiente de pago')
  })
})

test('an oversized or unreadable checkout post gets a clear answer, not a server error', async () => {
  const page = await browser.page()
  const huge = await page.request.post('/finalizar-pedido', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: `name=${'a'.repeat(100 * 1024)}`,
  })
  expect(huge.status()).toBe(413)
  expect(await huge.text()).toBe('La solicitud es demasiado grande.')
  const junk = await page.request.post('/finalizar-pedido', {
    headers: { 'content-type': 'multipart/form-data; boundary=nada' },
    data: 'esto no es un formulario',
  })
  expect(junk.status()).toBe(400)
})

test('the data policy page is linked from the consent checkbox', async () => {
  const page = await browser.page()
  const response = await page.goto('/politica-de-datos')
  expect(response?.status()).toBe(200)
  expect(
    await page.getByRole('heading', { name: 'Política de tratamiento de datos personales' }).isVisible(),
  ).toBe(true)
})
