import type { Locator, Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { PHONE, setStoredCart, setupBrowser, storedCart } from './browser.ts'
import { FIXTURES } from './fixtures.ts'

/**
 * A shopper taps as soon as a button is on screen: while the page's scripts are still on their way
 * (held back here), and on a slow phone (the CPU four times slower) whenever the tap lands. Either
 * the form reaches the server or the page handles it: the cart always ends with exactly the units
 * tapped, never none and never twice.
 */
const browser = setupBrowser(PHONE)
const { discounted, shortName } = FIXTURES

type Condition = {
  name: string
  prepare: (page: Page) => Promise<void>
  /** Whether the page's scripts may have run by the end (held back, they must not have). */
  scriptsMayRun: boolean
}

const CONDITIONS: Condition[] = [
  {
    name: 'scripts held back',
    async prepare(page) {
      await page.route(/\/assets\/.+\.js(\?.*)?$/, () => {})
    },
    scriptsMayRun: false,
  },
  {
    name: 'CPU slowed 4×',
    async prepare(page) {
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    },
    scriptsMayRun: true,
  },
]

/** Opens `path` and taps `target` the moment it can be tapped, without waiting for anything else. */
async function tapAtOnce(page: Page, path: string, target: (page: Page) => Locator) {
  await page.goto(path, { waitUntil: 'commit' })
  await target(page).click()
}

let scriptsMayRun = true

/** The cart reaches `expected` and stays there once everything the tap started has finished. */
async function expectCartToSettleAt(page: Page, expected: { sku: string; quantity: number }[]) {
  await expect.poll(() => storedCart(page), { timeout: 15_000 }).toEqual(expected)
  await page.waitForLoadState('load')
  await page.waitForTimeout(300)
  expect(await storedCart(page)).toEqual(expected)
  // Held back, no script ran: the server alone did what the tap asked.
  if (!scriptsMayRun)
    expect(await page.evaluate(() => document.documentElement.dataset.settled)).toBeUndefined()
}

const row = (page: Page, sku: string) => page.locator(`[data-testid="cart-line"][data-sku="${sku}"]`)

describe.each(CONDITIONS)('a tap with $name', (condition) => {
  const prepare = async (page: Page) => {
    scriptsMayRun = condition.scriptsMayRun
    await condition.prepare(page)
  }
  test('"Agregar" on a card', async () => {
    const page = await browser.page()
    await setStoredCart(page, [{ sku: discounted.sku, quantity: 1 }])
    await prepare(page)
    await tapAtOnce(page, `/buscar?q=${encodeURIComponent(shortName.name)}`, (p) =>
      p.getByRole('button', { name: `Agregar ${shortName.name} al carrito` }),
    )
    await expectCartToSettleAt(page, [
      { sku: discounted.sku, quantity: 1 },
      { sku: shortName.sku, quantity: 1 },
    ])
  })

  test('"Agregar al carrito" on the product page', async () => {
    const page = await browser.page()
    await setStoredCart(page, [{ sku: shortName.sku, quantity: 2 }])
    await prepare(page)
    await tapAtOnce(page, `/producto/${shortName.sku}`, (p) =>
      p.getByRole('button', { name: 'Agregar al carrito' }),
    )
    await expectCartToSettleAt(page, [{ sku: shortName.sku, quantity: 3 }])
  })

  test('"COMPRAR AHORA" empties the cart, adds one and opens the checkout', async () => {
    const page = await browser.page()
    await setStoredCart(page, [{ sku: shortName.sku, quantity: 2 }])
    await prepare(page)
    await tapAtOnce(page, `/producto/${discounted.sku}`, (p) =>
      p.getByRole('button', { name: 'COMPRAR AHORA' }),
    )
    await page.waitForURL((url) => url.pathname === '/finalizar-pedido')
    await expectCartToSettleAt(page, [{ sku: discounted.sku, quantity: 1 }])
  })

  test('plus and minus in the cart', async () => {
    const page = await browser.page()
    await setStoredCart(page, [{ sku: shortName.sku, quantity: 2 }])
    await prepare(page)
    await tapAtOnce(page, '/carrito', (p) =>
      row(p, shortName.sku).getByRole('button', { name: 'Aumentar cantidad' }),
    )
    await expectCartToSettleAt(page, [{ sku: shortName.sku, quantity: 3 }])
    await tapAtOnce(page, '/carrito', (p) =>
      row(p, shortName.sku).getByRole('button', { name: 'Disminuir cantidad' }),
    )
    await expectCartToSettleAt(page, [{ sku: shortName.sku, quantity: 2 }])
  })

  test('a quantity typed in the cart and sent with Enter', async () => {
    const page = await browser.page()
    await setStoredCart(page, [{ sku: shortName.sku, quantity: 1 }])
    await prepare(page)
    await page.goto('/carrito', { waitUntil: 'commit' })
    const quantity = row(page, shortName.sku).getByRole('spinbutton')
    await quantity.fill('4')
    await quantity.press('Enter')
    await expectCartToSettleAt(page, [{ sku: shortName.sku, quantity: 4 }])
  })

  test('removing from the cart, after the shopper says yes', async () => {
    const page = await browser.page()
    await setStoredCart(page, [
      { sku: shortName.sku, quantity: 1 },
      { sku: discounted.sku, quantity: 1 },
    ])
    await prepare(page)
    // Asked in a dialog once the scripts run, on the page before that.
    page.on('dialog', (dialog) => void dialog.accept())
    await tapAtOnce(page, '/carrito', (p) => p.getByRole('button', { name: `Eliminar ${shortName.name}` }))
    await expect
      .poll(
        async () => new URL(page.url()).searchParams.has('eliminar') || (await storedCart(page)).length === 1,
      )
      .toBe(true)
    if (new URL(page.url()).searchParams.has('eliminar'))
      await row(page, shortName.sku).getByRole('button', { name: 'Sí, eliminar' }).click()
    await expectCartToSettleAt(page, [{ sku: discounted.sku, quantity: 1 }])
  })

  test('the search box sends its text to the search page', async () => {
    const page = await browser.page()
    await prepare(page)
    await page.goto('/politica-de-datos', { waitUntil: 'commit' })
    const box = page.getByRole('combobox', { name: 'Buscar productos' })
    await box.fill('corazon')
    await box.press('Enter')
    await page.waitForURL((url) => url.pathname === '/buscar' && url.searchParams.get('q') === 'corazon')
    await page.locator(`[data-testid="product-card"][data-sku="${discounted.sku}"]`).waitFor()
  })
})
