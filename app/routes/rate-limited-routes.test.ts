import { beforeAll, expect, test } from 'vitest'
import { categories, products } from '#app/modules/catalog/schema.ts'
import { RATE_LIMITS, type RateLimitName } from '#app/modules/rate-limits/rate-limits.server.ts'
import type { Services } from '#app/services.server.ts'
import { ADMIN_EMAIL, signedInAs, testAuthConfig } from '#tests/auth.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { asAdminRoute, routeContext } from '#tests/routes.ts'
import { testServices } from '#tests/services.ts'
import * as categoryForm from './admin/categories/form.tsx'
import * as createProduct from './admin/products/create.tsx'
import * as editProduct from './admin/products/edit.tsx'
import * as productSave from './admin/products/save.ts'
import * as settingsPage from './admin/settings.tsx'
import * as login from './admin/login.tsx'
import * as searchApi from './api/search.ts'
import * as shippingQuoteApi from './api/shipping-quote.ts'
import * as checkout from './tienda/checkout.tsx'
import * as checkoutResult from './tienda/checkout-result.tsx'
import { RECEIPT_FIELD, UPLOAD_RECEIPT_INTENT } from '#app/modules/payment/transfer.ts'
import { randomUUID } from 'node:crypto'
import * as searchPage from './tienda/search.tsx'

/**
 * Each limited route refuses a client whose allowance is used up with the limit's Spanish message
 * and 429, before doing its work; another client goes on.
 */

const BASE = 'http://127.0.0.1:5581'
const t = setupTestDatabase()
let services: Services
const storage = memoryStorage()
let admin: Awaited<ReturnType<typeof signedInAs>>

beforeAll(async () => {
  const config = testAuthConfig(BASE)
  services = testServices({
    database: t.database,
    auth: config,
    media: { kind: 'local', storage, publicBase: '/media/' },
  })
  admin = await signedInAs(t.db, config, ADMIN_EMAIL)
})

let clientNumber = 0
/** A client of its own whose `name` allowance is used up. */
async function exhaustedClient(name: RateLimitName) {
  const client = `198.18.${Math.floor(++clientNumber / 250)}.${clientNumber % 250}`
  for (let i = 0; i < RATE_LIMITS[name].points; i++) await services.rateLimits.take(name, client)
  return client
}

function args(request: Request, client: string) {
  return { request, url: new URL(request.url), params: {}, context: routeContext(services, client) } as never
}

/** React Router's `data(body, { status })`, thrown or returned, as `{ status, body }`. */
function answerOf(value: unknown) {
  const wrapped = value as { type?: unknown; data?: unknown; init?: ResponseInit | null }
  if (wrapped?.type === 'DataWithResponseInit')
    return { status: wrapped.init?.status ?? 200, body: wrapped.data }
  return { status: 200, body: value }
}

async function settled(run: () => Promise<unknown>) {
  try {
    return answerOf(await run())
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: null }
    return answerOf(thrown)
  }
}

test('checkout: past the allowance the form says the limit’s message, 429, and no order is made', async () => {
  const client = await exhaustedClient('checkout')
  const body = new FormData()
  body.set('name', 'Ana')
  const request = () => new Request(`${BASE}/finalizar-pedido`, { method: 'POST', body })
  const refused = await settled(() => checkout.action(args(request(), client)))
  expect(refused.status).toBe(429)
  expect(refused.body).toMatchObject({ messages: [RATE_LIMITS.checkout.message] })
  const other = await settled(() => checkout.action(args(request(), '198.18.200.1')))
  expect(other.status).not.toBe(429)
})

test('sign-in: past the allowance the press is refused with the Spanish message and 429', async () => {
  const client = await exhaustedClient('signIn')
  const refused = await settled(() =>
    login.action(args(new Request(`${BASE}/login-admin`, { method: 'POST', body: new FormData() }), client)),
  )
  expect(refused).toEqual({ status: 429, body: { message: RATE_LIMITS.signIn.message } })
})

test('search: the page and the suggestions refuse past the allowance; an empty box is not counted', async () => {
  const client = await exhaustedClient('search')
  const page = await settled(() => searchPage.loader(args(new Request(`${BASE}/buscar?q=collar`), client)))
  expect(page).toEqual({ status: 429, body: { message: RATE_LIMITS.search.message } })
  const panel = await settled(() =>
    searchApi.loader(args(new Request(`${BASE}/api/buscar?q=collar`), client)),
  )
  expect(panel).toEqual({
    status: 429,
    body: { query: 'collar', items: [], message: RATE_LIMITS.search.message },
  })
  const empty = await settled(() => searchPage.loader(args(new Request(`${BASE}/buscar`), client)))
  expect(empty.status).toBe(200)
  const other = await settled(() =>
    searchApi.loader(args(new Request(`${BASE}/api/buscar?q=collar`), '198.18.200.2')),
  )
  expect(other.status).toBe(200)
})

