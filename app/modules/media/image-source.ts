import type { DbOrTx } from '#app/db/client.server.ts'
import type { MediaVariant } from './variants.ts'

export type ImageSource = {
  src: string
  /** The smallest variant, for thumbnails. */
  thumb: string
  srcSet: string
  width: number
  height: number
  alt: string
}

export type MediaRow = {
  kind: 'image' | 'video'
  path: string
  width: number | null
  height: number | null
  variants: MediaVariant[]
}

export const MEDIA_URL_PREFIX = '/media/'

/**
 * What a read that shows images needs: the database, and where media URLs point (`/media/` for
 * local disk, served by the app, or S3_PUBLIC_URL), as the registry's `reads` carries them.
 */
export type MediaReads = { db: DbOrTx; publicBase: string }

/** The link-preview JPEG stored beside an image's WebP variants (see `storeImage`). */
export const SHARE_VARIANT_SUFFIX = '-share.jpg'

export function isShareVariant(variant: MediaVariant): boolean {
  return variant.path.endsWith(SHARE_VARIANT_SUFFIX)
}

/** A stored image's link-preview JPEG, for og:image; null for images stored before it existed. */
export function shareImage(
  row: Pick<MediaRow, 'variants'>,
  publicBase: string,
): { src: string; width: number; height: number; type: 'image/jpeg' } | null {
  const share = row.variants.find(isShareVariant)
  return share
    ? { src: mediaUrl(share.path, publicBase), width: share.width, height: share.height, type: 'image/jpeg' }
    : null
}

/**
 * A media row whose file could not be brought into storage (an import whose source did not answer)
 * keeps the original address as its path, shown as it is.
 */
export function isExternalMediaPath(storagePath: string): boolean {
  return /^https?:\/\//i.test(storagePath)
}

/** A stored file's URL under the media public base (see `MediaReads`), or an external address. */
export function mediaUrl(storagePath: string, publicBase: string): string {
  return isExternalMediaPath(storagePath) ? storagePath : `${publicBase}${storagePath}`
}

/** The `<img>` attributes of a stored image: the smallest variant as `src`, all WebP ones in `srcset`. */
export function imageSource(row: MediaRow, alt: string, publicBase: string): ImageSource {
  const variants = row.variants.filter((v) => !isShareVariant(v)).sort((a, b) => a.width - b.width)
  const largest = variants.at(-1)
  const fallback = variants.find((v) => v.width >= 640) ?? largest
  return {
    src: mediaUrl(fallback?.path ?? row.path, publicBase),
    thumb: mediaUrl(variants[0]?.path ?? row.path, publicBase),
    srcSet: variants.map((v) => `${mediaUrl(v.path, publicBase)} ${v.width}w`).join(', '),
    width: largest?.width ?? row.width ?? 800,
    height: largest?.height ?? row.height ?? 800,
    alt,
  }
}

/** Media columns of a left join, as the catalogue queries select them. */
export type JoinedMediaColumns = {
  mediaKind: 'image' | 'video' | null
  mediaPath: string | null
  mediaWidth: number | null
  mediaHeight: number | null
  mediaVariants: MediaVariant[] | null
}

/** The image of a joined media row, or null when the join found none or found a video. */
export function joinedImage(row: JoinedMediaColumns, alt: string, publicBase: string): ImageSource | null {
  if (!row.mediaPath || row.mediaKind !== 'image') return null
  return imageSource(
    {
      kind: 'image',
      path: row.mediaPath,
      width: row.mediaWidth,
      height: row.mediaHeight,
      variants: row.mediaVariants ?? [],
    },
    alt,
    publicBase,
  )
}

/** Spec §3: an address containing .mp4, .webm or .ogg is a video. */
export function isVideoUrl(url: string): boolean {
  return /\.(mp4|webm|ogg)/i.test(url)
}
