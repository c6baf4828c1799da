import { isAdminPath } from './consent.ts'

/**
 * The page names the analytics may record, for the browser (the banner script hands `pageNameOf`
 * to the tracker) and the server (the beacons' validation): names made from the storefront's route
 * patterns, so no one can grow the monthly records with names of their own (spec §3, §5). The
 * element names are in track-names.ts.
 */

/** Pages with a fixed address, by their path. */
const FIXED_PAGES = [
  '/',
  '/carrito',
  '/buscar',
  '/finalizar-pedido',
  '/finalizar-pedido/success',
  '/finalizar-pedido/pending',
  '/finalizar-pedido/failure',
  '/politica-de-datos',
]

/** A product page whose product is not (or no longer) in the catalogue is counted under its pattern. */
export const PRODUCT_PAGE_PATTERN = '/producto/:sku'
/** Likewise a category page. */
export const CATEGORY_PAGE_PATTERN = '/categoria/:id'
/** The simulated payment page, one address per order: always counted under its pattern. */
export const PAYMENT_PAGE_PATTERN = '/pago-simulado/:id'
/** Every other address (a mistyped link, the "not found" page) shares one record. */
export const OTHER_PAGE = 'otra'

export type PageName =
  | { kind: 'fixed'; name: string }
  | { kind: 'product'; name: string; sku: string }
  | { kind: 'category'; name: string; id: string }

/**
 * The page name a storefront path is recorded under (a path as `location.pathname` gives it, or a
 * page name already made by this function: it is idempotent), or null for the back office, which is
 * never counted. Product and category pages keep their SKU or id, for the server to check against
 * the catalogue (`/producto/:sku` when it is unknown); anything else is `otra`.
 */
export function pageNameOf(path: string): PageName | null {
  if (isAdminPath(path)) return null
  let text = path.trim()
  try {
    text = decodeURIComponent(text)
  } catch {
    // Kept as written: it will not match a page and counts as "otra".
  }
  if (text.length > 1) text = text.replace(/\/+$/, '')
  const lower = text.toLowerCase()
  if (FIXED_PAGES.includes(lower)) return { kind: 'fixed', name: lower }
  if (lower === PAYMENT_PAGE_PATTERN || lower.startsWith('/pago-simulado/'))
    return { kind: 'fixed', name: PAYMENT_PAGE_PATTERN }
  // `/producto/:sku/:slug?`: the slug is for people; the SKU is the product.
  const product = /^\/producto\/([^/]+)(?:\/[^/]*)?$/i.exec(text)
  if (product) {
    const sku = product[1]!
    return sku === ':sku'
      ? { kind: 'fixed', name: PRODUCT_PAGE_PATTERN }
      : { kind: 'product', name: `/producto/${sku}`, sku }
  }
  // `/categoria/:id/:slug?`: the slug in the address is for people; the id is the category.
  const category = /^\/categoria\/([^/]+)(?:\/[^/]*)?$/i.exec(text)
  if (category) {
    const id = category[1]!
    return id === ':id'
      ? { kind: 'fixed', name: CATEGORY_PAGE_PATTERN }
      : { kind: 'category', name: `/categoria/${id}`, id }
  }
  return { kind: 'fixed', name: OTHER_PAGE }
}
