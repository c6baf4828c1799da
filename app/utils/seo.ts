import type { MetaDescriptor } from 'react-router'

type StoreMatch = { id: string; data?: unknown } | undefined

export type SeoInput = {
  title: string
  /** The whole `<title>` the owner wrote ("SEO"), instead of "{title} | {shop}". */
  fullTitle?: string | null
  description: string
  /** Path of this page, for the canonical link. */
  path?: string
  image?: string
  type?: 'website' | 'product'
  extra?: MetaDescriptor[]
}

/** The storefront layout's data carries the shop name and public origin. */
export function storeFromMatches(matches: StoreMatch[]): { storeName: string; publicUrl: string } {
  const layout = matches.find((match) => match?.id === 'routes/tienda/layout')?.data as
    { store?: { storeName: string; publicUrl: string } } | undefined
  return layout?.store ?? { storeName: 'Vitrina', publicUrl: '' }
}

/** A link as search engines and link previews need it: absolute, on the shop's public origin. */
export function absoluteUrl(url: string, publicUrl: string): string {
  return /^https?:\/\//.test(url) ? url : `${publicUrl}${url}`
}

/** A page's default `<title>`: "{name} | {shop}". */
export const pageTitle = (name: string, storeName: string) => `${name} | ${storeName}`

export function seo(matches: StoreMatch[], input: SeoInput): MetaDescriptor[] {
  const { storeName, publicUrl } = storeFromMatches(matches)
  const title = input.fullTitle || pageTitle(input.title, storeName)
  const absolute = (url: string) => absoluteUrl(url, publicUrl)
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: input.description },
    { property: 'og:site_name', content: storeName },
    { property: 'og:title', content: input.title },
    { property: 'og:description', content: input.description },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:locale', content: 'es_CO' },
  ]
  if (input.path !== undefined) {
    tags.push({ tagName: 'link', rel: 'canonical', href: absolute(input.path) })
    tags.push({ property: 'og:url', content: absolute(input.path) })
  }
  if (input.image) tags.push({ property: 'og:image', content: absolute(input.image) })
  return [...tags, ...(input.extra ?? [])]
}
