import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { createCategory, createProduct } from '#tests/factories.ts'
import { setupTestDatabase } from '#tests/db.ts'
import {
  decodeShuffleCursor,
  getCartProducts,
  getCategory,
  getProductDetail,
  listBestSellers,
  listCategories,
  listCategoryProducts,
  listShuffledProducts,
  listSitemapEntries,
  searchProducts,
} from './catalog.server.ts'
import { getAdminCategory } from './admin-categories.server.ts'
import { getEditableProduct } from './admin-products.server.ts'
import { media, products } from './schema.ts'

const test_ = setupTestDatabase()

describe('retail visibility (spec §5)', () => {
  let categoryId: string
  const skus: Record<string, string> = {}

  beforeAll(async () => {
    const db = test_.db
    categoryId = (await createCategory(db, { name: 'Visibilidad' })).id
    const categoryIds = [categoryId]
    skus.visible = (await createProduct(db, { name: 'Collar Visible', categoryIds, unitsOut: 5 })).sku
    skus.noStock = (
      await createProduct(db, { name: 'Collar Sin Stock', categoryIds, stock: 0, unitsOut: 50 })
    ).sku
    skus.hidden = (
      await createProduct(db, { name: 'Collar Oculto', categoryIds, showRetail: false, unitsOut: 60 })
    ).sku
    skus.reserved = (
      await createProduct(db, { name: 'Collar Reservado', categoryIds, stock: 2, reserved: 2, unitsOut: 70 })
    ).sku
  })

  test('lists leave out products without available units or hidden from retail', async () => {
    const { items } = await listCategoryProducts(test_.reads, categoryId, 0, 20)
    expect(items.map((p) => p.sku)).toEqual([skus.visible])
    const best = await listBestSellers(test_.reads, 4)
    expect(best.map((p) => p.sku)).not.toContain(skus.noStock)
    expect(best.map((p) => p.sku)).not.toContain(skus.hidden)
    expect(best.map((p) => p.sku)).not.toContain(skus.reserved)
  })

  test('search leaves them out too', async () => {
    expect((await searchProducts(test_.reads, 'collar')).map((p) => p.sku)).toEqual([skus.visible])
  })

  test('a sold-out product still has its page; a hidden one does not', async () => {
    const soldOut = await getProductDetail(test_.reads, skus.noStock!)
    expect(soldOut?.available).toBe(0)
    expect(await getProductDetail(test_.reads, skus.hidden!)).toBeNull()
    expect(await getProductDetail(test_.reads, 'NO-EXISTE')).toBeNull()
  })

  test('available units are stock less reserved', async () => {
    const [reserved] = await getCartProducts(test_.reads, [skus.reserved!])
    expect(reserved?.available).toBe(0)
  })

  test('the sitemap lists only visible products', async () => {
    const { products: entries } = await listSitemapEntries(test_.db)
    expect(entries.map((p) => p.sku)).toContain(skus.visible)
    expect(entries.map((p) => p.sku)).not.toContain(skus.hidden)
  })
})

