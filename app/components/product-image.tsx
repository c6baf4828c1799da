import type { ImageSource } from '#app/modules/media/image-source.ts'

/** A responsive WebP image with intrinsic size set, so the layout never shifts. */
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
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={className}
    />
  )
}
