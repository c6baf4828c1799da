import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { saveProductForm } from './admin-forms.server.ts'
import { getEditableProduct } from './admin-products.server.ts'
import { productVatOf } from './product-vat.server.ts'
import { media, products } from './schema.ts'
import { PRODUCT_MESSAGES, productFieldsFrom } from './validators.ts'

/**
 * The product's IVA (for the DIAN invoices): chosen in the product form, null meaning "the shop's
 * default", and read by SKU for the invoice lines.
 */

const t = setupTestDatabase()
const storage = memoryStorage()
const ADMIN = 'duena@vitrina.test'
let categoryId: string

beforeAll(async () => {
  categoryId = (await createCategory(t.db, { id: 'Categoria_1700000000101', name: 'Collares' })).id
})

/** The product form as posted, with one new image as main (create) unless told otherwise. */
async function form(fields: Record<string, string | File> = {}, { image = true } = {}) {
  const data = new FormData()
  data.set('name', 'Collar Sol')
  data.set('description', 'Collar dorado')
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

const vatOf = async (sku: string) =>
  (await t.db.select({ vat: products.vat }).from(products).where(eq(products.sku, sku)))[0]?.vat

/** An edit post of `sku` keeping its main image and cost. */
async function editForm(sku: string, fields: Record<string, string>) {
  const [main] = await t.db.select({ id: media.id }).from(media).where(eq(media.productSku, sku))
  return form({ mainImage: `existente:${main!.id}`, loadedCost: '10000', ...fields }, { image: false })
}

describe('the IVA field of the product form', () => {
  test('"Según la configuración" (empty) is null; each rate as itself; no field at all is left undefined', async () => {
    const parse = async (vat?: string) => {
      const data = await form({}, { image: false })
      if (vat !== undefined) data.set('vat', vat)
      return productFieldsFrom(data)
    }
    expect((await parse('')).data?.vat).toBeNull()
    for (const rate of ['excluded', 'exempt', '5', '19'] as const) {
      expect((await parse(rate)).data?.vat).toBe(rate)
    }
    const without = await parse()
    expect(without.success).toBe(true)
    expect(without.data?.vat).toBeUndefined()
  })

  test('anything else is refused with a Spanish message', async () => {
    for (const junk of ['16', 'EXCLUDED', '19 %', 'null', ' 5']) {
      const data = await form({ vat: junk }, { image: false })
      expect(productFieldsFrom(data).error?.issues[0]?.message, junk).toBe(PRODUCT_MESSAGES.vatInvalid)
    }
    const file = await form({ vat: new File(['19'], 'iva.txt') }, { image: false })
    expect(productFieldsFrom(file).error?.issues[0]?.message).toBe(PRODUCT_MESSAGES.vatInvalid)
    expect(PRODUCT_MESSAGES.vatInvalid).toBe('Elige el IVA del producto entre las opciones de la lista.')
  })
})

describe('saving the IVA', () => {
  test('create keeps the chosen rate, or null when it follows the shop; a refused rate writes nothing', async () => {
    const taxed = await saveProductForm(t.db, storage, await form({ vat: '5' }), ADMIN)
    expect(await vatOf(taxed.sku)).toBe('5')
    const following = await saveProductForm(t.db, storage, await form({ vat: '' }), ADMIN)
    expect(await vatOf(following.sku)).toBeNull()
    // A post without the field (a page loaded before it existed) follows the shop too.
    const older = await saveProductForm(t.db, storage, await form(), ADMIN)
    expect(await vatOf(older.sku)).toBeNull()

    const before = (await t.db.select({ sku: products.sku }).from(products)).length
    const refused = await saveProductForm(t.db, storage, await form({ vat: '16' }), ADMIN).catch(
      (thrown: unknown) => thrown,
    )
    expect(refused).toBeInstanceOf(Refusal)
    expect((refused as Refusal).message).toBe(PRODUCT_MESSAGES.vatInvalid)
    expect((await t.db.select({ sku: products.sku }).from(products)).length).toBe(before)
  })

  test('edit: 19 %, then Excluido, then back to the shop’s; the edit page shows each; a form without the field keeps it', async () => {
    const { sku } = await saveProductForm(t.db, storage, await form(), ADMIN)
    expect((await getEditableProduct({ db: t.db, publicBase: '/media/' }, sku))?.vat).toBeNull()

    await saveProductForm(t.db, storage, await editForm(sku, { vat: '19' }), ADMIN, sku)
    expect(await vatOf(sku)).toBe('19')
    expect((await getEditableProduct({ db: t.db, publicBase: '/media/' }, sku))?.vat).toBe('19')

    await saveProductForm(t.db, storage, await editForm(sku, { vat: 'excluded' }), ADMIN, sku)
    expect((await getEditableProduct({ db: t.db, publicBase: '/media/' }, sku))?.vat).toBe('excluded')

    // An edit from a page older than the field changes the name, not the IVA.
    await saveProductForm(t.db, storage, await editForm(sku, { name: 'Collar Sol Dorado' }), ADMIN, sku)
    expect(await vatOf(sku)).toBe('excluded')

    const refused = await saveProductForm(t.db, storage, await editForm(sku, { vat: '0' }), ADMIN, sku).catch(
      (thrown: unknown) => thrown,
    )
    expect((refused as Refusal).message).toBe(PRODUCT_MESSAGES.vatInvalid)
    expect(await vatOf(sku)).toBe('excluded')

    await saveProductForm(t.db, storage, await editForm(sku, { vat: '' }), ADMIN, sku)
    expect(await vatOf(sku)).toBeNull()
  })

  test('the column takes only the four rates or null', async () => {
    const product = await createProduct(t.db, { vat: 'exempt' })
    expect(await vatOf(product.sku)).toBe('exempt')
    await expect(
      t.db.execute(sql`update products set vat = '16' where sku = ${product.sku}`),
    ).rejects.toThrow()
    expect(await vatOf(product.sku)).toBe('exempt')
  })
})

describe('productVatOf (for the invoice lines)', () => {
  test('each SKU’s own rate or null (the shop’s default); unknown SKUs are absent', async () => {
    const excluded = await createProduct(t.db, { vat: 'excluded' })
    const nineteen = await createProduct(t.db, { vat: '19' })
    const following = await createProduct(t.db)
    const vats = await productVatOf(t.db, [
      excluded.sku,
      nineteen.sku,
      following.sku,
      nineteen.sku,
      'NO-EXISTE-1',
      'CON\u0000NUL',
    ])
    expect(vats).toEqual(
      new Map([
        [excluded.sku, 'excluded'],
        [nineteen.sku, '19'],
        [following.sku, null],
      ]),
    )
    expect(vats.has('NO-EXISTE-1')).toBe(false)
    expect(await productVatOf(t.db, [])).toEqual(new Map())
    // In the caller's transaction too.
    await t.db.transaction(async (tx) => {
      await tx.update(products).set({ vat: '5' }).where(eq(products.sku, following.sku))
      expect((await productVatOf(tx, [following.sku])).get(following.sku)).toBe('5')
    })
  })
})
