/**
 * An export of the original shop (spec §7 documents, the shape `app/modules/import/validators.ts`
 * describes), generated the same way every time from a seed: products in blocks of 50 with their
 * ledgers and locations, categories, orders in every state and monthly analytics. The generator
 * works as the original did (money in pesos with decimals, the average cost of spec §9 in floating
 * point) and also returns what an import must end with, computed here on its own.
 */

export type FixtureOptions = {
  products: number
  orders: number
  /** Where the product images point (a stand-in answers them, or nothing does). */
  mediaBase: string
  seed?: number
}

export type ExpectedProduct = {
  sku: string
  stock: number
  unitsIn: number
  unitsOut: number
  /** Average cost in pesos as the original computed it. */
  costPesos: number
  movements: number
  locations: Record<string, number>
  urls: string[]
}

export type ExpectedOrder = {
  id: string
  status: string
  shipped: boolean
  paymentMethod: 'acordar' | 'mercadopago'
  items: { sku: string; quantity: number; unitPricePesos: number }[]
  totalPesos: number
}

export type Fixture = {
  source: Record<string, unknown>
  expected: {
    categories: number
    products: ExpectedProduct[]
    orders: ExpectedOrder[]
    clicks: number
    visits: number
    seconds: number
    months: string[]
  }
}

/**
 * A report's reason without the export's own texts it quotes (JSON string literals, as `quoted`
 * writes them): what is left are our words, which must be Spanish.
 */
export function ourWords(reason: string): string {
  return reason.replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
}

/** mulberry32: a small deterministic generator. */
function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const CATEGORY_NAMES = [
  'Collares',
  'Aretes',
  'Pulseras',
  'Anillos',
  'Tobilleras',
  'Relojes',
  'Bolsos',
  'Sets',
]
const NAMES = ['Collar', 'Arete', 'Pulsera', 'Anillo', 'Tobillera', 'Reloj', 'Bolso', 'Set']
const START = Date.UTC(2025, 0, 6, 15)
const DAY = 86_400_000
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

