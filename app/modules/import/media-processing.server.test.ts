import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { expect, test, vi } from 'vitest'
import { media } from '#app/modules/catalog/schema.ts'
import type * as MediaModule from '#app/modules/media/media.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { memoryStorage, MP4_BYTES, pngUpload } from '#tests/media.ts'
import { importOriginalShop } from './import.server.ts'

/** The image library fails on one file that passed the check, as sharp can on an odd encoding. */
const FAILING = 'b1_perla.jpg'
vi.mock('#app/modules/media/media.server.ts', async (importOriginal) => {
  const original = await importOriginal<typeof MediaModule>()
  return {
    ...original,
    storeUploads: (...args: Parameters<typeof original.storeUploads>) =>
      args[1].some((upload) => upload.name === FAILING)
        ? Promise.reject(new Error('VipsForeignSaveWebp: unable to encode'))
        : original.storeUploads(...args),
  }
})

const t = setupTestDatabase()
const SAMPLE = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/import/sample-export.json'), 'utf8'),
) as Record<string, unknown>

test('a file that passes the check but cannot be processed keeps its address; the rest comes over', async () => {
  const png = (await pngUpload()).bytes
  const remote = {
    download: async (url: string) => ({ ok: true as const, bytes: url.includes('.mp4') ? MP4_BYTES : png }),
  }
  const storage = memoryStorage()
  const report = await importOriginalShop({ db: t.db, storage, remote }, SAMPLE)
  const url =
    'https://firebasestorage.googleapis.com/v0/b/tienda.appspot.com/o/productos%2Fb1_perla.jpg?alt=media'
  expect(report.refused).toEqual([])
  expect(report.warnings).toEqual([
    {
      kind: 'producto',
      key: 'ARE-CAT-P4D8W1ZE',
      reason: `No se pudo traer ${url} (la imagen no se pudo procesar: VipsForeignSaveWebp: unable to encode): se guarda la dirección.`,
    },
  ])
  expect(report.imported).toMatchObject({ products: 2, mediaStored: 2, mediaKeptAsUrl: 1 })
  const [kept] = await t.db.select().from(media).where(eq(media.productSku, 'ARE-CAT-P4D8W1ZE'))
  expect(kept).toMatchObject({ path: url, isMain: true })
  const stored = await t.db.select().from(media).where(eq(media.productSku, 'COL-CAT-7K2M9QXA'))
  expect(stored.every((row) => storage.files.has(row.path))).toBe(true)
})