test('shipping quotes: past the allowance the checkout summary’s quote is refused, 429, nothing asked', async () => {
  const client = await exhaustedClient('shippingQuote')
  const quote = (from: string) =>
    settled(() => shippingQuoteApi.loader(args(new Request(`${BASE}/api/envio?municipio=05001`), from)))
  expect(await quote(client)).toEqual({
    status: 429,
    body: { shipping: null, note: null, message: RATE_LIMITS.shippingQuote.message },
  })
  expect((await quote('198.18.200.3')).status).toBe(200)
})

test('uploads: past the allowance a product post with images is refused before they are decoded; nothing written', async () => {
  const client = await exhaustedClient('upload')
  const body = new FormData()
  body.set('csrf', admin.csrfToken)
  body.set('name', 'Collar limitado')
  const png = await pngUpload()
  body.append('images', new File([new Uint8Array(png.bytes)], png.name, { type: 'image/png' }))
  const request = new Request(`${BASE}/admin/productos/guardar`, {
    method: 'POST',
    body,
    // As the product form's upload (product-upload.ts) asks: its refusals come back as JSON.
    headers: { Cookie: admin.cookie, Origin: BASE, Accept: 'application/json' },
  })
  const answer = (await asAdminRoute(productSave.action, args(request, client))) as Response
  expect(answer.status).toBe(429)
  expect(await answer.json()).toEqual({ ok: false, message: RATE_LIMITS.upload.message })
  expect(await t.db.select().from(products)).toEqual([])
  expect(storage.files.size).toBe(0)
})

test('uploads: a save without a file (an empty file input) is not counted, past the allowance too', async () => {
  const client = await exhaustedClient('upload')
  const post = (path: string, fields: Record<string, string>, fileField: string) => {
    const body = new FormData()
    body.set('csrf', admin.csrfToken)
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    // What a browser sends for a file input with nothing chosen.
    body.append(fileField, new File([], '', { type: 'application/octet-stream' }))
    return new Request(`${BASE}${path}`, {
      method: 'POST',
      body,
      headers: { Cookie: admin.cookie, Origin: BASE },
    })
  }
  const category = await settled(() =>
    asAdminRoute(
      categoryForm.action,
      args(post('/admin/categorias/crear', { name: 'Pulseras' }, 'image'), client),
    ),
  )
  expect(category.status).not.toBe(429)
  expect((await t.db.select().from(categories)).map((row) => row.name)).toContain('Pulseras')
  // The product form goes on to its own check (a new product needs an image), not the limit.
  const product = (await asAdminRoute(
    productSave.action,
    args(post('/admin/productos/guardar', { name: 'Collar sin foto' }, 'images'), client),
  )) as Response
  expect(product.status).not.toBe(429)
  expect((await product.json()).message).not.toBe(RATE_LIMITS.upload.message)
})

test('uploads: every back-office form that carries a file is counted, the no-JavaScript product forms and banners too', async () => {
  const client = await exhaustedClient('upload')
  const png = await pngUpload()
  const withImage = (path: string, fileField: string, fields: Record<string, string> = {}) => {
    const body = new FormData()
    body.set('csrf', admin.csrfToken)
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    body.append(fileField, new File([new Uint8Array(png.bytes)], png.name, { type: 'image/png' }))
    return new Request(`${BASE}${path}`, {
      method: 'POST',
      body,
      headers: { Cookie: admin.cookie, Origin: BASE },
    })
  }
  const posts = [
    [createProduct.action, withImage('/admin/productos/crear', 'images', { name: 'Collar sin contar' })],
    [editProduct.action, withImage('/admin/productos/editar/NO-EXISTE', 'images', { name: 'Otro' })],
    [categoryForm.action, withImage('/admin/categorias/crear', 'image', { name: 'Aretes' })],
    [settingsPage.action, withImage('/admin/configuraciones', 'desktop', { intent: 'banner-crear' })],
  ] as [(args: never) => unknown, Request][]
  for (const [action, request] of posts) {
    // A page's form is refused before its action runs, as a 4xx its error boundary words.
    const refused = await settled(() => asAdminRoute(action, args(request, client)))
    expect(refused, new URL(request.url).pathname).toEqual({
      status: 429,
      body: { message: RATE_LIMITS.upload.message },
    })
  }
  expect(await t.db.select().from(products)).toEqual([])
  expect((await t.db.select().from(categories)).map((row) => row.name)).not.toContain('Aretes')
  expect(storage.files.size).toBe(0)
})

test('transfer receipts: past the allowance an upload is refused before its file is decoded, 429', async () => {
  const client = await exhaustedClient('receiptUpload')
  const upload = () => {
    const body = new FormData()
    body.set('intent', UPLOAD_RECEIPT_INTENT)
    body.set('pedido', randomUUID())
    body.append(RECEIPT_FIELD, new File([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d])], 'pago.pdf'))
    return new Request(`${BASE}/finalizar-pedido/success`, { method: 'POST', body })
  }
  const refused = await settled(() => checkoutResult.action(args(upload(), client)))
  expect(refused).toMatchObject({ status: 429, body: { message: RATE_LIMITS.receiptUpload.message } })
  const other = await settled(() => checkoutResult.action(args(upload(), '198.18.200.4')))
  expect(other.status).not.toBe(429)
})