describe('lists', () => {
  let categoryId: string
  beforeAll(async () => {
    const db = test_.db
    categoryId = (await createCategory(db, { name: 'Listas' })).id
    for (let i = 0; i < 45; i++) {
      await createProduct(db, {
        name: `Pulsera Lista ${String(i).padStart(2, '0')}`,
        categoryIds: [categoryId],
        unitsOut: 1000 + i,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })
    }
  })

  test('best sellers are the 4 with the most units out, descending', async () => {
    const best = await listBestSellers(test_.reads, 4)
    expect(best.map((p) => p.name)).toEqual([
      'Pulsera Lista 44',
      'Pulsera Lista 43',
      'Pulsera Lista 42',
      'Pulsera Lista 41',
    ])
  })

  test('category pages are newest first, 20 then 10 more, until none remain', async () => {
    const first = await listCategoryProducts(test_.reads, categoryId, 0, 20)
    expect(first.items).toHaveLength(20)
    expect(first.items[0]?.name).toBe('Pulsera Lista 44')
    expect(first.hasMore).toBe(true)
    const second = await listCategoryProducts(test_.reads, categoryId, 20, 10)
    expect(second.items[0]?.name).toBe('Pulsera Lista 24')
    const last = await listCategoryProducts(test_.reads, categoryId, 40, 10)
    expect(last.items).toHaveLength(5)
    expect(last.hasMore).toBe(false)
  })

  test('the shuffled list visits every visible product exactly once, from any seed', async () => {
    const [{ count }] = (
      await test_.database.executeSql(
        'select count(*)::int as count from products where show_retail and stock > reserved',
      )
    ).rows as [{ count: number }]
    for (const seed of [0, 1_000_000_000, 2_147_483_646]) {
      const seen: string[] = []
      let page = await listShuffledProducts(test_.reads, { seed }, 16)
      seen.push(...page.items.map((p) => p.sku))
      while (page.next) {
        page = await listShuffledProducts(test_.reads, decodeShuffleCursor(page.next)!, 10)
        seen.push(...page.items.map((p) => p.sku))
      }
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen).toHaveLength(count)
    }
  })

  test('different seeds give different orders', async () => {
    const a = await listShuffledProducts(test_.reads, { seed: 1 }, 16)
    const b = await listShuffledProducts(test_.reads, { seed: 1_500_000_000 }, 16)
    expect(a.items.map((p) => p.sku)).not.toEqual(b.items.map((p) => p.sku))
  })

  const wholeOrder = async (seed: number, first: number, next: number) => {
    const seen: string[] = []
    let page = await listShuffledProducts(test_.reads, { seed }, first)
    seen.push(...page.items.map((p) => p.sku))
    while (page.next) {
      page = await listShuffledProducts(test_.reads, decodeShuffleCursor(page.next)!, next)
      seen.push(...page.items.map((p) => p.sku))
    }
    return seen
  }

  test('each seed shuffles anew: two seeds share few neighbours, not one order from another start', async () => {
    const neighbours = (order: string[]) =>
      new Set(order.slice(1).map((sku, i) => [sku, order[i]!].sort().join('|')))
    const orders = await Promise.all([11, 22, 33, 1_900_000_000].map((seed) => wholeOrder(seed, 200, 200)))
    for (const order of orders) expect(order.length).toBeGreaterThanOrEqual(45)
    for (let i = 1; i < orders.length; i++) {
      const a = neighbours(orders[0]!)
      const shared = [...neighbours(orders[i]!)].filter((pair) => a.has(pair))
      // A rotation of one fixed order would share all neighbours but one.
      expect(shared.length).toBeLessThan(a.size / 4)
    }
  })

  test('paging one seed gives the same order as one long page: nothing repeated or skipped', async () => {
    for (const seed of [5, 123_456_789]) {
      const once = await wholeOrder(seed, 1000, 1000)
      expect(await wholeOrder(seed, 16, 10)).toEqual(once)
      expect(await wholeOrder(seed, 1, 3)).toEqual(once)
      expect(new Set(once).size).toBe(once.length)
    }
  })

  test('cursors that are not ours are refused', () => {
    expect(decodeShuffleCursor('abc')).toBeNull()
    expect(decodeShuffleCursor('2147483647.0')).toBeNull()
    expect(decodeShuffleCursor('12.-1')).toBeNull()
    expect(decodeShuffleCursor('12.34')).toEqual({ seed: 12, slot: 34 })
    expect(decodeShuffleCursor(null)).toBeNull()
  })
})

