import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { setupTestDatabase, usingPostgres } from '#tests/db.ts'
import { createCategory } from '#tests/factories.ts'
import { memoryStorage } from '#tests/media.ts'
import { productInput } from '#tests/product-form.ts'
import { createProduct, getEditableProduct } from './admin-products.server.ts'
import { deleteProductImage, setMainImage } from './product-media.server.ts'
import { media } from './schema.ts'
import { PRODUCT_MESSAGES } from './validators.ts'

const t = setupTestDatabase()
let categoryId: string

beforeAll(async () => {
  categoryId = (await createCategory(t.db, { name: 'Collares' })).id
})

const input = () => productInput(categoryId)

describe('main image and image deletion', () => {
  test('main image: changes in one step; an unknown image changes nothing', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input())
    const before = (await getEditableProduct(t.reads, sku))!.media
    const notMain = before.find((m) => !m.isMain)!
    await setMainImage(t.db, sku, notMain.id)
    const after = (await getEditableProduct(t.reads, sku))!.media
    expect(after.find((m) => m.isMain)!.id).toBe(notMain.id)
    await expect(setMainImage(t.db, sku, 999_999)).rejects.toThrow(PRODUCT_MESSAGES.mainImageFailed)
    expect((await getEditableProduct(t.reads, sku))!.media.find((m) => m.isMain)!.id).toBe(notMain.id)
  })

  test.runIf(usingPostgres())(
    'PostgreSQL: making an image main while another admin deletes it keeps the old main image',
    async () => {
      const storage = memoryStorage()
      const { sku } = await createProduct(t.db, storage, await input())
      const images = (await getEditableProduct(t.reads, sku))!.media
      const main = images.find((m) => m.isMain)!
      const other = images.find((m) => !m.isMain)!
      // The other admin's delete holds its row lock until we let it commit.
      let commitDelete!: () => void
      let locked!: () => void
      const lockHeld = new Promise<void>((resolve) => (locked = resolve))
      const deleting = t.db.transaction(async (tx) => {
        await tx.select().from(media).where(eq(media.id, other.id)).for('update')
        await tx.delete(media).where(eq(media.id, other.id))
        locked()
        await new Promise<void>((resolve) => (commitDelete = resolve))
      })
      await lockHeld
      // Whether or not it reaches the lock before the delete commits, it must not succeed.
      const makingMain = setMainImage(t.db, sku, other.id).then(
        () => 'changed',
        (error: Error) => error.message,
      )
      await new Promise((resolve) => setTimeout(resolve, 200))
      commitDelete()
      await deleting
      expect(await makingMain).toBe(PRODUCT_MESSAGES.mainImageFailed)
      const after = (await getEditableProduct(t.reads, sku))!.media
      expect(after.filter((m) => m.isMain).map((m) => m.id)).toEqual([main.id])
    },
  )

  test('deleting an image removes its row and files; the main image cannot be deleted', async () => {
    const storage = memoryStorage()
    const { sku } = await createProduct(t.db, storage, await input())
    const [first, second] = (await getEditableProduct(t.reads, sku))!.media
    const main = [first!, second!].find((m) => m.isMain)!
    const other = [first!, second!].find((m) => !m.isMain)!
    await expect(deleteProductImage(t.db, storage, sku, main.id)).rejects.toThrow(
      PRODUCT_MESSAGES.imageDeleteMain,
    )
    const filesBefore = storage.files.size
    await deleteProductImage(t.db, storage, sku, other.id)
    expect((await getEditableProduct(t.reads, sku))!.media.map((m) => m.id)).toEqual([main.id])
    expect(storage.files.size).toBeLessThan(filesBefore)
    await expect(deleteProductImage(t.db, storage, sku, other.id)).rejects.toThrow(
      PRODUCT_MESSAGES.imageDeleteFailed,
    )
  })
})
