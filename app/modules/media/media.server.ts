import { randomUUID } from 'node:crypto'
import { availableParallelism } from 'node:os'
import pLimit from 'p-limit'
import sharp from 'sharp'
import type { MediaVariant } from './variants.ts'
import { isExternalMediaPath, SHARE_VARIANT_SUFFIX } from './image-source.ts'
import type { MediaStorage } from './storage.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_VIDEO_BYTES,
  sniffVideo,
  UPLOAD_MESSAGES,
  type VideoType,
} from './validators.ts'
import { logger } from '#app/utils/logger.server.ts'

export const IMAGE_VARIANT_WIDTHS = [320, 640, 1280] as const

/**
 * Images this process decodes and encodes at once. libvips gives each job a thread per core by
 * default, so one job alone would fill the machine: each job gets one thread here, and with at most
 * cores−1 jobs (one on a single-core machine) a core stays free for this process's pages. Only the
 * pixel work holds a turn: writing the encoded files to storage (a slow S3 upload) happens after
 * it, holding up no other image.
 */
export const IMAGE_WORK_CONCURRENCY = Math.max(1, availableParallelism() - 1)
sharp.concurrency(1)
const imageWork = pLimit(IMAGE_WORK_CONCURRENCY)

/** Sharp on an upload's bytes, refusing to decode more than MAX_IMAGE_PIXELS (a second guard). */
const decoder = (input: Buffer) => sharp(input, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })

/**
 * Link previews (WhatsApp, Facebook) want a JPEG about 1200×630: several skip WebP. Every product
 * image gets one beside its WebP variants (listed among them, so deleting the image deletes it).
 */
export const SHARE_IMAGE = { width: 1200, height: 630, suffix: SHARE_VARIANT_SUFFIX } as const

export type StoredImage = {
  path: string
  mimeType: 'image/webp'
  width: number
  height: number
  variants: MediaVariant[]
}

/**
 * Turns any image sharp can read into WebP variants no wider than the original, plus (with
 * `share`, for product images) the JPEG link-preview variant of `SHARE_IMAGE`.
 */
export async function storeImage(
  storage: MediaStorage,
  input: Buffer,
  folder: string,
  options: { share?: boolean } = {},
): Promise<StoredImage> {
  const { image, files } = await imageWork(() => encodeImage(input, folder, options))
  // Every write settles before a failure is thrown, so the caller's clean-up finds them all done.
  const writes = await Promise.allSettled(files.map((file) => storage.put(file.path, file.data, file.type)))
  const failed = writes.find((write) => write.status === 'rejected')
  if (failed) throw failed.reason
  return image
}

type EncodedFile = { path: string; data: Buffer; type: string }

