import { productPath } from '#app/utils/paths.ts'

/**
 * The catalog feeds (issue 27, "Marketing"): the retail catalogue as RSS 2.0 with Google's `g:`
 * namespace, which Meta's catalogs (Facebook, Instagram, WhatsApp) and Google Merchant Center both
 * read. Pure: the products come read and priced (`readFeedProducts`, feeds.server.ts); here each
 * platform's items, the products it leaves out and why, and the XML.
 */

export const FEED_PLATFORMS = ['meta', 'google'] as const
export type FeedPlatform = (typeof FEED_PLATFORMS)[number]

/** Where each feed is served (registered in app/routes.ts): stable, the platforms fetch them on a schedule. */
export const FEED_PATHS: Record<FeedPlatform, string> = {
  meta: '/catalogo/meta.xml',
  google: '/catalogo/google.xml',
}

export const FEED_CONTENT_TYPE = 'application/xml; charset=utf-8'
export const GOOGLE_NAMESPACE = 'http://base.google.com/ns/1.0'

/**
 * Google's product taxonomy, which Meta reads too: 188 is "Apparel & Accessories > Jewelry", what
 * the shop sells (collares, aretes, pulseras, anillos…). The catalogue has no category of its own
 * that maps to the taxonomy; each product's first category goes in `product_type`.
 */
export const GOOGLE_PRODUCT_CATEGORY = '188'

/** Each platform's limits, in characters: ids and titles past them are refused or cut. */
export const FEED_LIMITS: Record<FeedPlatform, { id: number; title: number; description: number }> = {
  meta: { id: 100, title: 200, description: 5000 },
  google: { id: 50, title: 150, description: 5000 },
}

/** Why a product is not in a feed, as the Marketing page shows it. */
export const LEFT_OUT_REASONS = {
  wholesale: 'No se muestra al público (solo mayorista)',
  hidden: 'No se muestra al público',
  noName: 'Sin nombre',
  noPrice: 'Sin precio de venta al público',
  freePrice: 'El descuento deja el precio en cero',
  noImage: 'Sin imagen',
  badSku: 'El SKU tiene caracteres que el catálogo no admite',
  longSku: (max: number) => `SKU de más de ${max} caracteres`,
} as const

/** A product as the feeds need it, read and priced as the storefront shows it now. */
export type FeedProduct = {
  sku: string
  name: string
  /** The slug of its page's URL (`productPath`). */
  slug: string
  description: string
  showRetail: boolean
  showWholesale: boolean
  /** Level 1, centavos: the price before any discount. */
  listPrice: number
  /** What the shopper pays for one unit now: its own discount and the running automatic promotions. */
  price: number
  /**
   * When promotions make `price`, and they end: from when this price holds until it changes. Null
   * when the price holds with no end (the product's own discount, or promotions without an end).
   */
  saleWindow: { starts: Date; ends: Date } | null
  /** Stock less reserved units. */
  available: number
  /** The main image's largest WebP variant, absolute; null when the product has no image. */
  image: string | null
  /** The same image's JPEG link-preview variant, absolute; null for images stored before it existed. */
  jpegImage: string | null
  /** Its first category's name. */
  productType: string | null
}

/** The shop as the feeds present it: its name (the brand) and public origin (no trailing slash). */
export type FeedShop = { name: string; origin: string }

/** One product of a feed: each field's value, as its element says it. */
export type FeedItem = {
  id: string
  title: string
  description: string
  link: string
  image_link: string
  availability: string
  condition: 'new'
  price: string
  sale_price?: string
  sale_price_effective_date?: string
  brand: string
  google_product_category: string
  product_type?: string
  /** Google: the products carry no GTIN or MPN. */
  identifier_exists?: 'no'
}

export type LeftOutProduct = { sku: string; name: string; reasons: string[] }

export type CatalogFeed = { platform: FeedPlatform; items: FeedItem[]; leftOut: LeftOutProduct[] }

