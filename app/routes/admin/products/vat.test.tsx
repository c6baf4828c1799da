import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { media, products } from '#app/modules/catalog/schema.ts'
import { PRODUCT_MESSAGES } from '#app/modules/catalog/validators.ts'
import { settings } from '#app/modules/settings/schema.ts'
import { adminProductEditPath } from '#app/utils/paths.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { pngUpload } from '#tests/media.ts'
import { signedInAdminRoutes } from '#tests/admin-routes.ts'
import * as createPage from './create.tsx'
import * as editPage from './edit.tsx'
import * as savePage from './save.ts'

/**
 * The product form's "IVA" select through the routes: its first option names the shop's default
 * from "Configuraciones", the edit page shows the saved rate, and the save (with or without
 * JavaScript) keeps it or refuses junk in Spanish.
 */

const BASE = 'http://127.0.0.1:5573'
const t = setupTestDatabase()
const { call, renderPage } = signedInAdminRoutes(BASE, t)
let categoryId: string

beforeAll(async () => {
  categoryId = (await createCategory(t.db, { id: 'Categoria_1700000000201', name: 'Aretes' })).id
})

/** The IVA select as rendered. */
const vatSelect = (html: string) => html.match(/<select id="product-vat"[\s\S]*?<\/select>/)?.[0] ?? ''

const vatOf = async (sku: string) =>
  (await t.db.select({ vat: products.vat }).from(products).where(eq(products.sku, sku)))[0]?.vat

test('create page: "IVA" offers the shop’s default first, named with its rate, then the four rates', async () => {
  const select = vatSelect(await renderPage(createPage as never, '/admin/productos/crear'))
  expect(select).toContain('name="vat"')
  expect(
    [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]),
  ).toEqual([
    ['', 'Según la configuración (19 %)'],
    ['excluded', 'Excluido'],
    ['exempt', 'Exento'],
    ['5', '5 %'],
    ['19', '19 %'],
  ])
  expect(select).toMatch(/<option value="" selected="">/)

  // The owner set 5 % as the default in "Configuraciones": the option says so.
  await t.db.insert(settings).values({ key: 'defaultVat', value: '5' })
  try {
    expect(vatSelect(await renderPage(createPage as never, '/admin/productos/crear'))).toContain(
      'Según la configuración (5 %)',
    )
  } finally {
    await t.db.delete(settings).where(eq(settings.key, 'defaultVat'))
  }
})

test('edit page shows the saved rate; the upload save and the page’s own action keep a new one or refuse junk', async () => {
  const product = await createProduct(t.db, { name: 'Arete Gota', categoryIds: [categoryId], vat: '19' })
  const path = adminProductEditPath(product.sku)
  expect(vatSelect(await renderPage(editPage as never, path, { sku: product.sku }))).toMatch(
    /<option value="19" selected="">19 %<\/option>/,
  )

  const [main] = await t.db.select({ id: media.id }).from(media).where(eq(media.productSku, product.sku))
  const [row] = await t.db.select().from(products).where(eq(products.sku, product.sku))
  const editForm = (vat: string) => {
    const form = new FormData()
    form.set('sku', product.sku)
    form.set('name', row!.name)
    form.set('description', row!.description)
    form.append('categoryIds', categoryId)
    form.set('cost', String(row!.cost / 100))
    form.set('loadedCost', String(row!.cost / 100))
    form.set('level1', String(row!.priceLevel1 / 100))
    form.set('showRetail', 'on')
    form.set('mainImage', `existente:${main!.id}`)
    form.set('vat', vat)
    return form
  }

  // With JavaScript: /admin/productos/guardar answers JSON.
  const saved = (await call(
    savePage.action,
    '/admin/productos/guardar',
    {},
    editForm('excluded'),
  )) as Response
  expect(await saved.json()).toMatchObject({ ok: true, message: PRODUCT_MESSAGES.updated })
  expect(await vatOf(product.sku)).toBe('excluded')
  expect(vatSelect(await renderPage(editPage as never, path, { sku: product.sku }))).toMatch(
    /<option value="excluded" selected="">Excluido<\/option>/,
  )

  const refused = (await call(savePage.action, '/admin/productos/guardar', {}, editForm('16'))) as Response
  expect(refused.status).toBe(422)
  expect(await refused.json()).toMatchObject({ ok: false, message: PRODUCT_MESSAGES.vatInvalid })
  expect(await vatOf(product.sku)).toBe('excluded')

  // Without JavaScript: the edit page's own action.
  expect(await call(editPage.action, path, { sku: product.sku }, editForm(''))).toMatchObject({
    ok: true,
    message: PRODUCT_MESSAGES.updated,
  })
  expect(await vatOf(product.sku)).toBeNull()
  expect(vatSelect(await renderPage(editPage as never, path, { sku: product.sku }))).toMatch(
    /<option value="" selected="">Según la configuración \(19 %\)<\/option>/,
  )
  expect(await call(editPage.action, path, { sku: product.sku }, editForm('veinte'))).toMatchObject({
    ok: false,
    message: PRODUCT_MESSAGES.vatInvalid,
  })
})

test('create without JavaScript keeps the rate chosen', async () => {
  const form = new FormData()
  form.set('name', 'Arete Luna')
  form.set('description', 'Arete en plata')
  form.append('categoryIds', categoryId)
  form.set('level1', '30000')
  form.set('showRetail', 'on')
  const upload = await pngUpload('luna.png')
  form.append('images', new File([new Uint8Array(upload.bytes)], 'luna.png', { type: 'image/png' }))
  form.set('mainImage', 'nueva:0')
  form.set('vat', 'exempt')
  const created = (await call(createPage.action, '/admin/productos/crear', {}, form).catch(
    (thrown: unknown) => thrown,
  )) as Response
  const sku = decodeURIComponent(new URL(created.headers.get('Location')!, BASE).pathname.split('/').pop()!)
  expect(await vatOf(sku)).toBe('exempt')
})
