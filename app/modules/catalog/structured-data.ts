import { bogotaDay } from '#app/utils/bogota-days.ts'
import { categoryPath, productPath } from '#app/utils/paths.ts'
import { absoluteUrl } from '#app/utils/seo.ts'
import type { ProductDetail } from './catalog.server.ts'

/**
 * The storefront's structured data (JSON-LD), as Google's rich results want it: `Product` with its
 * `Offer` (merchant listings and product snippets) and `BreadcrumbList` on product and category
 * pages. Required and recommended properties checked in structured-data.test.ts:
 * https://developers.google.com/search/docs/appearance/structured-data/product-snippet,
 * …/merchant-listing and …/breadcrumb.
 */

export type StructuredDataShop = { storeName: string; origin: string }

/** Pesos with two decimals and a point, as schema.org's `price` wants (no currency sign). */
const pesos = (centavos: number) => (centavos / 100).toFixed(2)

/**
 * The last day (Bogotá) the promotion's price holds: `priceValidUntil` is a date, and a promotion
 * ending at midnight has its last day the day before.
 */
export function lastDayBefore(end: Date): string {
  return bogotaDay(new Date(end.getTime() - 1))
}

type ProductForData = Pick<
  ProductDetail,
  'sku' | 'slug' | 'name' | 'description' | 'finalPrice' | 'available' | 'media' | 'priceValidUntil'
>

/** A product page's `Product`: name, image, description, sku, brand (the shop) and its offer. */
export function productJsonLd(product: ProductForData, shop: StructuredDataShop) {
  const url = absoluteUrl(productPath(product), shop.origin)
  const images = product.media.flatMap((m) =>
    m.kind === 'image' ? [absoluteUrl(m.image.src, shop.origin)] : [],
  )
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    // Google wants at least one image; a product without photos has none to give (the feeds leave it out).
    ...(images.length ? { image: images } : {}),
    description: product.description,
    sku: product.sku,
    brand: { '@type': 'Brand', name: shop.storeName },
    url,
    offers: {
      '@type': 'Offer',
      url,
      priceCurrency: 'COP',
      price: pesos(product.finalPrice),
      ...(product.priceValidUntil ? { priceValidUntil: lastDayBefore(product.priceValidUntil) } : {}),
      availability: product.available > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
  }
}

/** A `BreadcrumbList`: the home page, then each step; every item with its canonical URL. */
export function breadcrumbJsonLd(steps: { name: string; path: string }[], shop: StructuredDataShop) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [{ name: 'Inicio', path: '/' }, ...steps].map((step, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: step.name,
      item: absoluteUrl(step.path, shop.origin),
    })),
  }
}

/** A product page's trail: its first category (as the page lists them), then the product. */
export function productBreadcrumb(
  product: Pick<ProductDetail, 'sku' | 'slug' | 'name' | 'categories'>,
  shop: StructuredDataShop,
) {
  const [category] = product.categories
  return breadcrumbJsonLd(
    [
      ...(category ? [{ name: category.name, path: categoryPath(category) }] : []),
      { name: product.name, path: productPath(product) },
    ],
    shop,
  )
}

/** JSON-LD as a script's text: `<` escaped so the data can never close the script tag. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}
