import fs from 'node:fs/promises'
import path from 'node:path'
import { count } from 'drizzle-orm'
import { bulkInsert } from '#app/db/bulk-insert.server.ts'
import type { Db } from '#app/db/client.server.ts'
import { priceLevelsFrom } from '#app/modules/catalog/pricing.ts'
import { categories, media, productCategories, products } from '#app/modules/catalog/schema.ts'
import { promotions } from '#app/modules/promotions/schema.ts'
import { generateSku } from '#app/modules/catalog/sku.ts'
import {
  replayHistories,
  type PastMovement,
  type STOCK_COLUMNS,
} from '#app/modules/inventory/stock.server.ts'
import { storedMediaColumns, storeImage, type StoredImage } from '#app/modules/media/media.server.ts'
import type { MediaStorage } from '#app/modules/media/storage.server.ts'
import { banners } from '#app/modules/settings/schema.ts'
import { pesosToCentavos } from '#app/utils/money.ts'
import { categoryPath } from '#app/utils/paths.ts'
import { slugify } from '#app/utils/slug.ts'
import { normalizeSearchText } from '#app/utils/text.ts'
import { DEMO_BANNER_DESKTOP, DEMO_BANNER_MOBILE, renderDemoBanner } from './demo-banners.server.ts'

/** A product row as the catalogue writes it: stock and cost come from its movements (inventory). */
type NewProduct = Omit<typeof products.$inferInsert, (typeof STOCK_COLUMNS)[number]>

