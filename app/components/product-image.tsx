import type { ImageSource } from '#app/modules/media/image-source.ts'
import { HIGH_FETCH_PRIORITY } from '#app/utils/image-preload.ts'

/**
 * A responsive WebP image with intrinsic size set, so the layout never shifts. A `priority` image is
 * fetched at once and first; its route preloads it from the head too (`imagePreload`).
 */
export function ProductImage({
  image,
  sizes,
  className,
  priority = false,
}: {
  image: ImageSource | null
  sizes: string
  className?: string
  priority?: boolean
}) {
  if (!image) {
    return <div className={`bg-brand-50 ${className ?? ''}`} aria-hidden="true" />
  }
  return (
    <img
      src={image.src}
      srcSet={image.srcSet}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={image.alt}
      loading={priority ? 'eager' : 'lazy'}
      {...(priority ? HIGH_FETCH_PRIORITY : {})}
      decoding="async"
      className={className}
    />
  )
}