/** The pixel work of `storeImage`: every variant encoded into memory, nothing written yet. */
async function encodeImage(
  input: Buffer,
  folder: string,
  { share = false }: { share?: boolean },
): Promise<{ image: StoredImage; files: EncodedFile[] }> {
  const image = decoder(input).rotate()
  const meta = await image.metadata()
  if (!meta.width || !meta.height) throw new Error('La imagen no tiene dimensiones válidas.')
  const id = randomUUID()
  const maxWidth = Math.min(meta.width, IMAGE_VARIANT_WIDTHS.at(-1)!)
  const targets = [...new Set([...IMAGE_VARIANT_WIDTHS.filter((w) => w < maxWidth), maxWidth])]
  const variants: MediaVariant[] = []
  const files: EncodedFile[] = []
  for (const width of targets) {
    const { data, info } = await image
      .clone()
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 78 })
      .toBuffer({ resolveWithObject: true })
    const variantPath = `${folder}/${id}-${info.width}.webp`
    files.push({ path: variantPath, data, type: 'image/webp' })
    variants.push({ width: info.width, height: info.height, path: variantPath })
  }
  const largest = variants.at(-1)!
  if (share) {
    const data = await image
      .clone()
      .resize({ width: SHARE_IMAGE.width, height: SHARE_IMAGE.height, fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer()
    const sharePath = `${folder}/${id}${SHARE_IMAGE.suffix}`
    files.push({ path: sharePath, data, type: 'image/jpeg' })
    variants.push({ width: SHARE_IMAGE.width, height: SHARE_IMAGE.height, path: sharePath })
  }
  return {
    image: {
      path: largest.path,
      mimeType: 'image/webp',
      width: largest.width,
      height: largest.height,
      variants,
    },
    files,
  }
}

/** An uploaded file as the server received it. */
export type Upload = { name: string; bytes: Buffer }

export type StoredMedia =
  | ({ kind: 'image' } & StoredImage)
  | {
      kind: 'video'
      path: string
      mimeType: VideoType['mimeType']
      width: null
      height: null
      variants: MediaVariant[]
    }

/** The columns of a `media` row that describe a stored file; the owner and place are the caller's. */
export function storedMediaColumns(stored: StoredMedia) {
  return {
    kind: stored.kind,
    path: stored.path,
    mimeType: stored.mimeType,
    width: stored.width,
    height: stored.height,
    variants: stored.variants,
  }
}

/** What a checked upload is, by its content. */
export type Checked = { kind: 'image' } | { kind: 'video'; video: VideoType }

/**
 * Decides what a file is by its content, never its name: a video by its magic bytes, an image if
 * sharp can decode it. Enforces the size limits (images 10 MB, videos 50 MB).
 */
export async function checkUpload(upload: Upload): Promise<Checked> {
  const { name, bytes } = upload
  if (bytes.length === 0) throw new Refusal(UPLOAD_MESSAGES.empty(name))
  const video = sniffVideo(bytes)
  if (video) {
    if (bytes.length > MAX_VIDEO_BYTES) throw new Refusal(UPLOAD_MESSAGES.videoTooLarge(name))
    return { kind: 'video', video }
  }
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new Refusal(
      bytes.length > MAX_VIDEO_BYTES ? UPLOAD_MESSAGES.tooLarge(name) : UPLOAD_MESSAGES.imageTooLarge(name),
    )
  }
  // The header alone says the size: read without decoding, so a huge image is refused at once.
  const size = await sharp(bytes, { failOn: 'error', limitInputPixels: false })
    .metadata()
    .then((meta) => (meta.width && meta.height ? { width: meta.width, height: meta.height } : null))
    .catch(() => null)
  if (!size) throw new Refusal(UPLOAD_MESSAGES.notMedia(name))
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new Refusal(UPLOAD_MESSAGES.tooManyPixels(name, size.width, size.height))
  }
  try {
    // Decode the pixels too: a valid header over a broken body must not pass.
    await imageWork(() => decoder(bytes).resize(8).raw().toBuffer())
  } catch {
    throw new Refusal(UPLOAD_MESSAGES.notMedia(name))
  }
  return { kind: 'image' }
}

/** Checks every upload first (so a bad file writes nothing), then stores them in order. */
export async function checkUploads(uploads: Upload[]): Promise<Checked[]> {
  const checked: Checked[] = []
  for (const upload of uploads) checked.push(await checkUpload(upload))
  return checked
}

/** Every storage path a media row owns (all image variants, or the video file); none for an external address. */
export function storedPaths(row: { path: string; variants: MediaVariant[] }): string[] {
  return [...new Set([row.path, ...row.variants.map((v) => v.path)])].filter((p) => !isExternalMediaPath(p))
}

/** Deletes files, logging (never throwing) failures: used after a commit or to undo a failed write. */
export async function deleteStoredFiles(storage: MediaStorage, paths: string[]) {
  await Promise.all(
    paths.map((p) =>
      storage.delete(p).catch((error: unknown) => {
        logger.error({ err: error }, `No se pudo eliminar el archivo ${p}`)
      }),
    ),
  )
}

/**
 * Writes checked uploads to storage (images as WebP variants). If any write fails, the files
 * already written are deleted and the error is thrown: nothing half-stored stays behind.
 */
export async function storeUploads(
  storage: MediaStorage,
  uploads: Upload[],
  checked: Checked[],
  folder: string,
  options: { share?: boolean } = {},
): Promise<StoredMedia[]> {
  const stored: StoredMedia[] = []
  const attempted: string[] = []
  // Every path a write was attempted at, recorded before the write: a failure in the middle of an
  // image's variants cleans those up too, and so does a write that failed half-way (a full disk
  // can leave a partial file behind).
  const tracking: MediaStorage = {
    put(p, body, type) {
      attempted.push(p)
      return storage.put(p, body, type)
    },
    delete: (p) => storage.delete(p),
  }
  try {
    for (const [index, upload] of uploads.entries()) {
      const check = checked[index]!
      if (check.kind === 'image') {
        stored.push({ kind: 'image', ...(await storeImage(tracking, upload.bytes, folder, options)) })
      } else {
        const videoPath = `${folder}/${randomUUID()}.${check.video.extension}`
        await tracking.put(videoPath, upload.bytes, check.video.mimeType)
        stored.push({
          kind: 'video',
          path: videoPath,
          mimeType: check.video.mimeType,
          width: null,
          height: null,
          variants: [],
        })
      }
    }
  } catch (error) {
    await deleteStoredFiles(storage, attempted)
    throw error
  }
  return stored
}
