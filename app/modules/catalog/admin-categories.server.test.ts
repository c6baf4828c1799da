import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { memoryStorage, pngUpload } from '#tests/media.ts'
import {
  CATEGORY_DELETE_MESSAGES,
  createCategory,
  deleteCategory,
  getAdminCategory,
  listAdminCategories,
  updateCategory,
} from './admin-categories.server.ts'
import { listCategories } from './catalog.server.ts'
import { categories, media, productCategories } from './schema.ts'
import { CATEGORY_MESSAGES } from './validators.ts'

const t = setupTestDatabase()

test('an empty database lists no categories', async () => {
  expect(await listAdminCategories(t.reads)).toEqual([])
})

test('creates a category with a trimmed name, a Categoria_<timestamp> id and an optional image', async () => {
  const storage = memoryStorage()
  const { id } = await createCategory(t.db, storage, { name: '  Collares  ' }, 1_700_000_000_000)
  expect(id).toBe('Categoria_1700000000000')
  // Same millisecond: the next free timestamp.
  const second = await createCategory(
    t.db,
    storage,
    { name: 'Aretes', image: await pngUpload() },
    1_700_000_000_000,
  )
  expect(second.id).toBe('Categoria_1700000000001')
  const list = await listAdminCategories(t.reads)
  expect(list.map((c) => c.name)).toEqual(['Collares', 'Aretes'])
  expect(list[0]!.image).toBeNull()
  expect(list[1]!.image?.src).toMatch(/^\/media\/categories\//)
  expect(storage.files.size).toBeGreaterThan(0)
  expect((await listCategories(t.reads)).map((c: { name: string }) => c.name)).toEqual(
    expect.arrayContaining(['Collares', 'Aretes']),
  )
})

test('a blank name creates nothing (spec §5)', async () => {
  const storage = memoryStorage()
  const before = (await t.db.select().from(categories)).length
  for (const name of ['', '   ', undefined]) {
    await expect(createCategory(t.db, storage, { name, image: await pngUpload() })).rejects.toThrow(
      new Refusal(CATEGORY_MESSAGES.nameRequired, { standsAlone: true }),
    )
  }
  expect((await t.db.select().from(categories)).length).toBe(before)
  expect(storage.files.size).toBe(0)
})

test('a fake image is refused and nothing is written', async () => {
  const storage = memoryStorage()
  const before = (await t.db.select().from(categories)).length
  await expect(
    createCategory(t.db, storage, { name: 'Anillos', image: { name: 'x.jpg', bytes: Buffer.from('hola') } }),
  ).rejects.toBeInstanceOf(Refusal)
  expect((await t.db.select().from(categories)).length).toBe(before)
  expect(storage.files.size).toBe(0)
})

test('edits the name and replaces the image, deleting the old files after commit', async () => {
  const storage = memoryStorage()
  const { id } = await createCategory(t.db, storage, { name: 'Pulseras', image: await pngUpload() })
  const oldFiles = [...storage.files.keys()]
  await updateCategory(t.db, storage, id, {
    name: ' Pulseras finas ',
    image: await pngUpload('n.png', '#00ff00'),
  })
  const category = (await getAdminCategory(t.reads, id))!
  expect(category.name).toBe('Pulseras finas')
  for (const file of oldFiles) expect(storage.files.has(file)).toBe(false)
  expect(storage.files.size).toBeGreaterThan(0)
  const [row] = await t.db.select().from(categories).where(eq(categories.id, id))
  expect((await t.db.select().from(media).where(eq(media.id, row!.imageMediaId!))).length).toBe(1)
  // Without a new image the old one stays.
  await updateCategory(t.db, storage, id, { name: 'Pulseras' })
  expect((await getAdminCategory(t.reads, id))!.image).not.toBeNull()
})

test('edit refusals: unknown id, blank name; nothing changes', async () => {
  const storage = memoryStorage()
  await expect(updateCategory(t.db, storage, 'Categoria_0', { name: 'X' })).rejects.toThrow(
    CATEGORY_MESSAGES.notFound,
  )
  const { id } = await createCategory(t.db, storage, { name: 'Tobilleras' })
  await expect(updateCategory(t.db, storage, id, { name: ' ' })).rejects.toThrow(
    CATEGORY_MESSAGES.nameRequired,
  )
  expect((await getAdminCategory(t.reads, id))!.name).toBe('Tobilleras')
})

test('a storage failure while replacing the image keeps the category as it was', async () => {
  const storage = memoryStorage()
  const { id } = await createCategory(t.db, storage, { name: 'Relojes' })
  storage.state.failPutsAfter = storage.state.puts + 1
  await expect(
    updateCategory(t.db, storage, id, {
      name: 'Relojes nuevos',
      image: await pngUpload('r.png', '#123456', 900, 900),
    }),
  ).rejects.toThrow()
  expect((await getAdminCategory(t.reads, id))!.name).toBe('Relojes')
  expect(storage.files.size).toBe(0)
})

describe('deleting a category', () => {
  test('an empty category goes with its image row and files; the list and the store no longer show it', async () => {
    const storage = memoryStorage()
    const { id } = await createCategory(t.db, storage, { name: 'Broches', image: await pngUpload() })
    const [row] = await t.db.select().from(categories).where(eq(categories.id, id))
    const files = [...storage.files.keys()]
    expect(files.length).toBeGreaterThan(0)
    expect((await getAdminCategory(t.reads, id))!.productCount).toBe(0)

    expect(await deleteCategory(t.db, storage, id)).toEqual({ name: 'Broches' })
    expect(CATEGORY_DELETE_MESSAGES.deleted('Broches')).toBe('Categoría «Broches» eliminada con éxito.')
    expect(await getAdminCategory(t.reads, id)).toBeNull()
    expect((await listAdminCategories(t.reads)).map((c) => c.id)).not.toContain(id)
    expect((await listCategories(t.reads)).map((c: { id: string }) => c.id)).not.toContain(id)
    expect(await t.db.select().from(media).where(eq(media.id, row!.imageMediaId!))).toEqual([])
    for (const file of files) expect(storage.files.has(file)).toBe(false)

    // Without an image: nothing to remove from storage.
    const bare = await createCategory(t.db, storage, { name: 'Sin imagen' })
    await deleteCategory(t.db, storage, bare.id)
    expect(await getAdminCategory(t.reads, bare.id)).toBeNull()
  })

  test('a category with products is refused, saying how many; nothing changes', async () => {
    const storage = memoryStorage()
    const { id } = await createCategory(t.db, storage, { name: 'Collares', image: await pngUpload() })
    const files = [...storage.files.keys()]
    const first = await createProduct(t.db, { categoryIds: [id] })
    await createProduct(t.db, { categoryIds: [id] })
    await createProduct(t.db, { categoryIds: [id] })
    expect((await getAdminCategory(t.reads, id))!.productCount).toBe(3)
    const links = async () =>
      (await t.db.select().from(productCategories).where(eq(productCategories.categoryId, id))).length
    const mediaRows = async () => (await t.db.select().from(media)).length
    const before = { category: await getAdminCategory(t.reads, id), media: await mediaRows() }

    const refusal = new Refusal(CATEGORY_DELETE_MESSAGES.hasProducts('Collares', 3), {
      standsAlone: true,
      status: 409,
    })
    await expect(deleteCategory(t.db, storage, id)).rejects.toThrow(refusal)
    await expect(deleteCategory(t.db, storage, id)).rejects.toMatchObject({ status: 409 })
    expect(refusal.message).toBe(
      'No se puede eliminar la categoría «Collares»: tiene 3 productos. Muévelos primero a otra categoría (o quítalos de esta) y vuelve a intentarlo.',
    )
    expect(await getAdminCategory(t.reads, id)).toEqual(before.category)
    expect(await links()).toBe(3)
    expect(await mediaRows()).toBe(before.media)
    for (const file of files) expect(storage.files.has(file)).toBe(true)

    // One product left: said in the singular; once it is moved out, the category can go.
    await t.db.delete(productCategories).where(eq(productCategories.categoryId, id))
    await t.db.insert(productCategories).values({ productSku: first.sku, categoryId: id })
    await expect(deleteCategory(t.db, storage, id)).rejects.toThrow(
      'No se puede eliminar la categoría «Collares»: tiene 1 producto. Muévelo primero a otra categoría (o quítalo de esta) y vuelve a intentarlo.',
    )
    await t.db.delete(productCategories).where(eq(productCategories.categoryId, id))
    await deleteCategory(t.db, storage, id)
    expect(await getAdminCategory(t.reads, id)).toBeNull()
  })

  test('an unknown id (or one already deleted) is answered "Categoría no encontrada." (404)', async () => {
    const storage = memoryStorage()
    const notFound = { message: CATEGORY_MESSAGES.notFound, status: 404, standsAlone: true }
    await expect(deleteCategory(t.db, storage, 'Categoria_0')).rejects.toMatchObject(notFound)
    await expect(deleteCategory(t.db, storage, 'Categoria_\u0000')).rejects.toMatchObject(notFound)
    const { id } = await createCategory(t.db, storage, { name: 'Dos veces' })
    await deleteCategory(t.db, storage, id)
    await expect(deleteCategory(t.db, storage, id)).rejects.toMatchObject(notFound)
  })
})

test('"SEO": a category keeps its slug, title and description; empty takes the defaults', async () => {
  const storage = memoryStorage()
  const seo = {
    seoTitle: 'Pulseras tejidas a mano',
    seoDescription: 'Pulseras de hilo.',
    slug: 'Pulseras Tejidas!',
  }
  const { id } = await createCategory(t.db, storage, { name: 'Pulseras', seo })
  expect(await getAdminCategory(t.reads, id)).toMatchObject({
    slug: 'pulseras-tejidas',
    seoTitle: 'Pulseras tejidas a mano',
    seoDescription: 'Pulseras de hilo.',
  })
  // A rename keeps the URL; an emptied slug is made from the name as it is then.
  await updateCategory(t.db, storage, id, { name: 'Manillas', seo: {} })
  expect((await getAdminCategory(t.reads, id))?.slug).toBe('pulseras-tejidas')
  await updateCategory(t.db, storage, id, {
    name: 'Manillas',
    seo: { slug: '', seoTitle: '', seoDescription: '' },
  })
  expect(await getAdminCategory(t.reads, id)).toMatchObject({
    slug: 'manillas',
    seoTitle: null,
    seoDescription: null,
  })
  await expect(updateCategory(t.db, storage, id, { name: 'Manillas', seo: { slug: '💎' } })).rejects.toThrow(
    Refusal,
  )
})
