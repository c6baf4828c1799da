import { and, eq } from 'drizzle-orm'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import {
  deleteStoredFiles,
  storedMediaColumns,
  storedPaths,
  type StoredMedia,
} from '#app/modules/media/media.server.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import type { StoredFilesOptions } from '#app/modules/media/stored-files.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { media } from './schema.ts'
import { PRODUCT_MESSAGES } from './validators.ts'
import { hasNul } from '#app/utils/text.ts'

/** Where product files are stored (uploads and imports alike). */
export const PRODUCT_MEDIA_FOLDER = 'products'

/** Media rows for files just stored, numbered from `firstPosition`; `mainIndex` is the main one. */
export function mediaValues(
  sku: string,
  stored: StoredMedia[],
  firstPosition: number,
  mainIndex: number | null,
) {
  return stored.map((file, index) => ({
    productSku: sku,
    ...storedMediaColumns(file),
    position: firstPosition + index,
    isMain: index === mainIndex,
  }))
}

/** How product uploads are stored: with their link-preview image, a failed write in spec words. */
export const PRODUCT_FILES: StoredFilesOptions = {
  folder: PRODUCT_MEDIA_FOLDER,
  share: true,
  storageFailed: (error) => new Refusal(PRODUCT_MESSAGES.storageFailed, { status: 503, cause: error }),
}

/** The edit form's main-image choice: an image already saved, or one of the files being added. */
export type MainChoice = { existing: number } | { upload: number } | null

export function parseMainChoice(value: unknown): MainChoice {
  if (typeof value !== 'string') return null
  const existing = /^existente:(\d+)$/.exec(value)
  if (existing) return { existing: Number(existing[1]) }
  const upload = /^nueva:(\d+)$/.exec(value)
  if (upload) return { upload: Number(upload[1]) }
  return null
}

/** Makes one of the product's images its main image, in the caller's transaction. */
export async function setMainImageInTx(tx: DbOrTx, sku: string, mediaId: number) {
  // Locked, as `deleteProductImage` locks it: an image deleted meanwhile is not found here (and
  // the old main image stays), instead of the product ending up with no main image at all.
  const [target] = await tx
    .select({ id: media.id, isMain: media.isMain })
    .from(media)
    .where(and(eq(media.id, mediaId), eq(media.productSku, sku)))
    .for('update')
  if (!target) throw new Refusal(PRODUCT_MESSAGES.mainImageInvalid, { standsAlone: true })
  if (target.isMain) return
  await tx
    .update(media)
    .set({ isMain: false })
    .where(and(eq(media.productSku, sku), eq(media.isMain, true)))
  await tx.update(media).set({ isMain: true }).where(eq(media.id, mediaId))
}

/**
 * "Imagen principal": one transaction, so on any failure the old main image stays
 * (spec §8: "Error al actualizar la imagen principal. Intenta de nuevo.").
 */
export async function setMainImage(db: Db, sku: string, mediaId: number): Promise<void> {
  try {
    await db.transaction((tx) => setMainImageInTx(tx, sku, mediaId))
  } catch (error) {
    // Whatever went wrong, the admin reads spec §8's one text for it; the cause is logged.
    throw new Refusal(PRODUCT_MESSAGES.mainImageFailed, {
      standsAlone: true,
      cause: error instanceof Refusal ? undefined : error,
    })
  }
}

/** Deletes one image (never the main one); its files go after the row is gone. */
export async function deleteProductImage(
  db: Db,
  storage: MediaStorage,
  sku: string,
  mediaId: number,
): Promise<void> {
  // A NUL is in no id, and PostgreSQL would refuse the query for it.
  if (hasNul(sku)) throw new Refusal(PRODUCT_MESSAGES.imageDeleteFailed)
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(media)
      .where(and(eq(media.id, mediaId), eq(media.productSku, sku)))
      .for('update')
    if (!row) throw new Refusal(PRODUCT_MESSAGES.imageDeleteFailed)
    if (row.isMain) throw new Refusal(PRODUCT_MESSAGES.imageDeleteMain)
    await tx.delete(media).where(eq(media.id, mediaId))
    return row
  })
  await deleteStoredFiles(storage, storedPaths(removed))
}
