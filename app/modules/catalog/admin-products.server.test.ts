import { asc, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { recordEntry, StockRefused } from '#app/modules/inventory/movement.server.ts'
import { STOCK_MESSAGES } from '#app/modules/inventory/validators.ts'
import { productLocations, stockMovements } from '#app/modules/inventory/schema.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { orderItems } from '#app/modules/order/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createCategory, createOrder, createProduct as createFixtureProduct } from '#tests/factories.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import { productFields, productInput } from '#tests/product-form.ts'
import {
  createProduct,
  deleteProduct,
  getEditableProduct,
  updateProduct,
  type CreateProductInput,
} from './admin-products.server.ts'
import { getProductDetail, searchProducts } from './catalog.server.ts'
import { media, productCategories, products } from './schema.ts'
import { PRODUCT_MESSAGES, productFieldsFrom, type ProductFields } from './validators.ts'

const t = setupTestDatabase()
let categoryA: string
let categoryB: string

beforeAll(async () => {
  categoryA = (await createCategory(t.db, { id: 'Categoria_1700000000001', name: 'Collares' })).id
  categoryB = (await createCategory(t.db, { id: 'Categoria_1700000000002', name: 'Aretes' })).id
})

const fields = (overrides: Partial<ProductFields> = {}) => productFields(categoryA, overrides)
const input = (overrides: Partial<CreateProductInput> = {}) => productInput(categoryA, overrides)

const count = async (table: typeof products | typeof media) => (await t.db.select().from(table)).length

describe('form fields', () => {
  test('spec §5 messages for missing name, description or category', () => {
    const form = new FormData()
    form.set('name', '  ')
    form.set('description', 'algo')
    form.append('categoryIds', categoryA)
    const parsed = productFieldsFrom(form)
    expect(parsed.success).toBe(false)
    expect(parsed.error!.issues[0]!.message).toBe(PRODUCT_MESSAGES.required)
    const noCategory = new FormData()
    noCategory.set('name', 'Anillo')
    noCategory.set('description', 'Plata')
    expect(productFieldsFrom(noCategory).error!.issues[0]!.message).toBe(PRODUCT_MESSAGES.required)
  })

  test('cost defaults to 0; numbers must not be negative', () => {
    const form = new FormData()
    form.set('name', 'Anillo')
    form.set('description', 'Plata')
    form.append('categoryIds', categoryA)
    form.set('level1', '1000')
    expect(productFieldsFrom(form).data!.cost).toBe(0)
    form.set('cost', '-1')
    expect(productFieldsFrom(form).error!.issues[0]!.message).toBe('El costo no puede ser negativo.')
  })
})

describe('create', () => {
  test('creates product, categories and media in one go, with a spec §9 sku and zero stock', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input())
    expect(sku).toMatch(/^COL-CAT-[A-Z0-9]{8}$/)
    const [row] = await t.db.select().from(products).where(eq(products.sku, sku))
    expect(row).toMatchObject({
      name: 'Collar Luna',
      searchName: 'collar luna',
      cost: 12_000_00,
      priceLevel1: 45_000_50,
      priceLevel2: 36_000_40,
      priceLevel3: 31_500_35,
      priceLevel4: 27_000_30,
      priceLevel5: 18_000_20,
      discountPercent: 10,
      stock: 0,
      unitsIn: 0,
      unitsOut: 0,
      showWholesale: true,
      showRetail: true,
      purchaseLink: 'https://proveedor.example/luna',
      supplierInfo: 'Proveedor Medellín',
    })
    const files = await t.db
      .select()
      .from(media)
      .where(eq(media.productSku, sku))
      .orderBy(asc(media.position))
    expect(files.map((f) => f.isMain)).toEqual([false, true])
    for (const file of files) for (const v of file.variants) expect(storage.files.has(v.path)).toBe(true)
    const cats = await t.db.select().from(productCategories).where(eq(productCategories.productSku, sku))
    expect(cats.map((c) => c.categoryId)).toEqual([categoryA])
  })

  test('a typed level 5 replaces the computed 40 %', async () => {
    const { sku } = await createProduct(
      t.db,
      memoryStorage(),
      await input({ fields: fields({ level5: 15000 }) }),
    )
    const [row] = await t.db.select().from(products).where(eq(products.sku, sku))
    expect(row!.priceLevel5).toBe(15_000_00)
  })

  test('retries the sku on a collision', async () => {
    const storage = memoryStorage()
    const first = await createProduct(t.db, storage, await input(), () => 0)
    // The first 8 draws repeat the taken sku; the retry draws another.
    let draws = 0
    const second = await createProduct(t.db, storage, await input(), () => (++draws <= 8 ? 0 : 0.5))
    expect(first.sku).toBe('COL-CAT-AAAAAAAA')
    expect(second.sku).toBe('COL-CAT-SSSSSSSS')
  })

  test('refusals write nothing: no images, bad main index, unknown category, fake image', async () => {
    const storage = memoryStorage()
    const before = { products: await count(products), media: await count(media) }
    // Spec §5's texts stand alone; a vanished category reads inside the route's "Error: …".
    const alone = (message: string) => new Refusal(message, { standsAlone: true })
    const refusals: [Partial<CreateProductInput>, Refusal][] = [
      [{ uploads: [] }, alone(PRODUCT_MESSAGES.imagesRequired)],
      [{ mainIndex: null }, alone(PRODUCT_MESSAGES.mainImageInvalid)],
      [{ mainIndex: 2 }, alone(PRODUCT_MESSAGES.mainImageInvalid)],
      [
        { fields: fields({ categoryIds: ['Categoria_no_existe'] }) },
        new Refusal(PRODUCT_MESSAGES.unknownCategory),
      ],
    ]
    for (const [overrides, refusal] of refusals) {
      await expect(createProduct(t.db, storage, await input(overrides))).rejects.toThrow(refusal)
    }
    const fake = { name: 'falsa.jpg', bytes: Buffer.from('texto plano') }
    await expect(
      createProduct(t.db, storage, await input({ uploads: [await pngUpload(), fake] })),
    ).rejects.toBeInstanceOf(Refusal)
    expect(storage.files.size).toBe(0)
    expect({ products: await count(products), media: await count(media) }).toEqual(before)
  })

  test('a storage failure leaves no product and no files', async () => {
    const storage = memoryStorage()
    storage.state.failPutsAfter = 1
    const before = await count(products)
    // The admin reads that the images could not be stored; the storage's own error is the cause.
    await expect(createProduct(t.db, storage, await input())).rejects.toMatchObject({
      message: PRODUCT_MESSAGES.storageFailed,
      status: 503,
      cause: expect.objectContaining({ message: expect.stringContaining('almacenamiento lleno') }),
    })
    expect(await count(products)).toBe(before)
    expect(storage.files.size).toBe(0)
  })

  test('a database failure deletes the files already written', async () => {
    const storage = memoryStorage()
    const before = await count(products)
    // Discount 150 passes no validator here on purpose: the table's check constraint refuses it.
    const bad = { ...fields(), discountPercent: 150 }
    await expect(createProduct(t.db, storage, await input({ fields: bad }))).rejects.toThrow()
    expect(await count(products)).toBe(before)
    expect(storage.files.size).toBe(0)
  })

  test('the new product shows in the storefront only once it has stock', async () => {
    const { sku } = await createProduct(
      t.db,
      memoryStorage(),
      await input({ fields: fields({ name: 'Pulsera Única Zeta' }) }),
    )
    expect((await getProductDetail(t.reads, sku))?.name).toBe('Pulsera Única Zeta')
    await t.db.update(products).set({ stock: 3 }).where(eq(products.sku, sku))
    const found = await searchProducts(t.reads, 'pulsera unica zeta')
    expect(found.map((p: { sku: string }) => p.sku)).toContain(sku)
  })
})

