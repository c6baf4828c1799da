import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory } from '#tests/factories.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { saveProductForm } from './admin-forms.server.ts'
import { getEditableProduct } from './admin-products.server.ts'
import { getProductDetail } from './catalog.server.ts'
import { media, products } from './schema.ts'
import { PRODUCT_MESSAGES, productFieldsFrom } from './validators.ts'

/**
 * "Empaque para envíos": a product's own weight and measures for carrier quotes and guías, each
 * optional (empty follows the shop's default package), whole numbers within the package bounds.
 */

const t = setupTestDatabase()
const storage = memoryStorage()
const ADMIN = 'duena@vitrina.test'
const reads = () => ({ db: t.db, publicBase: '/media/' })
let categoryId: string

beforeAll(async () => {
  categoryId = (await createCategory(t.db, { id: 'Categoria_1700000000301', name: 'Pulseras' })).id
})

/** The product form as posted, with one new image as main (create) unless told otherwise. */
async function form(fields: Record<string, string> = {}, { image = true } = {}) {
  const data = new FormData()
  data.set('name', 'Pulsera Sol')
  data.set('description', 'Pulsera dorada')
  data.append('categoryIds', categoryId)
  data.set('cost', '10000')
  data.set('level1', '40000')
  data.set('showRetail', 'on')
  if (image) {
    const upload = await pngUpload('sol.png')
    data.append('images', new File([new Uint8Array(upload.bytes)], 'sol.png', { type: 'image/png' }))
    data.set('mainImage', 'nueva:0')
  }
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

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

/** An edit post of `sku` keeping its main image and cost. */
async function editForm(sku: string, fields: Record<string, string>) {
  const [main] = await t.db.select({ id: media.id }).from(media).where(eq(media.productSku, sku))
  return form({ mainImage: `existente:${main!.id}`, loadedCost: '10000', ...fields }, { image: false })
}

const FULL = { weightGrams: '120', lengthCm: '12', widthCm: '9', heightCm: '4' }
const EMPTY = { weightGrams: '', lengthCm: '', widthCm: '', heightCm: '' }

describe('the package fields of the product form', () => {
  test('whole numbers within bounds as numbers; empty is null; no field at all is undefined', async () => {
    const parse = async (fields: Record<string, string>) =>
      productFieldsFrom(await form(fields, { image: false })).data
    expect(await parse({ weightGrams: '1', lengthCm: ' 200 ', widthCm: '15', heightCm: '8' })).toMatchObject({
      weightGrams: 1,
      lengthCm: 200,
      widthCm: 15,
      heightCm: 8,
    })
    expect(await parse({ weightGrams: '50000' })).toMatchObject({ weightGrams: 50_000 })
    expect(await parse({ ...EMPTY, widthCm: '  ' })).toMatchObject({
      weightGrams: null,
      lengthCm: null,
      widthCm: null,
      heightCm: null,
    })
    const without = await parse({})
    expect(without).toBeDefined()
    expect([without?.weightGrams, without?.lengthCm, without?.widthCm, without?.heightCm]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })

  test.each([
    ['weightGrams', '0', 'El peso (g) debe ser un número entero entre 1 y 50.000, o quedar vacío.'],
    ['weightGrams', '50001', 'El peso (g) debe ser un número entero entre 1 y 50.000, o quedar vacío.'],
    ['weightGrams', '12.5', 'El peso (g) debe ser un número entero entre 1 y 50.000, o quedar vacío.'],
    ['lengthCm', '201', 'El largo (cm) debe ser un número entero entre 1 y 200, o quedar vacío.'],
    ['widthCm', '-3', 'El ancho (cm) debe ser un número entero entre 1 y 200, o quedar vacío.'],
    ['heightCm', 'diez', 'El alto (cm) debe ser un número entero entre 1 y 200, o quedar vacío.'],
  ])('%s = %j is refused in Spanish', async (name, value, message) => {
    const parsed = productFieldsFrom(await form({ [name]: value }, { image: false }))
    expect(parsed.error?.issues[0]?.message).toBe(message)
  })
})

describe('saving the package', () => {
  test('create keeps the measures typed, or null for the shop’s default; a refused one writes nothing', async () => {
    const own = await saveProductForm(t.db, storage, await form(FULL), ADMIN)
    expect(await packageOf(own.sku)).toEqual({ weightGrams: 120, lengthCm: 12, widthCm: 9, heightCm: 4 })
    const following = await saveProductForm(t.db, storage, await form(EMPTY), ADMIN)
    expect(await packageOf(following.sku)).toEqual({
      weightGrams: null,
      lengthCm: null,
      widthCm: null,
      heightCm: null,
    })

    const before = (await t.db.select({ sku: products.sku }).from(products)).length
    const refused = await saveProductForm(
      t.db,
      storage,
      await form({ ...FULL, lengthCm: '500' }),
      ADMIN,
    ).catch((thrown: unknown) => thrown)
    expect(refused).toBeInstanceOf(Refusal)
    expect((refused as Refusal).message).toBe(PRODUCT_MESSAGES.packageSize('El largo (cm)', 200))
    expect((await t.db.select({ sku: products.sku }).from(products)).length).toBe(before)
  })

  test('edit: the edit page reads them back; emptied goes back to the default; a form without the fields keeps them', async () => {
    const { sku } = await saveProductForm(t.db, storage, await form(), ADMIN)
    expect(await getEditableProduct(reads(), sku)).toMatchObject({
      weightGrams: null,
      lengthCm: null,
      widthCm: null,
      heightCm: null,
    })

    await saveProductForm(t.db, storage, await editForm(sku, FULL), ADMIN, sku)
    expect(await getEditableProduct(reads(), sku)).toMatchObject({
      weightGrams: 120,
      lengthCm: 12,
      widthCm: 9,
      heightCm: 4,
    })

    // A page older than the fields changes the name, not the package.
    await saveProductForm(t.db, storage, await editForm(sku, { name: 'Pulsera Sol Dorada' }), ADMIN, sku)
    expect(await packageOf(sku)).toEqual({ weightGrams: 120, lengthCm: 12, widthCm: 9, heightCm: 4 })

    const refused = await saveProductForm(
      t.db,
      storage,
      await editForm(sku, { ...FULL, weightGrams: '0' }),
      ADMIN,
      sku,
    ).catch((thrown: unknown) => thrown)
    expect((refused as Refusal).message).toBe(PRODUCT_MESSAGES.packageSize('El peso (g)', 50_000))
    expect(await packageOf(sku)).toEqual({ weightGrams: 120, lengthCm: 12, widthCm: 9, heightCm: 4 })

    await saveProductForm(t.db, storage, await editForm(sku, { ...EMPTY, weightGrams: '80' }), ADMIN, sku)
    expect(await packageOf(sku)).toEqual({ weightGrams: 80, lengthCm: null, widthCm: null, heightCm: null })
  })
})

describe('a personal-use good (no right of withdrawal)', () => {
  test('ticked is kept and read back, unticked clears it, and the product page knows it', async () => {
    const { sku } = await saveProductForm(t.db, storage, await form({ personalUse: 'on' }), ADMIN)
    expect(await getEditableProduct(reads(), sku)).toMatchObject({ personalUse: true })
    expect(await getProductDetail(reads(), sku)).toMatchObject({ personalUse: true })
    await saveProductForm(t.db, storage, await editForm(sku, {}), ADMIN, sku)
    expect(await getEditableProduct(reads(), sku)).toMatchObject({ personalUse: false })
    expect(await getProductDetail(reads(), sku)).toMatchObject({ personalUse: false })
  })
})
