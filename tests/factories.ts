import { randomBytes } from 'node:crypto'
import type { DbOrTx } from '#app/db/client.server.ts'
import { priceLevelsFrom } from '#app/modules/catalog/pricing.ts'
import { categories, media, productCategories, products } from '#app/modules/catalog/schema.ts'
import { DEFAULT_LOCATION } from '#app/modules/inventory/locations.ts'
import { productLocations } from '#app/modules/inventory/schema.ts'
import { orders } from '#app/modules/order/schema.ts'
import { normalizeSearchText } from '#app/utils/text.ts'

let counter = 0
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`

export async function createCategory(db: DbOrTx, overrides: Partial<typeof categories.$inferInsert> = {}) {
  const [row] = await db
    .insert(categories)
    .values({ id: `Categoria_${unique()}`, name: `Categoría ${unique()}`, ...overrides })
    .returning()
  return row!
}

export type ProductOverrides = Partial<typeof products.$inferInsert> & {
  categoryIds?: string[]
  /** Price level 1 in whole pesos (levels 2..5 follow). */
  pesos?: number
  /** Where the stock is kept (units per code); by default all of it at the default location. */
  locations?: Record<string, number>
  withImage?: boolean
}

export async function createProduct(db: DbOrTx, overrides: ProductOverrides = {}) {
  const { categoryIds = [], pesos = 50000, withImage = true, locations, ...columns } = overrides
  const name = columns.name ?? `Producto ${unique()}`
  const [row] = await db
    .insert(products)
    .values({
      sku: `TST-GEN-${unique().toUpperCase()}`,
      description: `Descripción de ${name}`,
      cost: pesos * 40,
      ...priceLevelsFrom(pesos * 100),
      stock: 10,
      showRetail: true,
      ...columns,
      name,
      searchName: normalizeSearchText(name),
    })
    .returning()
  const kept = Object.entries(locations ?? { [DEFAULT_LOCATION]: row!.stock }).filter(([, n]) => n > 0)
  if (kept.length) {
    await db
      .insert(productLocations)
      .values(kept.map(([code, stock]) => ({ productSku: row!.sku, code, stock })))
  }
  if (categoryIds.length) {
    await db
      .insert(productCategories)
      .values(categoryIds.map((categoryId, position) => ({ productSku: row!.sku, categoryId, position })))
  }
  if (withImage) {
    await db.insert(media).values({
      productSku: row!.sku,
      kind: 'image',
      mimeType: 'image/webp',
      path: `products/${row!.sku}-640.webp`,
      width: 640,
      height: 640,
      variants: [
        { width: 320, height: 320, path: `products/${row!.sku}-320.webp` },
        { width: 640, height: 640, path: `products/${row!.sku}-640.webp` },
      ],
      isMain: true,
    })
  }
  return row!
}

/** A bare order (cash on delivery, pending, one peso total) for tests that need one to exist. */
export async function createOrder(db: DbOrTx, overrides: Partial<typeof orders.$inferInsert> = {}) {
  const [row] = await db
    .insert(orders)
    .values({
      id: `orden-${unique()}`,
      customerName: 'Ana',
      customerPhone: '3001234567',
      customerAddress: 'Calle 1',
      customerDepartment: 'Antioquia',
      subtotal: 100,
      shippingCost: 0,
      total: 100,
      ...overrides,
    })
    .returning()
  return row!
}