describe('edit', () => {
  test('a new cost once the product has stock is a cost adjustment in the ledger, naming the admin', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input({ fields: fields({ cost: 1000 }) }))
    const edit = async (cost: number, loadedCost: number) =>
      updateProduct(t.db, storage, sku, {
        fields: fields({ cost, name: 'Collar Editado' }),
        uploads: [],
        main: { existing: (await t.db.select().from(media).where(eq(media.productSku, sku)))[0]!.id },
        by: 'duena@vitrina.test',
        loadedCost,
      })
    const ledger = () =>
      t.db
        .select({
          type: stockMovements.type,
          quantity: stockMovements.quantity,
          unitPrice: stockMovements.unitPrice,
          averageCostAfter: stockMovements.averageCostAfter,
          stockAfter: stockMovements.stockAfter,
          by: stockMovements.createdBy,
        })
        .from(stockMovements)
        .where(eq(stockMovements.productSku, sku))
        .orderBy(asc(stockMovements.id))
    const product = async () => (await t.db.select().from(products).where(eq(products.sku, sku)))[0]!
    const entry = (quantity: number, unitCost: number) =>
      recordEntry(
        t.db,
        recordingJobQueue(),
        { sku, quantity, unitCost, location: 'P1-C1-A1-E1-X1-Y1-Z1', receipt: '', note: '' },
        'duena@vitrina.test',
      )

    // Created with the typed cost; no stock yet: the cost is simply what was typed, nothing in the ledger.
    expect((await product()).cost).toBe(1000_00)
    await edit(1200, 1000_00)
    expect((await product()).cost).toBe(1200_00)
    expect(await ledger()).toEqual([])

    await entry(4, 1200_00)
    await edit(1200, 1200_00)
    expect((await ledger()).map((row) => row.type)).toEqual(['in'])
    await edit(1500.5, 1200_00)
    expect((await product()).cost).toBe(1500_50)
    expect((await ledger())[1]).toEqual({
      type: 'adjust',
      quantity: 0,
      unitPrice: 1500_50,
      averageCostAfter: 1500_50,
      stockAfter: 4,
      by: 'duena@vitrina.test',
    })
  })

  test('an entry landing while the edit page is open is kept when the admin left the cost alone', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input({ fields: fields({ cost: 1000 }) }))
    const mainId = (await t.db.select().from(media).where(eq(media.productSku, sku)))[0]!.id
    await recordEntry(
      t.db,
      recordingJobQueue(),
      { sku, quantity: 2, unitCost: 1000_00, location: 'P1-C1-A1-E1-X1-Y1-Z1', receipt: '', note: '' },
      'duena@vitrina.test',
    )
    // The page is loaded (cost $ 1.000), then 2 units at $ 2.000 come in: the average is $ 1.500.
    await recordEntry(
      t.db,
      recordingJobQueue(),
      { sku, quantity: 2, unitCost: 2000_00, location: 'P1-C1-A1-E1-X1-Y1-Z1', receipt: '', note: '' },
      'duena@vitrina.test',
    )
    const save = (cost: number, name: string) =>
      updateProduct(t.db, storage, sku, {
        fields: fields({ cost, name }),
        uploads: [],
        main: { existing: mainId },
        by: 'duena@vitrina.test',
        loadedCost: 1000_00,
      })
    const types = async () =>
      (await t.db.select().from(stockMovements).where(eq(stockMovements.productSku, sku))).map((r) => r.type)

    // Saved with the stale cost it was loaded with: the name changes, the entry's average stays.
    await save(1000, 'Collar Renombrado')
    const [kept] = await t.db.select().from(products).where(eq(products.sku, sku))
    expect(kept).toMatchObject({ name: 'Collar Renombrado', cost: 1500_00 })
    expect(await types()).toEqual(['in', 'in'])

    // The admin typed a new cost against the stale one: refused, asking to reload; nothing saved.
    const refused = save(1800, 'Collar Otro Nombre')
    await expect(refused).rejects.toThrow(StockRefused)
    await expect(refused).rejects.toThrow(STOCK_MESSAGES.costMoved)
    const [after] = await t.db.select().from(products).where(eq(products.sku, sku))
    expect(after).toMatchObject({ name: 'Collar Renombrado', cost: 1500_00 })
    expect(await types()).toEqual(['in', 'in'])
  })

  test('updates fields, keeps the sku, adds images and can make a new one main', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input())
    await updateProduct(t.db, storage, sku, {
      by: 'duena@vitrina.test',
      loadedCost: 12000_00,
      fields: fields({
        name: 'Collar Sol',
        categoryIds: [categoryB, categoryA],
        level1: 50000,
        showWholesale: false,
      }),
      uploads: [await pngUpload('tres.png', '#0000aa')],
      main: { upload: 0 },
    })
    const product = (await getEditableProduct(t.reads, sku))!
    expect(product).toMatchObject({ sku, name: 'Collar Sol', priceLevel1: 50_000_00, priceLevel5: 20_000_00 })
    expect(product.categoryIds).toEqual([categoryB, categoryA])
    expect(product.showWholesale).toBe(false)
    expect(product.media.map((m) => m.isMain)).toEqual([false, false, true])
    const [row] = await t.db.select().from(products).where(eq(products.sku, sku))
    expect(row!.searchName).toBe('collar sol')
  })

  test('unknown sku and invalid main choice are refused without changes', async () => {
    const storage = memoryStorage()
    await expect(
      updateProduct(t.db, storage, 'NO-EXISTE', {
        by: 'duena@vitrina.test',
        loadedCost: 12000_00,
        fields: fields(),
        uploads: [],
        main: { existing: 1 },
      }),
    ).rejects.toThrow(PRODUCT_MESSAGES.notFound)
    const { sku } = await createProduct(t.db, storage, await input())
    const other = await createFixtureProduct(t.db)
    const [otherImage] = await t.db.select().from(media).where(eq(media.productSku, other.sku))
    for (const main of [null, { existing: otherImage!.id }, { upload: 0 }]) {
      await expect(
        updateProduct(t.db, storage, sku, {
          by: 'duena@vitrina.test',
          loadedCost: 12000_00,
          fields: fields({ name: 'Cambiado' }),
          uploads: [],
          main,
        }),
      ).rejects.toThrow(PRODUCT_MESSAGES.mainImageInvalid)
    }
    expect((await getEditableProduct(t.reads, sku))!.name).toBe('Collar Luna')
  })

  test('a storage failure while editing changes nothing and leaves no new files', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input())
    const before = (await getEditableProduct(t.reads, sku))!
    const filesBefore = new Set(storage.files.keys())
    // The first new image is written, the second one fails (a 900 px image writes two variants).
    storage.state.failPutsAfter = storage.state.puts + 3
    await expect(
      updateProduct(t.db, storage, sku, {
        by: 'duena@vitrina.test',
        loadedCost: 12000_00,
        fields: fields({ name: 'Collar Cambiado', level1: 99000, categoryIds: [categoryB] }),
        uploads: [await pngUpload('tres.png', '#0000aa', 900, 600), await pngUpload('cuatro.png', '#00aaaa')],
        main: { upload: 1 },
      }),
    ).rejects.toMatchObject({ message: PRODUCT_MESSAGES.storageFailed, status: 503 })
    expect(storage.state.puts).toBeGreaterThan(3)
    expect(await getEditableProduct(t.reads, sku)).toEqual(before)
    expect(new Set(storage.files.keys())).toEqual(filesBefore)
  })

  test('a write that fails half-way while editing leaves no partial file behind', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input())
    const before = (await getEditableProduct(t.reads, sku))!
    const filesBefore = new Set(storage.files.keys())
    // A full disk: the file is created, then the write fails.
    const halfWriting = {
      ...storage,
      async put(path: string, body: Buffer, contentType: string) {
        storage.files.set(path, { body: body.subarray(0, 10), contentType })
        throw new Error('disco lleno')
      },
    }
    await expect(
      updateProduct(t.db, halfWriting, sku, {
        by: 'duena@vitrina.test',
        loadedCost: 12000_00,
        fields: fields({ name: 'Collar Cambiado' }),
        uploads: [await pngUpload('tres.png', '#0000aa')],
        main: { upload: 0 },
      }),
    ).rejects.toMatchObject({ message: PRODUCT_MESSAGES.storageFailed, status: 503 })
    expect(await getEditableProduct(t.reads, sku)).toEqual(before)
    expect(new Set(storage.files.keys())).toEqual(filesBefore)
  })

  test('a database failure while editing deletes the new files and keeps the old main image', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input())
    const before = (await getEditableProduct(t.reads, sku))!
    const filesBefore = new Set(storage.files.keys())
    // Discount 150 passes no validator here on purpose: the table's check constraint refuses it.
    await expect(
      updateProduct(t.db, storage, sku, {
        by: 'duena@vitrina.test',
        loadedCost: 12000_00,
        fields: { ...fields({ name: 'Collar Cambiado' }), discountPercent: 150 },
        uploads: [await pngUpload('tres.png', '#0000aa')],
        main: { upload: 0 },
      }),
    ).rejects.toThrow()
    expect(await getEditableProduct(t.reads, sku)).toEqual(before)
    expect(new Set(storage.files.keys())).toEqual(filesBefore)
  })
})

