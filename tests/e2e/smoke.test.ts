import { expect, test } from 'vitest'
import { baseURL, gotoHydrated, PHONE, setupBrowser } from './browser.ts'

const browser = setupBrowser()

test('the home page shows the best sellers and the first products', async () => {
  const page = await browser.page()
  const response = await gotoHydrated(page, '/')
  expect(response?.status()).toBe(200)
  await expect.poll(() => page.getByTestId('best-sellers').getByTestId('product-card').count()).toBe(4)
  expect(await page.getByTestId('you-may-like').getByTestId('product-card').count()).toBe(16)
})

test('an unknown path is a 404 with a way home', async () => {
  const page = await browser.page(PHONE)
  const response = await gotoHydrated(page, '/no-existe/para-nada')
  expect(response?.status()).toBe(404)
  expect(await page.getByText('Esta página no existe.').isVisible()).toBe(true)
  expect(await page.title()).toBe('Página no encontrada')
  await page.getByRole('link', { name: 'Ir a Inicio' }).click()
  await page.waitForURL((url) => url.pathname === '/')
})

test('the process and the database report ready; every answer names its request', async () => {
  const health = await fetch(`${baseURL()}/healthz`)
  expect(await health.json()).toEqual({ ok: true })
  const ready = await fetch(`${baseURL()}/readyz`)
  expect(ready.status).toBe(200)
  expect(await ready.json()).toEqual({ ok: true })
  const page = await fetch(`${baseURL()}/`)
  expect(page.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
})
