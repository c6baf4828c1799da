import type { Page } from 'playwright-core'
import { describe, expect, inject, test } from 'vitest'
import { categoryPath } from '#app/utils/paths.ts'
import { WEBM_BYTES } from '#tests/media.ts'
import { pngFile, signInAsAdmin } from './admin-session.ts'
import {
  baseURL,
  collectErrors,
  gotoHydrated,
  homeSkusInStock,
  PHONE,
  setupBrowser,
  choosePlace,
} from './browser.ts'
import { FIXTURES } from './fixtures.ts'

/**
 * The Content-Security-Policy as the running shop sends it (the test server has Meta's pixel, no
 * Mercado Pago and no S3), and the shop working under it: every page a shopper, the sign-in and
 * the back office go through, with no violation reported (collectErrors counts them).
 */

const browser = setupBrowser(PHONE, { answeredConsent: false })
const metaOrigin = () => inject('metaStandIn')

function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) map.set(name, values)
  }
  return map
}

describe('the header', () => {
  test('each page gets a new nonce, and every script and style of the page carries it', async () => {
    const seen = new Set<string>()
    for (const path of ['/', '/', `/producto/${FIXTURES.shortName.sku}`, '/carrito', '/login-admin']) {
      const answer = await fetch(`${baseURL()}${path}`)
      expect(answer.status, path).toBe(200)
      const policy = directives(answer.headers.get('content-security-policy'))
      const nonce = policy
        .get('script-src')
        ?.find((source) => source.startsWith("'nonce-"))
        ?.slice(7, -1)
      expect(nonce, path).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(policy.get('style-src'), path).toContain(`'nonce-${nonce}'`)
      seen.add(nonce!)
      const html = await answer.text()
      const elements = [...html.matchAll(/<(script|style)\b([^>]*)>/g)]
      // The route script, React Router's context and the route modules, the scroll restoration, the
      // stylesheet; JSON-LD is data, never run, and needs none.
      const run = elements.filter(([, , attributes]) => !/type="application\/ld\+json"/.test(attributes!))
      expect(run.length, path).toBeGreaterThanOrEqual(3)
      for (const [element, , attributes] of run)
        expect(attributes, `${path}: ${element}`).toContain(`nonce="${nonce}"`)
      // No other page's nonce anywhere (links, which need none, carry an empty one: root.tsx).
      expect(
        [...html.matchAll(/nonce="([^"]+)"/g)].every(([, value]) => value === nonce),
        path,
      ).toBe(true)
    }
    expect(seen.size).toBe(5)
  })

  test('scripts by origin or nonce only, the pixel’s origin (configured), no Mercado Pago nor bucket (not configured)', async () => {
    const answer = await fetch(baseURL())
    const policy = directives(answer.headers.get('content-security-policy'))
    const scripts = policy.get('script-src')!
    expect(scripts).not.toContain("'unsafe-inline'")
    expect(scripts).not.toContain("'unsafe-eval'")
    expect(scripts).toContain(metaOrigin())
    expect(policy.get('connect-src')).toContain(metaOrigin())
    expect(policy.get('frame-ancestors')).toEqual(["'none'"])
    expect(policy.get('form-action')).toEqual(["'self'"])
    expect(policy.get('media-src')).toEqual(["'self'", 'blob:'])
    // A static file has the policy too (an SVG opened on its own runs nothing foreign).
    const favicon = await fetch(`${baseURL()}/favicon.svg`)
    expect(directives(favicon.headers.get('content-security-policy')).get('frame-ancestors')).toEqual([
      "'none'",
    ])
  })
})

async function expectNoErrors(page: Page, errors: string[]) {
  await page.waitForLoadState('networkidle')
  expect(errors).toEqual([])
}

