import type { MetaDescriptor } from 'react-router'

/**
 * `fetchpriority` spelled as React 18 passes it to the DOM without a warning: it does not know the
 * camelCase `fetchPriority` (ADR 0017).
 */
export const HIGH_FETCH_PRIORITY = { fetchpriority: 'high' } as const
export const LOW_FETCH_PRIORITY = { fetchpriority: 'low' } as const

/**
 * A `<link rel="preload">` in the head for an image the first view paints large, with the sources
 * and sizes its `<img>` or `<source>` will pick, so it downloads before the body is parsed. React 19
 * emitted these itself for eager images; React 18 leaves them to the routes' `meta`.
 */
export function imagePreload(
  image: { src: string; srcSet: string },
  sizes: string,
  media?: string,
): MetaDescriptor {
  return {
    tagName: 'link',
    rel: 'preload',
    as: 'image',
    href: image.src,
    imageSrcSet: image.srcSet,
    imageSizes: sizes,
    ...HIGH_FETCH_PRIORITY,
    ...(media ? { media } : {}),
  }
}
