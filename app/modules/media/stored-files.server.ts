import {
  checkUploads,
  deleteStoredFiles,
  storedPaths,
  storeUploads,
  type Checked,
  type StoredMedia,
  type Upload,
} from './media.server.ts'
import type { MediaStorage } from './storage.server.ts'

export type StoredFilesOptions = {
  /** The storage folder the files go in (`products`, `categories`, `banners`). */
  folder: string
  /** Whether images also get the link-preview variant (product images do). */
  share?: boolean
  /**
   * Refuses files the caller cannot take (a video where only an image fits) by throwing; it runs
   * once every file is checked and before any is stored, so a refusal stores nothing.
   */
  accept?: (checked: Checked[]) => void
  /** What a failed write is reported as; without it, the storage's own error. */
  storageFailed?: (error: unknown) => Error
}

/**
 * Checks the uploads, stores them, then runs `work` (the database side, one transaction); if it
 * fails, the files just stored are deleted again. Nothing half-saved stays behind either way, and
 * no upload at all costs no storage call.
 */
export async function withStoredFiles<T>(
  storage: MediaStorage,
  uploads: Upload[],
  { folder, share, accept, storageFailed }: StoredFilesOptions,
  work: (stored: StoredMedia[]) => Promise<T>,
): Promise<T> {
  const checked = await checkUploads(uploads)
  accept?.(checked)
  // storeUploads deletes whatever it wrote before failing.
  const stored = await storeUploads(storage, uploads, checked, folder, { share }).catch((error: unknown) => {
    throw storageFailed ? storageFailed(error) : error
  })
  try {
    return await work(stored)
  } catch (error) {
    await deleteStoredFiles(storage, stored.flatMap(storedPaths))
    throw error
  }
}
