import { eq, inArray } from 'drizzle-orm'
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
 * The product form's "Empaque para envíos" through the routes: its hint names the shop's default
 * package from "Configuraciones", the edit page shows the saved measures, and the save (with or
 * without JavaScript) keeps them or refuses junk in Spanish.
 */

const BASE = 'http://127.0.0.1:5574'
const t = setupTestDatabase()
const { call, renderPage } = signedInAdminRoutes(BASE, t)
let categoryId: string

beforeAll(async () => {
  categoryId = (await createCategory(t.db, { id: 'Categoria_1700000000401', name: 'Anillos' })).id
})

/** The fieldset as rendered. */
const packageFieldset = (html: string) =>
  html.match(/<fieldset data-testid="product-package"[\s\S]*?<\/fieldset>/)?.[0] ?? ''

/** Each package input's name and shown value. */
const inputs = (fieldset: string) =>
  [...fieldset.matchAll(/<input [^>]*name="(\w+)"[^>]*>/g)].map((m) => [
    m[1],
    m[0].match(/value="([^"]*)"/)?.[1],
  ])

const packageOf = async (sku: string) =>
  (
    await t.db
      .select({
        weightGrams: products.weightGrams,
        lengthCm: products.lengthCm,
        widthCm: products.widthCm,
        heightCm: products.heightCm,
      })
      .from(products)
      .where(eq(products.sku, sku))
  )[0]

test('create page: four empty fields, the hint names the shop’s default package', async () => {
  const fieldset = packageFieldset(await renderPage(createPage as never, '/admin/productos/crear'))
  expect(fieldset).toContain('Empaque para envíos')
  for (const label of ['Peso (g)', 'Largo (cm)', 'Ancho (cm)', 'Alto (cm)']) expect(fieldset).toContain(label)
  expect(inputs(fieldset)).toEqual([
    ['weightGrams', ''],
    ['lengthCm', ''],
    ['widthCm', ''],
    ['heightCm', ''],
  ])
  expect(fieldset).toContain(
    'Un campo vacío usa el paquete por defecto de Configuraciones (300 g, 20 × 15 × 8 cm).',
  )

  // The owner saved another default package: the hint says so.
  const saved = { parcelWeightGrams: 1500, parcelLengthCm: 30, parcelWidthCm: 20, parcelHeightCm: 10 }
  await t.db.insert(settings).values(Object.entries(saved).map(([key, value]) => ({ key, value })))
  try {
    expect(packageFieldset(await renderPage(createPage as never, '/admin/productos/crear'))).toContain(
      '(1.500 g, 30 × 20 × 10 cm)',
    )
  } finally {
    await t.db.delete(settings).where(inArray(settings.key, Object.keys(saved)))
  }
})

test('edit page shows the saved measures; the upload save and the page’s own action keep new ones or refuse junk', async () => {
  const product = await createProduct(t.db, {
    name: 'Anillo Luna',
    categoryIds: [categoryId],
    weightGrams: 40,
    lengthCm: 6,
    widthCm: 6,
    heightCm: 3,
  })
  const path = adminProductEditPath(product.sku)
  expect(inputs(packageFieldset(await renderPage(editPage as never, path, { sku: product.sku })))).toEqual([
    ['weightGrams', '40'],
    ['lengthCm', '6'],
    ['widthCm', '6'],
    ['heightCm', '3'],
  ])

  const [main] = await t.db.select({ id: media.id }).from(media).where(eq(media.productSku, product.sku))
  const [row] = await t.db.select().from(products).where(eq(products.sku, product.sku))
  const editForm = (measures: Record<string, string>) => {
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
    for (const [name, value] of Object.entries(measures)) form.set(name, value)
    return form
  }

  // With JavaScript: /admin/productos/guardar answers JSON.
  const saved = (await call(
    savePage.action,
    '/admin/productos/guardar',
    {},
    editForm({ weightGrams: '250', lengthCm: '10', widthCm: '8', heightCm: '5' }),
  )) as Response
  expect(await saved.json()).toMatchObject({ ok: true, message: PRODUCT_MESSAGES.updated })
  expect(await packageOf(product.sku)).toEqual({ weightGrams: 250, lengthCm: 10, widthCm: 8, heightCm: 5 })
  expect(inputs(packageFieldset(await renderPage(editPage as never, path, { sku: product.sku })))).toEqual([
    ['weightGrams', '250'],
    ['lengthCm', '10'],
    ['widthCm', '8'],
    ['heightCm', '5'],
  ])

  const refused = (await call(
    savePage.action,
    '/admin/productos/guardar',
    {},
    editForm({ heightCm: '250' }),
  )) as Response
  expect(refused.status).toBe(422)
  expect(await refused.json()).toMatchObject({
    ok: false,
    message: 'El alto (cm) debe ser un número entero entre 1 y 200, o quedar vacío.',
  })
  expect(await packageOf(product.sku)).toEqual({ weightGrams: 250, lengthCm: 10, widthCm: 8, heightCm: 5 })

  // Without JavaScript: the edit page's own action; emptied fields follow the shop's default.
  expect(
    await call(
      editPage.action,
      path,
      { sku: product.sku },
      editForm({ weightGrams: '', lengthCm: '', widthCm: '', heightCm: '7' }),
    ),
  ).toMatchObject({ ok: true, message: PRODUCT_MESSAGES.updated })
  expect(await packageOf(product.sku)).toEqual({
    weightGrams: null,
    lengthCm: null,
    widthCm: null,
    heightCm: 7,
  })
  expect(
    await call(editPage.action, path, { sku: product.sku }, editForm({ weightGrams: 'mucho' })),
  ).toMatchObject({
    ok: false,
    message: 'El peso (g) debe ser un número entero entre 1 y 50.000, o quedar vacío.',
  })
})

test('create without JavaScript keeps the measures typed', async () => {
  const form = new FormData()
  form.set('name', 'Anillo Sol')
  form.set('description', 'Anillo en plata')
  form.append('categoryIds', categoryId)
  form.set('level1', '30000')
  form.set('showRetail', 'on')
  const upload = await pngUpload('sol.png')
  form.append('images', new File([new Uint8Array(upload.bytes)], 'sol.png', { type: 'image/png' }))
  form.set('mainImage', 'nueva:0')
  form.set('weightGrams', '35')
  form.set('lengthCm', '')
  const created = (await call(createPage.action, '/admin/productos/crear', {}, form).catch(
    (thrown: unknown) => thrown,
  )) as Response
  const sku = decodeURIComponent(new URL(created.headers.get('Location')!, BASE).pathname.split('/').pop()!)
  expect(await packageOf(sku)).toEqual({ weightGrams: 35, lengthCm: null, widthCm: null, heightCm: null })
})