describe('search (spec §4, §5)', () => {
  beforeAll(async () => {
    await createProduct(test_.db, { name: 'Dije Corazón Rosado' })
    await createProduct(test_.db, { name: 'Aretes 100% plata_fina' })
  })

  test('is case- and accent-insensitive, on a substring of the name', async () => {
    for (const query of ['corazon', 'CORAZÓN', 'razón ros', '  Corazon  ']) {
      expect((await searchProducts(test_.reads, query)).map((p) => p.name)).toEqual(['Dije Corazón Rosado'])
    }
  })

  test('a NUL in an id or a sku finds nothing instead of failing (found by the fuzz suite)', async () => {
    expect(await getProductDetail(test_.reads, 'TST\u0000')).toBeNull()
    expect(await getCategory(test_.db, 'Categoria_\u0000')).toBeNull()
    expect(await listCategoryProducts(test_.reads, 'Categoria_\u0000', 0, 10)).toEqual({
      items: [],
      hasMore: false,
    })
    expect(await getEditableProduct(test_.reads, '\u0000')).toBeNull()
    expect(await getAdminCategory(test_.reads, '\u0000')).toBeNull()
  })

  test('a NUL in a query or a cart sku finds nothing instead of failing (found by the fuzz suite)', async () => {
    expect((await searchProducts(test_.reads, 'cora\u0000zon')).map((p) => p.name)).toEqual([
      'Dije Corazón Rosado',
    ])
    expect(await searchProducts(test_.reads, '\u0000')).toEqual([])
    expect(await getCartProducts(test_.reads, ['a\u0000b', '\u0000'])).toEqual([])
  })

  test('LIKE wildcards in the query are taken literally', async () => {
    expect((await searchProducts(test_.reads, '100%')).map((p) => p.name)).toEqual(['Aretes 100% plata_fina'])
    expect(await searchProducts(test_.reads, 'plata%fina')).toEqual([])
    expect((await searchProducts(test_.reads, 'a_f')).map((p) => p.name)).toEqual(['Aretes 100% plata_fina'])
  })

  test('pages in name order without repeating a product', async () => {
    for (let i = 0; i < 25; i++)
      await createProduct(test_.db, { name: `Argolla Paginada ${String(i).padStart(2, '0')}` })
    const first = await searchProducts(test_.reads, 'argolla paginada', 20)
    const rest = await searchProducts(test_.reads, 'argolla paginada', 10, 20)
    expect(first.map((p) => p.name)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Argolla Paginada ${String(i).padStart(2, '0')}`),
    )
    expect(rest.map((p) => p.name)).toEqual(
      Array.from({ length: 5 }, (_, i) => `Argolla Paginada ${String(i + 20).padStart(2, '0')}`),
    )
  })

  test('an empty query finds nothing', async () => {
    expect(await searchProducts(test_.reads, '   ')).toEqual([])
  })
})

describe('product detail', () => {
  test('has its media (main first), categories and price with discount', async () => {
    const db = test_.db
    const category = await createCategory(db, { name: 'Detalle' })
    const product = await createProduct(db, {
      name: 'Collar Detalle',
      pesos: 80000,
      discountPercent: 20,
      categoryIds: [category.id],
    })
    await db.insert(media).values({
      productSku: product.sku,
      kind: 'video',
      mimeType: 'video/webm',
      path: 'products/clip.webm',
      position: 1,
    })
    const detail = await getProductDetail(test_.reads, product.sku)
    expect(detail).toMatchObject({
      sku: product.sku,
      price: 80_000_00,
      finalPrice: 64_000_00,
      discountPercent: 20,
      categories: [{ id: category.id, name: 'Detalle' }],
    })
    expect(detail?.media.map((m) => m.kind)).toEqual(['image', 'video'])
    expect(detail?.media[0]).toMatchObject({ kind: 'image', image: { alt: 'Slide 1' } })
    expect(detail?.media[1]).toEqual({ kind: 'video', src: '/media/products/clip.webm' })
    expect(detail?.image?.srcSet).toContain('320w')
  })

  test('the database refuses negative stock or more reserved than stock', async () => {
    const product = await createProduct(test_.db, { stock: 1 })
    await expect(
      test_.db.update(products).set({ stock: -1 }).where(eq(products.sku, product.sku)),
    ).rejects.toThrow()
    await expect(
      test_.db.update(products).set({ reserved: 2 }).where(eq(products.sku, product.sku)),
    ).rejects.toThrow()
  })
})

test('categories are listed by name with their image', async () => {
  const names = (await listCategories(test_.reads)).map((c) => c.name)
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)))
})