/**
 * A platform's feed: one item per product it can list, and each product it cannot with the
 * reasons. The Marketing page shows what this leaves out, so the page and the feed always agree.
 */
export function catalogFeed(
  platform: FeedPlatform,
  products: readonly FeedProduct[],
  shop: FeedShop,
): CatalogFeed {
  const items: FeedItem[] = []
  const leftOut: LeftOutProduct[] = []
  for (const product of products) {
    const built = feedItem(platform, product, shop)
    if ('reasons' in built)
      leftOut.push({ sku: product.sku, name: singleLine(product.name), reasons: built.reasons })
    else items.push(built.item)
  }
  return { platform, items, leftOut }
}

function feedItem(
  platform: FeedPlatform,
  product: FeedProduct,
  shop: FeedShop,
): { item: FeedItem } | { reasons: string[] } {
  // A product the storefront does not show has no page to link to: nothing else about it matters.
  if (!product.showRetail) {
    return { reasons: [product.showWholesale ? LEFT_OUT_REASONS.wholesale : LEFT_OUT_REASONS.hidden] }
  }
  const limits = FEED_LIMITS[platform]
  const title = singleLine(product.name)
  const image =
    platform === 'meta' ? (product.jpegImage ?? product.image) : (product.image ?? product.jpegImage)
  const reasons: string[] = []
  // The id must be the pixel's `content_ids` (the sku) exactly: a sku the XML cannot carry, or
  // longer than the platform takes, cannot be listed under another id.
  if (xmlSafe(product.sku) !== product.sku || product.sku.trim() !== product.sku || !product.sku) {
    reasons.push(LEFT_OUT_REASONS.badSku)
  } else if ([...product.sku].length > limits.id) reasons.push(LEFT_OUT_REASONS.longSku(limits.id))
  if (!title) reasons.push(LEFT_OUT_REASONS.noName)
  if (product.listPrice <= 0) reasons.push(LEFT_OUT_REASONS.noPrice)
  else if (product.price <= 0) reasons.push(LEFT_OUT_REASONS.freePrice)
  if (!image) reasons.push(LEFT_OUT_REASONS.noImage)
  if (reasons.length || !image) return { reasons }

  const onSale = product.price < product.listPrice
  const item: FeedItem = {
    id: product.sku,
    title: cut(title, limits.title),
    description: cut(plainText(product.description) || title, limits.description),
    link: `${shop.origin}${productPath(product)}`,
    image_link: image,
    availability: availabilityOf(platform, product.available > 0),
    condition: 'new',
    price: priceText(product.listPrice),
    ...(onSale ? { sale_price: priceText(product.price) } : {}),
    ...(onSale && product.saleWindow
      ? { sale_price_effective_date: effectiveDates(product.saleWindow.starts, product.saleWindow.ends) }
      : {}),
    brand: cut(singleLine(shop.name), 70),
    google_product_category: GOOGLE_PRODUCT_CATEGORY,
    ...(product.productType && singleLine(product.productType)
      ? { product_type: cut(singleLine(product.productType), 750) }
      : {}),
    ...(platform === 'google' ? { identifier_exists: 'no' as const } : {}),
  }
  return { item }
}

/** Meta writes availability with a space, Google with an underscore. */
function availabilityOf(platform: FeedPlatform, inStock: boolean): string {
  const words = inStock ? 'in stock' : 'out of stock'
  return platform === 'google' ? words.replaceAll(' ', '_') : words
}

/** Centavos as both platforms want a price: pesos with two decimals and the currency, "45000.00 COP". */
export function priceText(centavos: number): string {
  const whole = Math.trunc(centavos)
  return `${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')} COP`
}

/** A moment in Bogotá time (UTC−5 all year), ISO 8601: "2026-11-27T00:00:00-05:00". */
function bogotaIso(at: Date): string {
  return `${new Date(at.getTime() - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`
}

/** `sale_price_effective_date`: start and end, ISO 8601, joined by a slash. */
export function effectiveDates(starts: Date, ends: Date): string {
  return `${bogotaIso(starts)}/${bogotaIso(ends)}`
}