describe('in the browser, no violation', () => {
  test('the storefront: consent, pixel, category, product, search, cart, cash-on-delivery and online checkout', async () => {
    const page = await browser.page()
    const errors = collectErrors(page)
    const pixelScript = page.waitForRequest((request) =>
      request.url().startsWith(`${metaOrigin()}/fbevents.js`),
    )
    await gotoHydrated(page, '/')
    // The consent banner's answer (its script loads on the first click), then Meta's pixel.
    await page.getByRole('button', { name: 'Aceptar todo' }).click()
    await pixelScript
    await page.getByTestId('consent-banner').waitFor({ state: 'hidden' })
    await expectNoErrors(page, errors)

    await gotoHydrated(page, categoryPath(FIXTURES.category))
    await gotoHydrated(page, '/buscar?q=collar')
    // The search box's results panel (loaded when first used).
    await page.getByRole('combobox', { name: 'Buscar productos' }).fill('aretes')
    await page.waitForLoadState('networkidle')
    await expectNoErrors(page, errors)

    const [sku, other] = await homeSkusInStock(page)
    await gotoHydrated(page, `/producto/${sku}`)
    await page.getByRole('button', { name: 'Agregar al carrito' }).click()
    // The toast's stylesheet (sonner's own <style>) goes in with the first toast.
    await page.locator('[data-sonner-toast]').first().waitFor()
    await gotoHydrated(page, '/carrito')
    await page.getByRole('link', { name: 'Finalizar pedido' }).click()
    await page.waitForURL('**/finalizar-pedido')
    await fillCustomer(page)
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.waitForURL('**/finalizar-pedido/success?pedido=*')
    await page.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
    await expectNoErrors(page, errors)

    await gotoHydrated(page, `/producto/${other}`)
    await page.getByRole('button', { name: 'COMPRAR AHORA' }).click()
    await page.waitForURL('**/finalizar-pedido')
    await fillCustomer(page, true)
    await page.getByRole('button', { name: 'Confirmar pedido' }).click()
    await page.waitForURL('**/pago-simulado/**')
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await page.getByRole('button', { name: 'Aprobar pago' }).click()
    await page.waitForURL('**/finalizar-pedido/success?**')
    await page.getByRole('heading', { name: '¡Pago Exitoso!' }).waitFor()
    await expectNoErrors(page, errors)
  })

  test('the product page with its video, and consent refused', async () => {
    const page = await browser.page()
    const errors = collectErrors(page)
    await gotoHydrated(page, `/producto/${inject('catalog').videoSku}`)
    await page.getByRole('button', { name: 'Rechazar todo' }).click()
    await page.getByTestId('consent-banner').waitFor({ state: 'hidden' })
    await expectNoErrors(page, errors)
  })

  test('the sign-in through the local provider and the back office', async () => {
    const page = await browser.page({ width: 1280, height: 900 })
    const errors = collectErrors(page)
    await signInAsAdmin(page)
    await expectNoErrors(page, errors)
    for (const path of [
      '/admin',
      '/admin/productos',
      '/admin/productos/entrada',
      '/admin/pedidos',
      '/admin/ventas',
      '/admin/reportes',
      '/admin/configuraciones',
      '/admin/categorias',
      '/admin/canales',
    ]) {
      await gotoHydrated(page, path)
      await expectNoErrors(page, errors)
    }
    // Chosen files are previewed from blob: URLs, a video as a video.
    await gotoHydrated(page, '/admin/productos/crear')
    await page
      .getByLabel('Imágenes')
      .setInputFiles([
        await pngFile('foto.png', '#c0392b'),
        { name: 'clip.webm', mimeType: 'video/webm', buffer: WEBM_BYTES },
      ])
    const items = page.getByTestId('new-images').locator('li')
    await items.nth(0).locator('img').waitFor()
    expect(
      await items
        .nth(0)
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    ).toBeGreaterThan(0)
    await items.nth(1).getByTestId('new-video-preview').waitFor()
    await expectNoErrors(page, errors)
  })
})

async function fillCustomer(page: Page, online = false) {
  await page.getByLabel('Nombre', { exact: false }).first().fill('Ana')
  await page.getByLabel('Apellido').fill('Gómez')
  await page.getByLabel('Teléfono (WhatsApp)').fill('3001234567')
  await page.getByLabel('Correo electrónico').fill('ana@example.com')
  await page.getByLabel('Dirección').fill('Calle 10 # 20-30')
  await choosePlace(page, 'Antioquia', 'Medellín')
  if (online) await page.getByLabel(/Pago en línea con Mercado Pago/).check()
  await page.getByRole('checkbox', { name: /Autorizo el tratamiento/ }).check()
}
