/** One stored size of an image (a WebP file under the media storage). */
export type MediaVariant = { width: number; height: number; path: string }