/**
 * Characters XML 1.0 cannot carry (C0 controls but tab and line breaks, lone surrogates, U+FFFE
 * and U+FFFF), and C1 controls, which it can but no feed reader wants.
 */
const NOT_IN_XML =
  // eslint-disable-next-line no-control-regex -- control characters are what is dropped
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Text without the characters XML cannot carry. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_IN_XML, '')
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

/** Text as an element's content or an attribute's value: escaped, and without what XML cannot carry. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)
}

/** One line: no control characters, runs of white space as one space. */
export function singleLine(text: string): string {
  return xmlSafe(text).replace(/\s+/g, ' ').trim()
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  aacute: 'á',
  eacute: 'é',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  Aacute: 'Á',
  Eacute: 'É',
  Iacute: 'Í',
  Oacute: 'Ó',
  Uacute: 'Ú',
  ntilde: 'ñ',
  Ntilde: 'Ñ',
  uuml: 'ü',
  Uuml: 'Ü',
  iexcl: '¡',
  iquest: '¿',
  laquo: '«',
  raquo: '»',
  deg: '°',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  bull: '•',
  middot: '·',
  copy: '©',
  reg: '®',
  trade: '™',
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ''
    }
    return NAMED_ENTITIES[name] ?? whole
  })
}

/**
 * A description as plain text, which both platforms ask for: tags (an imported shop's HTML) out,
 * block ends as line breaks, entities decoded, no control characters, no runs of spaces or blank
 * lines. A "<3" or "talla < 8" typed by the owner is no tag and stays.
 */
export function plainText(text: string): string {
  const withoutTags = text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr)\b[^<>]*>/gi, '\n')
    .replace(/<\/?[a-z][^<>]*>/gi, ' ')
  return xmlSafe(decodeEntities(withoutTags))
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** At most `max` characters (whole code points, so no emoji is split), "…" ending what was cut. */
export function cut(text: string, max: number): string {
  const chars = [...text]
  if (chars.length <= max) return text
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`
}

/** The fields in the order each feed writes them, and the element each goes in. */
const FIELD_ORDER: (keyof FeedItem)[] = [
  'id',
  'title',
  'description',
  'link',
  'image_link',
  'availability',
  'condition',
  'price',
  'sale_price',
  'sale_price_effective_date',
  'brand',
  'google_product_category',
  'product_type',
  'identifier_exists',
]

/**
 * Google's own examples write title, link and description as plain RSS elements and the rest in
 * `g:`; Meta's write every field in `g:`. Each feed follows its platform's.
 */
function elementOf(platform: FeedPlatform, field: keyof FeedItem): string {
  if (platform === 'google' && (field === 'title' || field === 'link' || field === 'description'))
    return field
  return `g:${field}`
}

const CHANNEL_TITLES: Record<FeedPlatform, string> = {
  meta: 'Catálogo para Facebook, Instagram y WhatsApp',
  google: 'Catálogo para Google Merchant Center',
}

/** The feed as RSS 2.0 with the `g:` namespace, UTF-8. */
export function feedXml(feed: CatalogFeed, shop: FeedShop): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rss version="2.0" xmlns:g="${GOOGLE_NAMESPACE}">`,
    '<channel>',
    `<title>${escapeXml(`${singleLine(shop.name)}: ${CHANNEL_TITLES[feed.platform]}`)}</title>`,
    `<link>${escapeXml(`${shop.origin}/`)}</link>`,
    `<description>${escapeXml(`Productos de ${singleLine(shop.name)} con precio, existencias e imagen.`)}</description>`,
  ]
  for (const item of feed.items) {
    lines.push('<item>')
    for (const field of FIELD_ORDER) {
      const value = item[field]
      if (value === undefined) continue
      const element = elementOf(feed.platform, field)
      lines.push(`<${element}>${escapeXml(value)}</${element}>`)
    }
    lines.push('</item>')
  }
  lines.push('</channel>', '</rss>', '')
  return lines.join('\n')
}
