import { describe, expect, test } from 'vitest'
import {
  breadcrumbJsonLd,
  jsonLdText,
  lastDayBefore,
  productBreadcrumb,
  productJsonLd,
} from './structured-data.ts'

/**
 * Google's requirements, checked on what the product page puts in its JSON-LD:
 * - Product snippets and merchant listings: `name`, and `offers` with `price` (a number, `.` for
 *   decimals) and `priceCurrency` (ISO 4217); merchant listings also `image`. Recommended: `brand`,
 *   `description`, `sku`, `offers.availability` (a schema.org ItemAvailability URL), `offers.url`,
 *   `offers.priceValidUntil` (ISO 8601 date) and `offers.itemCondition`.
 * - BreadcrumbList: `itemListElement`, each a `ListItem` with `position` (1, 2…), `name`, and `item`
 *   (an absolute URL).
 */

const shop = { storeName: 'Luna Bisutería', origin: 'https://tienda.example.co' }
const image = (src: string) => ({ kind: 'image' as const, image: { src } as never })

const product = {
  sku: 'COL-ABC-12345678',
  slug: 'collar-luna',
  name: 'Collar Luna',
  description: 'Collar dorado con dije de luna.',
  finalPrice: 45_000_50,
  available: 3,
  media: [
    image('/media/products/a-1280.webp'),
    { kind: 'video' as const, src: '/media/v.mp4' },
    image('https://cdn.example.co/b.webp'),
  ],
  categories: [{ id: 'Categoria_1', name: 'Collares', slug: 'collares' }],
}

/** Every rule above that a Product must meet; returns what it breaks. */
function productProblems(data: Record<string, unknown>): string[] {
  const problems: string[] = []
  const offers = data.offers as Record<string, unknown> | undefined
  if (data['@context'] !== 'https://schema.org' || data['@type'] !== 'Product') problems.push('type')
  if (typeof data.name !== 'string' || !data.name) problems.push('name')
  if (!Array.isArray(data.image) || !data.image.length || !data.image.every((u) => /^https:\/\//.test(u)))
    problems.push('image')
  for (const key of ['description', 'sku'] as const)
    if (typeof data[key] !== 'string' || !data[key]) problems.push(key)
  const brand = data.brand as Record<string, unknown> | undefined
  if (brand?.['@type'] !== 'Brand' || typeof brand.name !== 'string' || !brand.name) problems.push('brand')
  if (!offers || offers['@type'] !== 'Offer') return [...problems, 'offers']
  if (typeof offers.price !== 'string' || !/^\d+(\.\d+)?$/.test(offers.price)) problems.push('price')
  if (offers.priceCurrency !== 'COP') problems.push('priceCurrency')
  if (
    !['https://schema.org/InStock', 'https://schema.org/OutOfStock'].includes(offers.availability as string)
  )
    problems.push('availability')
  if (typeof offers.url !== 'string' || !/^https:\/\//.test(offers.url)) problems.push('url')
  if ('priceValidUntil' in offers && !/^\d{4}-\d{2}-\d{2}$/.test(String(offers.priceValidUntil)))
    problems.push('priceValidUntil')
  if (offers.itemCondition !== 'https://schema.org/NewCondition') problems.push('itemCondition')
  return problems
}

describe('Product', () => {
  test('without a promotion: every required and recommended property, no priceValidUntil', () => {
    const data = productJsonLd(product, shop)
    expect(productProblems(data)).toEqual([])
    expect(data).toMatchObject({
      name: 'Collar Luna',
      sku: 'COL-ABC-12345678',
      image: ['https://tienda.example.co/media/products/a-1280.webp', 'https://cdn.example.co/b.webp'],
      brand: { '@type': 'Brand', name: 'Luna Bisutería' },
      url: 'https://tienda.example.co/producto/COL-ABC-12345678/collar-luna',
      offers: {
        url: 'https://tienda.example.co/producto/COL-ABC-12345678/collar-luna',
        price: '45000.50',
        priceCurrency: 'COP',
        availability: 'https://schema.org/InStock',
      },
    })
    expect(data.offers).not.toHaveProperty('priceValidUntil')
  })

  test('with a promotion that ends: priceValidUntil is its last day in Bogotá', () => {
    const data = productJsonLd(
      { ...product, finalPrice: 30_000_00, priceValidUntil: new Date('2026-12-01T05:00:00Z') },
      shop,
    )
    expect(productProblems(data)).toEqual([])
    expect(data.offers).toMatchObject({ price: '30000.00', priceValidUntil: '2026-11-30' })
    // Ending mid-afternoon on the 15th: the 15th is still a day of that price.
    expect(lastDayBefore(new Date('2026-12-15T20:00:00Z'))).toBe('2026-12-15')
  })

  test('sold out says OutOfStock; a product without photos has no image to give', () => {
    const data = productJsonLd({ ...product, available: 0, media: [] }, shop)
    expect(data.offers.availability).toBe('https://schema.org/OutOfStock')
    expect(productProblems(data)).toEqual(['image'])
  })

  test('its text can never close the script tag', () => {
    const text = jsonLdText(productJsonLd({ ...product, name: '</script><script>alert(1)</script>' }, shop))
    expect(text).not.toContain('</script')
    expect(JSON.parse(text).name).toBe('</script><script>alert(1)</script>')
  })
})

describe('BreadcrumbList', () => {
  const listProblems = (data: { itemListElement: Record<string, unknown>[] }) =>
    data.itemListElement.flatMap((item, index) =>
      item['@type'] === 'ListItem' &&
      item.position === index + 1 &&
      typeof item.name === 'string' &&
      /^https:\/\//.test(String(item.item))
        ? []
        : [index],
    )

  test('a product’s: home, its first category, the product, each at its canonical URL', () => {
    const data = productBreadcrumb(product, shop)
    expect(data['@type']).toBe('BreadcrumbList')
    expect(listProblems(data)).toEqual([])
    expect(data.itemListElement.map((item) => [item.name, item.item])).toEqual([
      ['Inicio', 'https://tienda.example.co/'],
      ['Collares', 'https://tienda.example.co/categoria/Categoria_1/collares'],
      ['Collar Luna', 'https://tienda.example.co/producto/COL-ABC-12345678/collar-luna'],
    ])
  })

  test('a product in no category: home and the product', () => {
    const data = productBreadcrumb({ ...product, categories: [] }, shop)
    expect(data.itemListElement.map((item) => item.position)).toEqual([1, 2])
    expect(listProblems(breadcrumbJsonLd([], shop))).toEqual([])
  })
})
