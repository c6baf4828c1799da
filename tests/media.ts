import zlib from 'node:zlib'
import sharp from 'sharp'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import type { Upload } from '#app/modules/media/media.server.ts'

/** Media storage in memory, with a switch to make the next writes fail (e.g. a full disk). */
export function memoryStorage() {
  const files = new Map<string, { body: Buffer; contentType: string }>()
  const state = { failPutsAfter: Infinity, puts: 0, failDeletes: false }
  const storage: MediaStorage & { files: typeof files; state: typeof state } = {
    files,
    state,
    async put(path, body, contentType) {
      if (state.puts++ >= state.failPutsAfter) throw new Error('almacenamiento lleno')
      files.set(path, { body, contentType })
    },
    async delete(path) {
      if (state.failDeletes) throw new Error('no se pudo borrar')
      files.delete(path)
    },
  }
  return storage
}

/** A small real PNG (solid colour), as a browser would upload it. */
export async function pngUpload(
  name = 'foto.png',
  color = '#c0392b',
  width = 40,
  height = 30,
): Promise<Upload> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer()
  return { name, bytes }
}

/** The first bytes of a WebM (EBML header) and of an MP4 (ftyp box): enough to be recognised. */
export const WEBM_BYTES = Buffer.from([
  0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81,
])
export const MP4_BYTES = Buffer.concat([
  Buffer.from([0x00, 0x00, 0x00, 0x18]),
  Buffer.from('ftypmp42'),
  Buffer.alloc(12),
])

/**
 * A real, valid PNG of `width` × `height` pixels (1-bit grey, all black) that weighs little: the
 * kind of file that is small to upload and enormous to decode. Built by hand (IHDR, one zlib
 * IDAT, IEND), since encoding it with sharp would take as long as decoding it.
 */
export function hugePixelPng(width = 16383, height = 16383): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([1, 0, 0, 0, 0], 8) // bit depth 1, greyscale, deflate, no filter method, no interlace
  // Each row: filter byte 0, then width bits of zeros.
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