describe('delete', () => {
  test('removes the product, its rows and its files', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input())
    await t.db.insert(productLocations).values({ productSku: sku, code: 'P1-C1-A1-E1-X1-Y1-Z1', stock: 0 })
    expect(storage.files.size).toBeGreaterThan(0)
    await deleteProduct(t.db, storage, sku)
    expect(await getEditableProduct(t.reads, sku)).toBeNull()
    expect(await t.db.select().from(media).where(eq(media.productSku, sku))).toEqual([])
    expect(await t.db.select().from(productCategories).where(eq(productCategories.productSku, sku))).toEqual(
      [],
    )
    expect(storage.files.size).toBe(0)
    await expect(deleteProduct(t.db, storage, sku)).rejects.toThrow(PRODUCT_MESSAGES.notFound)
  })

  test('a product with stock movements or order lines keeps its history (refused, nothing deleted)', async () => {
    const storage = memoryStorage()
    const moved = await createProduct(t.db, storage, await input())
    await t.db.insert(stockMovements).values({
      productSku: moved.sku,
      type: 'in',
      quantity: 1,
      unitPrice: 100,
      total: 100,
      location: 'P1-C1-A1-E1-X1-Y1-Z1',
      stockAfter: 1,
      averageCostAfter: 100,
      createdBy: 'pruebas',
    })
    await expect(deleteProduct(t.db, storage, moved.sku)).rejects.toThrow(PRODUCT_MESSAGES.hasHistory)
    const ordered = await createProduct(t.db, storage, await input())
    await createOrder(t.db, { id: 'orden-historial' })
    await t.db.insert(orderItems).values({
      orderId: 'orden-historial',
      productSku: ordered.sku,
      title: 'Collar',
      quantity: 1,
      unitPrice: 100,
    })
    await expect(deleteProduct(t.db, storage, ordered.sku)).rejects.toThrow(PRODUCT_MESSAGES.hasHistory)
    expect(await getEditableProduct(t.reads, moved.sku)).not.toBeNull()
    expect(await getEditableProduct(t.reads, ordered.sku)).not.toBeNull()
  })
})