/** A small deterministic PRNG so the demo shop looks the same on every machine. */
function mulberry32(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const CATEGORY_DEFS = [
  { name: 'Collares', shape: 'necklace', colors: ['#f4d9c6', '#c98f6b'] },
  { name: 'Aretes', shape: 'earrings', colors: ['#e7dcf5', '#8f6bc9'] },
  { name: 'Pulseras', shape: 'bracelet', colors: ['#d6efe6', '#4f9e85'] },
  { name: 'Anillos', shape: 'ring', colors: ['#f7e6b5', '#c9a13b'] },
  { name: 'Tobilleras', shape: 'bracelet', colors: ['#d8e8f7', '#4f7fae'] },
  { name: 'Sets y regalos', shape: 'necklace', colors: ['#f6d4dc', '#c25b78'] },
] as const

const PRODUCT_NAMES: Record<string, string[]> = {
  Collares: [
    'Collar Corazón Dorado',
    'Collar Luna Menguante',
    'Choker Terciopelo Negro',
    'Collar Perlas del Caribe',
    'Collar Trébol Plata',
    'Collar Inicial Personalizada',
    'Collar Cadena Cubana',
    'Collar Mariposa Esmaltada',
  ],
  Aretes: [
    'Aretes Argolla Grande',
    'Aretes Perla Clásica',
    'Aretes Gota de Cristal',
    'Aretes Estrella Fugaz',
    'Topos Mini Corazón',
    'Aretes Flor de Mayo',
    'Aretes Filigrana Momposina',
    'Ear Cuff Serpiente',
  ],
  Pulseras: [
    'Pulsera Tejida Arcoíris',
    'Pulsera Eslabones Oro',
    'Pulsera Mostacilla Wayuu',
    'Pulsera Ojo Turco',
    'Brazalete Rígido Martillado',
    'Pulsera Hilo Rojo',
    'Pulsera Charms Viajera',
    'Pulsera Cuarzo Rosa',
  ],
  Anillos: [
    'Anillo Solitario Plata',
    'Anillo Ajustable Hojas',
    'Anillo Sello Minimal',
    'Anillo Trenzado Dorado',
    'Anillo Piedra Luna',
    'Set Anillos Apilables',
    'Anillo Ola del Mar',
    'Anillo Corazón Abierto',
  ],
  Tobilleras: [
    'Tobillera Conchas',
    'Tobillera Cadena Fina',
    'Tobillera Cascabeles',
    'Tobillera Perlitas',
    'Tobillera Estrellas',
    'Tobillera Doble Capa',
    'Tobillera Tejida Playa',
    'Tobillera Mariposas',
  ],
  'Sets y regalos': [
    'Set Collar y Aretes Perla',
    'Caja Regalo Amistad',
    'Set Novia Brillante',
    'Set Mamá Corazón',
    'Kit Pulseras Parejas',
    'Set Mini Argollas',
    'Caja Sorpresa Dorada',
    'Set Aretes Semana',
  ],
}

type Shape = (typeof CATEGORY_DEFS)[number]['shape']

/** A product-like illustration (no text, so no fonts are needed). */
function jewelrySvg(shape: Shape, colors: readonly [string, string], variant: number, size = 640) {
  const [bg, metal] = colors
  const gem = ['#e84a6f', '#3aa7c9', '#7bc96f', '#f2b138', '#9b6be8'][variant % 5]
  const c = 400
  const art: Record<Shape, string> = {
    necklace: `<path d="M ${c - 220} ${c - 180} Q ${c} ${c + 180} ${c + 220} ${c - 180}" stroke="${metal}" stroke-width="10" fill="none"/>
      <circle cx="${c}" cy="${c + 50}" r="${48 + (variant % 3) * 10}" fill="${gem}" stroke="${metal}" stroke-width="10"/>`,
    earrings: `<circle cx="${c - 110}" cy="${c - 120}" r="16" fill="${metal}"/><circle cx="${c + 110}" cy="${c - 120}" r="16" fill="${metal}"/>
      <path d="M ${c - 110} ${c - 100} L ${c - 150} ${c + 80} Q ${c - 110} ${c + 150} ${c - 70} ${c + 80} Z" fill="${gem}" stroke="${metal}" stroke-width="8"/>
      <path d="M ${c + 110} ${c - 100} L ${c + 70} ${c + 80} Q ${c + 110} ${c + 150} ${c + 150} ${c + 80} Z" fill="${gem}" stroke="${metal}" stroke-width="8"/>`,
    bracelet: `<ellipse cx="${c}" cy="${c}" rx="${200 - (variant % 3) * 15}" ry="120" stroke="${metal}" stroke-width="26" fill="none"/>
      <circle cx="${c}" cy="${c + 120}" r="30" fill="${gem}"/>`,
    ring: `<circle cx="${c}" cy="${c + 40}" r="130" stroke="${metal}" stroke-width="28" fill="none"/>
      <path d="M ${c - 50} ${c - 90} L ${c} ${c - 160} L ${c + 50} ${c - 90} L ${c} ${c - 50} Z" fill="${gem}" stroke="${metal}" stroke-width="6"/>`,
  }
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 800 800">
    <defs><radialGradient id="g" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="${bg}"/></radialGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${art[shape]}</svg>`)
}

/** The short demo clip shipped in `demo/`, attached to the first demo product. */
export async function loadDemoVideo(): Promise<DemoOptions['video']> {
  const body = await fs.readFile(path.resolve('demo/collar.webm')).catch(() => null)
  return body ? { path: 'products/demo-collar.webm', body, mimeType: 'video/webm' } : undefined
}

export async function isCatalogEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(products)
  const [cat] = await db.select({ n: count() }).from(categories)
  return (row?.n ?? 0) === 0 && (cat?.n ?? 0) === 0
}

export type DemoOptions = {
  /** How many products; above the hand-written 48 the rest reuse a pool of images. */
  products?: number
  /** A short demo video file to attach to the first product. */
  video?: { path: string; body: Buffer; mimeType: string }
  log?: (message: string) => void
}

async function insertImage(
  db: Db,
  stored: StoredImage,
  productSku: string | null,
  position: number,
  isMain: boolean,
) {
  const [row] = await db
    .insert(media)
    .values({ productSku, ...storedMediaColumns({ kind: 'image', ...stored }), position, isMain })
    .returning({ id: media.id })
  return row!.id
}

/** Fills an empty shop: categories with images, products, stock ledger, locations and banners. */
export async function seedDemoData(db: Db, storage: MediaStorage, options: DemoOptions = {}) {
  const log = options.log ?? (() => {})
  const random = mulberry32(20261122)
  const total = Math.max(options.products ?? 48, 1)
  const started = Date.now()

  const categoryRows: { id: string; def: (typeof CATEGORY_DEFS)[number] }[] = []
  for (const [index, def] of CATEGORY_DEFS.entries()) {
    const createdAt = new Date(Date.UTC(2026, 0, 5 + index))
    const id = `Categoria_${createdAt.getTime()}`
    const image = await storeImage(storage, jewelrySvg(def.shape, def.colors, index, 480), 'categories')
    const imageMediaId = await insertImage(db, image, null, 0, false)
    await db.insert(categories).values({ id, name: def.name, imageMediaId, createdAt })
    categoryRows.push({ id, def })
  }

  // A pool of images per category, shared by the generated bulk products; with link previews.
  const share = { share: true }
  const pool = new Map<string, StoredImage[]>()
  const imageFor = async (categoryIndex: number, variant: number, unique: boolean) => {
    const { def, id } = categoryRows[categoryIndex]!
    if (unique) return storeImage(storage, jewelrySvg(def.shape, def.colors, variant), 'products', share)
    const images = pool.get(id) ?? []
    if (images.length < 4) {
      images.push(await storeImage(storage, jewelrySvg(def.shape, def.colors, variant), 'products', share))
      pool.set(id, images)
      return images.at(-1)!
    }
    return images[variant % images.length]!
  }

  const productBatch: NewProduct[] = []
  const linkBatch: (typeof productCategories.$inferInsert)[] = []
  const historyBatch: { sku: string; movements: PastMovement[] }[] = []
  const mediaBatch: (typeof media.$inferInsert)[] = []
  const flush = () =>
    db.transaction(async (tx) => {
      await bulkInsert(tx, products, productBatch.splice(0))
      await bulkInsert(tx, productCategories, linkBatch.splice(0))
      await replayHistories(tx, historyBatch.splice(0))
      await bulkInsert(tx, media, mediaBatch.splice(0))
    })

  for (let i = 0; i < total; i++) {
    const categoryIndex = i % CATEGORY_DEFS.length
    const { id: categoryId, def } = categoryRows[categoryIndex]!
    const names = PRODUCT_NAMES[def.name]!
    const baseName = names[Math.floor(i / CATEGORY_DEFS.length) % names.length]!
    const round = Math.floor(i / (CATEGORY_DEFS.length * names.length))
    const name = round === 0 ? baseName : `${baseName} ${round + 1}`
    const handMade = i < 48
    const sku = generateSku(name, categoryId, random)
    const level1 = pesosToCentavos(15000 + Math.floor(random() * 34) * 5000)
    const cost = Math.round(level1 * (0.35 + random() * 0.2))
    const soldOut = i % 11 === 3
    const hidden = i % 13 === 7
    const unitsOut = Math.floor(random() * 40)
    const stock = soldOut ? 0 : 1 + Math.floor(random() * 25)
    const location = `P1-C${1 + (i % 3)}-A1-E${1 + (i % 4)}-X1-Y1-Z1`
    const createdAt = new Date(Date.UTC(2026, 1, 1) + i * 3_600_000)
    productBatch.push({
      sku,
      name,
      searchName: normalizeSearchText(name),
      description: `${name}: pieza de nuestra colección de ${def.name.toLowerCase()}. Baño hipoalergénico, empaque de regalo incluido y garantía de 30 días.`,
      ...priceLevelsFrom(level1),
      discountPercent: i % 5 === 0 ? [10, 15, 20, 30][i % 4]! : 0,
      showRetail: !hidden,
      showWholesale: i % 3 !== 0,
      createdAt,
      updatedAt: createdAt,
    })
    linkBatch.push({ productSku: sku, categoryId, position: 0 })
    // Bought in at cost, some sold since: stock, units and average cost follow from the ledger.
    const movements: PastMovement[] = []
    const bought = { location, at: createdAt, by: 'demo', unitPrice: cost }
    if (stock + unitsOut > 0) {
      movements.push({
        ...bought,
        type: 'in',
        quantity: stock + unitsOut,
        receipt: 'INV-INICIAL',
        note: 'Inventario inicial',
      })
    }
    if (unitsOut > 0) {
      movements.push({
        ...bought,
        type: 'out',
        quantity: unitsOut,
        receipt: 'VENTAS-2026',
        note: 'Ventas anteriores',
      })
    }
    historyBatch.push({ sku, movements })
    const imageCount = handMade ? (i % 4 === 1 ? 3 : i % 4 === 2 ? 2 : 1) : 1
    for (let position = 0; position < imageCount; position++) {
      const stored = await imageFor(categoryIndex, i + position * 7, handMade)
      mediaBatch.push({
        productSku: sku,
        ...storedMediaColumns({ kind: 'image', ...stored }),
        position,
        isMain: position === 0,
      })
    }
    if (i === 0 && options.video) {
      await storage.put(options.video.path, options.video.body, options.video.mimeType)
      mediaBatch.push({
        productSku: sku,
        kind: 'video',
        mimeType: options.video.mimeType,
        path: options.video.path,
        width: null,
        height: null,
        variants: [],
        position: imageCount,
        isMain: false,
      })
    }
    if (productBatch.length >= 1000) await flush()
    if ((i + 1) % 2000 === 0) log(`  ${i + 1} productos…`)
  }
  await flush()

  const bannerDefs = [
    {
      alt: 'Nueva colección de collares',
      headline: 'Nueva colección',
      subline: 'Collares que brillan contigo',
      action: 'Ver collares',
      colors: ['#8a4b2e', '#f4d9c6'],
      category: 0,
    },
    {
      alt: 'Envío gratis por tiempo limitado',
      headline: 'Envío gratis',
      subline: 'Por tiempo limitado, a toda Colombia',
      action: 'Ver pulseras',
      colors: ['#2f5f8a', '#d6efe6'],
      category: 2,
    },
  ] as const
  for (const [position, def] of bannerDefs.entries()) {
    const { id, def: category } = categoryRows[def.category]!
    const pictures = [0, 1, 2].map((variant) =>
      jewelrySvg(category.shape, category.colors, position * 3 + variant),
    )
    const content = { ...def, products: pictures }
    const desktop = await storeImage(storage, await renderDemoBanner(content, DEMO_BANNER_DESKTOP), 'banners')
    const mobile = await storeImage(storage, await renderDemoBanner(content, DEMO_BANNER_MOBILE), 'banners')
    await db.insert(banners).values({
      position,
      alt: def.alt,
      link: categoryPath({ id, slug: slugify(category.name) }),
      desktopMediaId: await insertImage(db, desktop, null, 0, false),
      mobileMediaId: await insertImage(db, mobile, null, 0, false),
    })
  }
  // Two codes to try at the cart; no automatic promotion, so the demo's prices stay as listed.
  await db.insert(promotions).values([
    {
      name: 'Bienvenida',
      code: 'BIENVENIDA',
      benefit: 'percent',
      target: 'order',
      percent: 10,
      minSubtotal: pesosToCentavos(80000),
      maxUsesPerCustomer: 1,
    },
    { name: 'Envío gratis', code: 'ENVIOVITRINA', benefit: 'percent', target: 'shipping', percent: 100 },
  ])
  log(
    `Datos de demostración: ${CATEGORY_DEFS.length} categorías, ${total} productos (${Date.now() - started} ms)`,
  )
}
