import type { ImageSource } from '#app/modules/media/image-source.ts'
import { HIGH_FETCH_PRIORITY, LOW_FETCH_PRIORITY } from '#app/utils/image-preload.ts'

/**
 * A responsive WebP image with intrinsic size set, so the layout never shifts. A `high` priority
 * image is fetched at once and first (its route preloads it from the head too, `imagePreload`); a
 * `low` one, when near the screen, after what the page fetches with more priority.
 */
export function ProductImage({
  image,
  sizes,
  className,
  priority,
}: {
  image: ImageSource | null
  sizes: string
  className?: string
  priority?: 'high' | 'low'
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
      loading={priority === 'high' ? 'eager' : 'lazy'}
      {...(priority === 'high' ? HIGH_FETCH_PRIORITY : priority === 'low' ? LOW_FETCH_PRIORITY : {})}
      decoding="async"
      className={className}
    />
  )
}
