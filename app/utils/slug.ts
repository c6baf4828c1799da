import { normalizeSearchText } from './text.ts'

/** The longest slug kept: long enough for any product name, short enough for a shared link. */
export const SLUG_MAX_LENGTH = 80

/**
 * A readable URL part ("SEO"): lower case, no accents, words joined by hyphens, only `a-z` and
 * `0-9` ("Collar Corazón Dorado 18k" → "collar-corazon-dorado-18k"). Cut at a word's end past
 * `SLUG_MAX_LENGTH`. '' when nothing readable is left (a name of emoji): the URL then has no slug.
 */
export function slugify(text: string): string {
  const slug = normalizeSearchText(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  if (slug.length <= SLUG_MAX_LENGTH) return slug
  const cut = slug.slice(0, SLUG_MAX_LENGTH + 1)
  const end = cut.lastIndexOf('-')
  return (end > 0 ? cut.slice(0, end) : slug.slice(0, SLUG_MAX_LENGTH)).replace(/-+$/, '')
}

/** A product's or category's slug: the one kept, or one from its name (rows saved before slugs). */
export function slugOf(row: { slug: string | null; name: string }): string {
  return row.slug ?? slugify(row.name)
}
