/** Upload rules shared by the admin forms (client hints) and the server (the real check). */

export const MB = 1024 * 1024
export const MAX_IMAGE_BYTES = 10 * MB
export const MAX_VIDEO_BYTES = 50 * MB
/**
 * Pixels an uploaded image may have (width × height): a 48-megapixel phone photo passes. Decoding
 * costs memory and CPU by pixels, not bytes: a 2 MB PNG can declare 16383 × 16383 pixels and keep
 * a core busy for half a minute, so the size is read from the header and refused before decoding.
 */
export const MAX_IMAGE_PIXELS = 50_000_000
/** Files one form post may carry: enough for a product's gallery, bounded for memory and time. */
export const MAX_FILES_PER_POST = 10

export const UPLOAD_MESSAGES = {
  empty: (name: string) => `El archivo «${name}» está vacío.`,
  notMedia: (name: string) => `El archivo «${name}» no es una imagen válida ni un video MP4, WebM u Ogg.`,
  imageTooLarge: (name: string) => `La imagen «${name}» supera el tamaño máximo de 10 MB.`,
  videoTooLarge: (name: string) => `El video «${name}» supera el tamaño máximo de 50 MB.`,
  tooLarge: (name: string) => `El archivo «${name}» supera el tamaño máximo de 50 MB.`,
  tooMany: `Puedes subir hasta ${MAX_FILES_PER_POST} archivos a la vez.`,
  tooManyPixels: (name: string, width: number, height: number) =>
    `La imagen «${name}» mide ${width} × ${height} píxeles y el máximo es de ${MAX_IMAGE_PIXELS / 1_000_000} megapíxeles. ` +
    'Redúcela (por ejemplo a 4000 píxeles de ancho) e inténtalo de nuevo.',
} as const

export type VideoType = {
  mimeType: 'video/mp4' | 'video/webm' | 'video/ogg'
  extension: 'mp4' | 'webm' | 'ogg'
}

const MP4_VIDEO_BRANDS = new Set([
  'isom',
  'iso2',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'M4V ',
  'dash',
  'mmp4',
  'qt  ',
])

/** Recognises mp4, webm and ogg by their first bytes (the file name and declared type are ignored). */
export function sniffVideo(bytes: Uint8Array): VideoType | null {
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end))
  // ISO base media: a box whose type is "ftyp" at offset 4, then the major brand. AVIF and HEIF
  // photos share the container, so only video brands count; the rest go on to the image check.
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp' && MP4_VIDEO_BRANDS.has(ascii(8, 12))) {
    return { mimeType: 'video/mp4', extension: 'mp4' }
  }
  // Matroska/WebM: EBML magic 1A 45 DF A3.
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return { mimeType: 'video/webm', extension: 'webm' }
  }
  if (bytes.length >= 4 && ascii(0, 4) === 'OggS') return { mimeType: 'video/ogg', extension: 'ogg' }
  return null
}
