import { describe, expect, test } from 'vitest'
import {
  catalogFeed,
  cut,
  effectiveDates,
  escapeXml,
  FEED_LIMITS,
  feedXml,
  LEFT_OUT_REASONS,
  plainText,
  priceText,
  singleLine,
  type FeedProduct,
  type FeedShop,
} from './feeds.ts'
import { feedItemsOf, readXml } from './xml-reader.test-helper.ts'

/** The feeds' pure half: text, prices, dates, which products go in, and the XML. */

const shop: FeedShop = { name: 'Vitrina & Co', origin: 'https://tienda.example.co' }

function product(overrides: Partial<FeedProduct> = {}): FeedProduct {
  return {
    sku: 'COL-GEN-ABCD1234',
    name: 'Collar Luna',
    slug: 'collar-luna',
    description: 'Collar de plata.',
    showRetail: true,
    showWholesale: false,
    listPrice: 4_500_000,
    price: 4_500_000,
    saleWindow: null,
    available: 3,
    image: 'https://tienda.example.co/media/products/a-1280.webp',
    jpegImage: 'https://tienda.example.co/media/products/a-share.jpg',
    productType: 'Collares',
    ...overrides,
  }
}

describe('text', () => {
  test('prices are pesos with two decimals and the currency', () => {
    expect(priceText(4_500_000)).toBe('45000.00 COP')
    expect(priceText(4_500_050)).toBe('45000.50 COP')
    expect(priceText(5)).toBe('0.05 COP')
  })

  test('effective dates are ISO 8601 in Bogotá time, start/end', () => {
    expect(effectiveDates(new Date('2030-01-01T05:00:00Z'), new Date('2030-02-01T04:59:59Z'))).toBe(
      '2030-01-01T00:00:00-05:00/2030-01-31T23:59:59-05:00',
    )
  })

  test('escaping covers the five XML characters and drops what XML cannot carry', () => {
    expect(escapeXml(`a & b < c > d "e" 'f'`)).toBe('a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;')
    expect(escapeXml('x\u0000\u0001\u0008\u000b\u000c\u001f\u007f\u0085\ufffe\uffffy')).toBe('xy')
    // A lone surrogate half goes; a whole emoji stays.
    expect(escapeXml('a\ud83db 💎')).toBe('ab 💎')
    // Tab and line breaks are XML characters.
    expect(escapeXml('a\tb\nc\rd')).toBe('a\tb\nc\rd')
  })

  test('a description is plain text: tags out, entities decoded, spacing tidy, a typed "<3" kept', () => {
    expect(plainText('<p>Hermoso&nbsp;collar &amp; aretes</p><br><b>Oro</b>   <3')).toBe(
      'Hermoso collar & aretes\n\nOro <3',
    )
    expect(plainText('Talla < 8 y > 5')).toBe('Talla < 8 y > 5')
    expect(plainText('<script>alert(1)</script>Anillo<!-- nota -->')).toBe('Anillo')
    expect(plainText('Coraz&oacute;n &#241; &#x1F48E;')).toBe('Corazón ñ 💎')
    expect(plainText('a\n\n\n\nb   c\u0001')).toBe('a\n\nb c')
  })

  test('cutting keeps whole characters and marks the cut', () => {
    expect(cut('abcdef', 6)).toBe('abcdef')
    expect(cut('abcdefg', 6)).toBe('abcde…')
    expect([...cut('💎'.repeat(10), 4)]).toEqual(['💎', '💎', '💎', '…'])
    expect(singleLine('  Collar\n\tLuna\u0002 ')).toBe('Collar Luna')
  })
})

