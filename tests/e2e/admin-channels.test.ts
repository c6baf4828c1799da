import type { Page } from 'playwright-core'
import { beforeAll, expect, test } from 'vitest'
import {
  collectErrors,
  gotoHydrated,
  homeSkusInStock,
  PHONE,
  plain,
  seriousViolations,
  setupBrowser,
  startWithCart,
  choosePlace,
} from './browser.ts'
import { signInAsAdmin } from './admin-session.ts'

const browser = setupBrowser()

beforeAll(() => browser.startEachTestWith((page) => signInAsAdmin(page)))

/** A cash-on-delivery order of one unit, placed as a shopper would: its units change, so jobs run. */
async function placeOrder(page: Page): Promise<string> {
  const sku = (await homeSkusInStock(page)).at(-1)!
  await startWithCart(page, [{ sku, quantity: 1 }])
  await gotoHydrated(page, '/finalizar-pedido')
  await page.getByLabel('Nombre', { exact: false }).first().fill('Ana')
  await page.getByLabel('Apellido').fill('Gómez')
  await page.getByLabel('Teléfono (WhatsApp)').fill('3001234567')
  await page.getByLabel('Correo electrónico').fill('ana@example.com')
  await page.getByLabel('Dirección').fill('Calle 10 # 20-30')
  await choosePlace(page, 'Antioquia', 'Medellín')
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
  await page.getByRole('button', { name: 'Confirmar pedido' }).click()
  await page.waitForURL('**/finalizar-pedido/success?pedido=*')
  return sku
}

test('an order changes stock; the sync jobs run and the page shows each channel skipped for that SKU', async () => {
  const sku = await placeOrder(await browser.page())
  const page = await browser.page()
  const errors = collectErrors(page)

  await gotoHydrated(page, '/admin')
  await page.getByTestId('admin-menu').getByRole('link', { name: 'Canales' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/canales')
  for (const channel of ['mercadolibre', 'shopify']) {
    expect(
      plain(await page.getByTestId(`channel-${channel}`).getByTestId('channel-configured').innerText()),
    ).toBe('No configurado')
  }
  expect(await page.getByRole('button', { name: 'Revisar diferencias' }).count()).toBe(0)
  expect(await page.getByRole('button', { name: /Sincronizar todo/ }).count()).toBe(0)

  // The worker records the job's result: searched by SKU, the row reads "Omitido".
  await expect
    .poll(
      async () => {
        await gotoHydrated(page, `/admin/canales?sku=${encodeURIComponent(sku)}`)
        return plain(
          await page
            .getByTestId('sync-list')
            .innerText()
            .catch(() => ''),
        )
      },
      { timeout: 20_000, interval: 500 },
    )
    .toContain('MercadoLibre no está configurado')
  const row = page.getByTestId('sync-row').filter({ hasText: sku })
  expect(plain(await row.getByTestId('sync-status').innerText())).toBe('Omitido')

  await page.getByRole('link', { name: 'Ver sincronizaciones de Shopify' }).click()
  await page.waitForURL((url) => url.searchParams.get('canal') === 'shopify')
  await page.getByLabel('SKU').fill(sku)
  await page.getByRole('button', { name: 'Buscar' }).click()
  await page.waitForURL((url) => url.searchParams.get('sku') === sku)
  await expect.poll(() => page.getByTestId('sync-list').innerText()).toContain('Shopify no está configurado')

  await page.getByLabel('Resultado').selectOption('failed')
  await page.getByRole('button', { name: 'Buscar' }).click()
  await page.getByTestId('syncs-empty').waitFor()
  expect(plain(await page.getByTestId('syncs-empty').innerText())).toBe(
    'Ninguna sincronización coincide con la búsqueda.',
  )
  expect(await seriousViolations(page)).toEqual([])
  expect(errors).toEqual([])
})

test('on a phone the page fits the screen, and a junk query string still shows it', async () => {
  const page = await browser.page(PHONE)
  const response = await gotoHydrated(
    page,
    `/admin/canales?canal=amazon&desde=-3&estado=cualquiera&sku=${'X'.repeat(300)}`,
  )
  expect(response?.status()).toBe(200)
  await page.getByRole('heading', { name: 'Canales', level: 1 }).waitFor()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
})
