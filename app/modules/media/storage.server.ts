import fs from 'node:fs/promises'
import path from 'node:path'

/** Where media files live. Local disk by default; an S3-compatible store can replace it. */
export interface MediaStorage {
  put(storagePath: string, body: Buffer, contentType: string): Promise<void>
  delete(storagePath: string): Promise<void>
  /** Lets go of open connections at shutdown, when the storage holds any. */
  close?(): Promise<void>
}

export function localMediaStorage(root: string): MediaStorage {
  const resolve = (storagePath: string) => {
    const full = path.resolve(root, storagePath)
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error('Ruta de archivo no válida')
    return full
  }
  return {
    async put(storagePath, body) {
      const full = resolve(storagePath)
      await fs.mkdir(path.dirname(full), { recursive: true })
      await fs.writeFile(full, body)
    },
    async delete(storagePath) {
      await fs.rm(resolve(storagePath), { force: true })
    },
  }
}