export function generateOriginalExport(options: FixtureOptions): Fixture {
  const next = random(options.seed ?? 20_260_101)
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
  const code = (length: number) => Array.from({ length }, () => pick([...ID_CHARS])).join('')

  const categories = CATEGORY_NAMES.map((nombre, i) => ({
    id: `Categoria_${1735000000000 + i * 1000}`,
    nombre,
    createdAt: new Date(START - (10 - i) * DAY).toISOString(),
  }))

  const source: Record<string, unknown> = { 'productos/categorias': { categorias: categories } }
  const expectedProducts: ExpectedProduct[] = []
  const blocks: unknown[][] = []
  for (let i = 0; i < options.products; i++) {
    const categoryIndex = i % categories.length
    const name = `${NAMES[categoryIndex]} ${i + 1}`
    const sku = `${NAMES[categoryIndex]!.slice(0, 3).toUpperCase()}-CAT-${code(8)}`
    const createdAt = START + i * 3_600_000
    // The original's ledger: entries and exits in pesos, the average cost of spec §9 in floats.
    const movements: Record<string, unknown>[] = []
    let stock = 0
    let cost = i % 25 === 0 ? 0 : int(2_000, 60_000) + (next() < 0.3 ? 0.5 : 0)
    const openingCost = cost
    let entradas = 0
    let salidas = 0
    const count = i % 25 === 0 ? 0 : int(1, 6)
    for (let m = 0; m < count; m++) {
      const at = new Date(createdAt + (m + 1) * DAY + int(0, 3_600_000)).toISOString()
      if (m === 0 || stock === 0 || next() < 0.55) {
        const cantidad = int(1, 30)
        const precioUnitario = int(1_500, 80_000) + (next() < 0.4 ? 0.25 : 0)
        cost = (stock * cost + cantidad * precioUnitario) / (stock + cantidad)
        stock += cantidad
        entradas += cantidad
        movements.push({
          sku,
          cantidad,
          precioUnitario,
          total: cantidad * precioUnitario,
          tipo: 'Entrada',
          recibo: `FAC-${i}-${m}`,
          createdAt: at,
          nota: m === 0 ? 'Compra inicial' : '',
        })
      } else {
        const cantidad = int(1, stock)
        // Most exits leave at the average cost (the form's read-only price), some at a typed one.
        const precioUnitario = next() < 0.8 ? Math.round(cost * 100) / 100 : int(1_000, 90_000)
        const remaining = stock - cantidad
        cost = remaining === 0 ? 0 : Math.max(0, (stock * cost - cantidad * precioUnitario) / remaining)
        stock = remaining
        salidas += cantidad
        movements.push({
          sku,
          cantidad,
          precioUnitario,
          total: cantidad * precioUnitario,
          tipo: 'Salida',
          recibo: `REM-${i}-${m}`,
          createdAt: at,
          nota: 'Venta en local',
        })
      }
    }
    if (count === 0) cost = openingCost
    const locations: Record<string, number> = {}
    if (stock > 0) {
      const first = `P${int(1, 4)}-C${int(1, 3)}-A1-E1-X1-Y1-Z1`
      const split = stock > 1 && next() < 0.4 ? int(1, stock - 1) : stock
      locations[first] = split
      if (split < stock) {
        const second = `P5-C${int(1, 3)}-A2-E1-X1-Y1-Z1`
        locations[second] = stock - split
      }
    }
    const urls = [`${options.mediaBase}/productos/${sku}.png`]
    if (i % 100 === 7) urls.push(`${options.mediaBase}/productos/${sku}.mp4`)
    const level1 = int(5_000, 150_000) + (next() < 0.2 ? 0.5 : 0)
    const product = {
      name,
      description: `Descripción de ${name}`,
      cost,
      purchaseLink: i % 3 === 0 ? `https://proveedor.example/${sku}` : null,
      supplierInfo: i % 4 === 0 ? 'Proveedor Medellín' : null,
      priceLevels: {
        level1,
        level2: Math.round(level1 * 0.8 * 100) / 100,
        level3: Math.round(level1 * 0.7 * 100) / 100,
        level4: Math.round(level1 * 0.6 * 100) / 100,
        level5: Math.round(level1 * 0.4 * 100) / 100,
      },
      categorias:
        i % 10 === 3 ? [categories[categoryIndex]!.id, categories[0]!.id] : [categories[categoryIndex]!.id],
      imageUrls: urls,
      mainImageUrl: urls[0],
      sku,
      stock,
      salidas,
      entradas,
      createdAt,
      showProduct: i % 2 === 0,
      showProductDetal: i % 9 !== 0,
      descuento: i % 6 === 0 ? 10 : 0,
      ubicaciones: Object.entries(locations).map(([ubicacion, units]) => ({ ubicacion, stock: units })),
    }
    if (i % 50 === 0) blocks.push([])
    blocks.at(-1)!.push(product)
    if (movements.length) source[`movimientos/${sku}`] = { movimientos: movements }
    expectedProducts.push({
      sku,
      stock,
      unitsIn: entradas,
      unitsOut: salidas,
      costPesos: cost,
      movements: movements.length,
      locations,
      urls,
    })
  }
  blocks.forEach((productos, index) => {
    source[`productos/productos_bloque_${index + 1}`] = { productos }
  })

  // Orders: open ones not shipped yet ask only for units still available, as the shop could hold.
  const available = new Map(expectedProducts.map((product) => [product.sku, product.stock]))
  const statuses = ['pendiente de pago', 'pagado', 'cancelado', 'Completado'] as const
  const pedidos: Record<string, unknown> = {}
  const expectedOrders: ExpectedOrder[] = []
  for (let o = 0; o < options.orders; o++) {
    const status = statuses[o % statuses.length]!
    const shipped = status === 'Completado' || (status !== 'cancelado' && o % 3 === 0)
    const holds = !shipped && (status === 'pendiente de pago' || status === 'pagado')
    const lines = new Map<string, { sku: string; title: string; quantity: number; unitPricePesos: number }>()
    for (let n = int(1, 3); n > 0; n--) {
      const index = int(0, expectedProducts.length - 1)
      const product = expectedProducts[index]!
      if (lines.has(product.sku)) continue
      const quantity = int(1, 3)
      if (holds) {
        if ((available.get(product.sku) ?? 0) < quantity) continue
        available.set(product.sku, available.get(product.sku)! - quantity)
      }
      const block = blocks[Math.floor(index / 50)]![index % 50] as {
        name: string
        priceLevels: { level1: number }
      }
      lines.set(product.sku, {
        sku: product.sku,
        title: block.name,
        quantity,
        unitPricePesos: block.priceLevels.level1,
      })
    }
    if (!lines.size) continue
    const items = [...lines.values()]
    const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unitPricePesos, 0)
    const shipping = subtotal > 100_000 ? 0 : 12_000
    const id = code(20)
    const paymentMethod = o % 2 === 0 ? 'acordar' : 'mercadopago'
    pedidos[id] = {
      id,
      status,
      ...(shipped ? { enviado: 'enviado' } : {}),
      customer_details: {
        name: `Cliente ${o}`,
        last_name: 'Pérez',
        identification_number: String(1_000_000 + o),
        phone: `300${String(1_000_000 + o)}`,
        email: `cliente${o}@example.com`,
        address: `Calle ${o} # 1-2`,
        city: 'Bogotá',
        department: 'Bogotá D.C.',
        payment_method: paymentMethod,
      },
      items: items.map((item) => ({
        id: item.sku,
        title: item.title,
        quantity: item.quantity,
        unit_price: item.unitPricePesos,
      })),
      total: subtotal + shipping,
      shipping_cost: shipping,
      createdAt: START + 30 * DAY + o * 7_200_000,
    }
    expectedOrders.push({ id, status, shipped, paymentMethod, items, totalPesos: subtotal + shipping })
  }
  source.pedidos = pedidos

  const months = ['2025-01', '2025-02', '2025-03']
  let clicks = 0
  let visits = 0
  let seconds = 0
  for (const month of months) {
    const clickRecord: Record<string, { click_count: number }> = {}
    for (const element of ['boton-whatsapp', 'agregar-carrito', 'banner-principal', 'buscar']) {
      const clickCount = int(0, 400)
      clickRecord[element] = { click_count: clickCount }
      clicks += clickCount
    }
    source[`clickEvents/${month}`] = clickRecord
    const viewRecord: Record<string, { visits: number; totalTime: number }> = {}
    for (const page of ['Inicio', 'Carrito', 'Collares', expectedProducts[0]!.sku]) {
      const pageVisits = int(1, 900)
      const totalTime = pageVisits * int(5, 120)
      viewRecord[page] = { visits: pageVisits, totalTime }
      visits += pageVisits
      seconds += totalTime
    }
    source[`pageViews/${month}`] = viewRecord
  }

  return {
    source,
    expected: {
      categories: categories.length,
      products: expectedProducts,
      orders: expectedOrders,
      clicks,
      visits,
      seconds,
      months,
    },
  }
}