describe('items', () => {
  test('a product in stock, at level 1: every field, Meta with spaces and Google with underscores', () => {
    const meta = catalogFeed('meta', [product()], shop)
    expect(meta.leftOut).toEqual([])
    expect(meta.items).toEqual([
      {
        id: 'COL-GEN-ABCD1234',
        title: 'Collar Luna',
        description: 'Collar de plata.',
        link: 'https://tienda.example.co/producto/COL-GEN-ABCD1234/collar-luna',
        image_link: 'https://tienda.example.co/media/products/a-share.jpg',
        availability: 'in stock',
        condition: 'new',
        price: '45000.00 COP',
        brand: 'Vitrina & Co',
        google_product_category: '188',
        product_type: 'Collares',
      },
    ])
    const [google] = catalogFeed('google', [product({ available: 0 })], shop).items
    expect(google).toMatchObject({
      availability: 'out_of_stock',
      image_link: 'https://tienda.example.co/media/products/a-1280.webp',
      identifier_exists: 'no',
    })
  })

  test('each platform takes the other image when its own kind is missing', () => {
    const [meta] = catalogFeed('meta', [product({ jpegImage: null })], shop).items
    expect(meta?.image_link).toBe('https://tienda.example.co/media/products/a-1280.webp')
    const [google] = catalogFeed('google', [product({ image: null })], shop).items
    expect(google?.image_link).toBe('https://tienda.example.co/media/products/a-share.jpg')
  })

  test('a sale price only when the shopper pays less, with its dates when promotions end', () => {
    const [plain] = catalogFeed('google', [product()], shop).items
    expect(plain).not.toHaveProperty('sale_price')
    const [discounted] = catalogFeed('google', [product({ price: 3_600_000 })], shop).items
    expect(discounted).toMatchObject({ price: '45000.00 COP', sale_price: '36000.00 COP' })
    expect(discounted).not.toHaveProperty('sale_price_effective_date')
    const window = { starts: new Date('2030-01-01T05:00:00Z'), ends: new Date('2030-01-31T05:00:00Z') }
    const [promoted] = catalogFeed('meta', [product({ price: 3_150_000, saleWindow: window })], shop).items
    expect(promoted).toMatchObject({
      sale_price: '31500.00 COP',
      sale_price_effective_date: '2030-01-01T00:00:00-05:00/2030-01-31T00:00:00-05:00',
    })
  })

  test('the description falls back to the name, and long texts are cut to the platform', () => {
    const long = product({ name: 'N'.repeat(300), description: 'D'.repeat(6000) })
    const [meta] = catalogFeed('meta', [long], shop).items
    const [google] = catalogFeed('google', [long], shop).items
    expect([...meta!.title]).toHaveLength(FEED_LIMITS.meta.title)
    expect([...google!.title]).toHaveLength(FEED_LIMITS.google.title)
    expect([...google!.description]).toHaveLength(5000)
    const [bare] = catalogFeed('google', [product({ description: '  <p></p> ' })], shop).items
    expect(bare?.description).toBe('Collar Luna')
  })

  test('left out, with every reason that applies', () => {
    const feed = catalogFeed(
      'google',
      [
        product({ sku: 'A', showRetail: false, showWholesale: true, image: null, jpegImage: null }),
        product({ sku: 'B', showRetail: false }),
        product({ sku: 'C', image: null, jpegImage: null, listPrice: 0, price: 0 }),
        product({ sku: 'D', price: 0 }),
        product({ sku: 'E', name: ' \u0001 ' }),
        product({ sku: 'F'.repeat(51) }),
        product({ sku: 'G\u0001' }),
        product({ sku: 'H' }),
      ],
      shop,
    )
    expect(feed.items.map((item) => item.id)).toEqual(['H'])
    expect(feed.leftOut.map(({ sku, reasons }) => [sku, reasons])).toEqual([
      ['A', [LEFT_OUT_REASONS.wholesale]],
      ['B', [LEFT_OUT_REASONS.hidden]],
      ['C', [LEFT_OUT_REASONS.noPrice, LEFT_OUT_REASONS.noImage]],
      ['D', [LEFT_OUT_REASONS.freePrice]],
      ['E', [LEFT_OUT_REASONS.noName]],
      ['F'.repeat(51), ['SKU de más de 50 caracteres']],
      ['G\u0001', [LEFT_OUT_REASONS.badSku]],
    ])
    // Meta takes ids up to 100 characters.
    expect(catalogFeed('meta', [product({ sku: 'F'.repeat(51) })], shop).items).toHaveLength(1)
  })
})

describe('XML', () => {
  test('hostile names and descriptions still give well-formed RSS that reads back the same', () => {
    const hostile = product({
      sku: 'TST-A&B<"\'>',
      name: `Collar "Luna" & <Sol> 'Plata' 💎\u0001\u000b\u001f\u007f`,
      description: ']]> </item> <![CDATA[ x ]]> &bogus; & \ud800 😀',
      productType: 'Sets & regalos',
    })
    for (const platform of ['meta', 'google'] as const) {
      const xml = feedXml(catalogFeed(platform, [hostile], { ...shop, name: 'Tienda <&> "1"' }), {
        ...shop,
        name: 'Tienda <&> "1"',
      })
      expect(() => readXml(xml)).not.toThrow()
      const [item] = feedItemsOf(xml)
      expect(item).toMatchObject({
        id: 'TST-A&B<"\'>',
        title: `Collar "Luna" & <Sol> 'Plata' 💎`,
        description: ']]> <![CDATA[ x ]]> &bogus; & 😀',
        link: "https://tienda.example.co/producto/TST-A%26B%3C%22'%3E/collar-luna",
        brand: 'Tienda <&> "1"',
        product_type: 'Sets & regalos',
      })
    }
  })

  test('the reader refuses what is not well-formed (so the test above proves something)', () => {
    const wrap = (inner: string) =>
      `<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">${inner}</rss>`
    expect(() => readXml(wrap('<a>x & y</a>'))).toThrow()
    expect(() => readXml(wrap('<a>x < y</a>'))).toThrow()
    expect(() => readXml(wrap('<a>x \u0001</a>'))).toThrow()
    expect(() => readXml(wrap('<a><b></a></b>'))).toThrow()
    expect(() => readXml(wrap('<a>&nbsp;</a>'))).toThrow()
    expect(() => readXml(wrap('<h:a></h:a>'))).toThrow()
    expect(() => readXml(wrap('<a>]]></a>'))).toThrow()
    expect(() => readXml(`${wrap('')}<rss></rss>`)).toThrow()
    expect(() => readXml(wrap('<g:a b="1">&lt;&#233;&#x1F48E;</g:a>'))).not.toThrow()
  })
})
