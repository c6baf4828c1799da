import { createHash } from 'node:crypto'
import { stringify } from 'safe-stable-stringify'
import type { ImportedClicks, ImportedPageViews } from '#app/modules/analytics/import.server.ts'
import type { ImportedCategory, ImportedProduct } from '#app/modules/catalog/import.server.ts'
import { priceLevelsFrom } from '#app/modules/catalog/pricing.ts'
import { isVideoUrl } from '#app/modules/media/image-source.ts'
import { placeHistory } from '#app/modules/inventory/history.ts'
import { DEFAULT_LOCATION, isLocationCode, normalizeLocationCode } from '#app/modules/inventory/locations.ts'
import { applyMovement, EMPTY_STOCK, type StockState } from '#app/modules/inventory/movements.ts'
import type { PastMovement } from '#app/modules/inventory/stock.server.ts'
import type { ImportedOrder } from '#app/modules/order/import.server.ts'
import { ORDER_STATUSES, type OrderStatus } from '#app/modules/order/status.ts'
import { PAYMENT_METHODS, type PaymentMethod } from '#app/modules/order/schema.ts'
import { formatCOP, pesosToCentavos } from '#app/utils/money.ts'
import {
  reasonOf,
  SourceCategorySchema,
  SourceClicksSchema,
  SourceMovementSchema,
  SourceOrderSchema,
  SourcePageViewsSchema,
  SourceProductSchema,
  type SourceMovement,
  type SourceProduct,
} from './validators.ts'

/** What a line of the report is about, as the owner reads it. */
export type IssueKind =
  'documento' | 'categoría' | 'producto' | 'movimientos' | 'pedido' | 'clics' | 'visitas'
export type Issue = { kind: IssueKind; key: string; reason: string }

/** Who the ledger and the order timelines name for what the import wrote. */
export const IMPORT_AUTHOR = 'importación'

/** A product ready to write; its stock comes from replaying `history`. */
export type PlannedProduct = Omit<ImportedProduct, 'media'> & {
  /** Addresses from the export: downloaded into storage when reachable, else kept as they are. */
  media: { url: string; kind: 'image' | 'video'; main: boolean }[]
  history: PastMovement[]
  /** The cost the product had before any entry (kept when it has no movements). */
  openingCost: number
  /** What replaying the history gives: checked against the export already. */
  final: StockState
  /** How many movements the original's ledger held (a split one counts once). */
  sourceMovements: number
}

/** What `import_records` remembers, by the original's key. */
export type RecordKind = 'category' | 'product' | 'order' | 'clicks' | 'page-views'

/**
 * A digest of what the export said about one record (its fields in any order), so a later run can
 * tell a record it brought already from one the original shop changed since.
 */
export function contentHash(...parts: unknown[]): string {
  return createHash('sha256')
    .update(stringify(parts) ?? '')
    .digest('hex')
}

export type ImportPlan = {
  categories: ImportedCategory[]
  products: PlannedProduct[]
  orders: ImportedOrder[]
  clicks: { month: string; rows: ImportedClicks[] }[]
  pageViews: { month: string; rows: ImportedPageViews[] }[]
  /** Each planned record's `contentHash`, by kind and original key. */
  hashes: Record<RecordKind, Map<string, string>>
  refused: Issue[]
  warnings: Issue[]
}

/** How far the original's floating-point average and ours may drift apart by rounding alone. */
export const COST_ROUNDING_CENTAVOS = 100

/** The largest PostgreSQL `integer`: order amounts, and a product's stock, units and costs. */
const MAX_INTEGER = 2_147_483_647
const MAX_ORDER_CENTAVOS = MAX_INTEGER

/** What a replayed ledger may carry past `MAX_INTEGER`, as the owner reads it. */
const REPLAYED_FIGURES = [
  ['stock', 'el stock'],
  ['unitsIn', 'las entradas'],
  ['unitsOut', 'las salidas'],
  ['cost', 'el costo promedio (en centavos)'],
] as const

const BLOCK_KEY = /^productos\/productos_bloque_(\d+)$/
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A list field of a document, or null when the document does not hold one. */
function listOf(document: unknown, field: string): unknown[] | null {
  return isRecord(document) && Array.isArray(document[field]) ? (document[field] as unknown[]) : null
}

const pesosText = (centavos: number) => formatCOP(centavos)

/**
 * Reads an export (see `validators.ts` for its shape) into what Vitrina will write, checking every
 * record on its own: a record that is malformed or contradicts itself is refused with the reason
 * and the rest goes on. Nothing here reads or writes the database.
 */
export function planImport(source: unknown, now: Date): ImportPlan {
  const refused: Issue[] = []
  const warnings: Issue[] = []
  const refuse = (kind: IssueKind, key: string, reason: string) => refused.push({ kind, key, reason })
  const warn = (kind: IssueKind, key: string, reason: string) => warnings.push({ kind, key, reason })
  const plan: ImportPlan = {
    categories: [],
    products: [],
    orders: [],
    clicks: [],
    pageViews: [],
    hashes: {
      category: new Map(),
      product: new Map(),
      order: new Map(),
      clicks: new Map(),
      'page-views': new Map(),
    },
    refused,
    warnings,
  }
  if (!isRecord(source)) {
    refuse(
      'documento',
      '(exportación)',
      'La exportación debe ser un objeto JSON con una clave por documento.',
    )
    return plan
  }

  const blocks: { number: number; products: unknown[] }[] = []
  const ledgers = new Map<string, unknown[]>()
  const orderDocuments: [string, unknown][] = []
  let categoryDocument: unknown[] | null = null
  for (const [key, document] of Object.entries(source)) {
    const block = BLOCK_KEY.exec(key)
    const listError = (field: string) => refuse('documento', key, `No tiene la lista "${field}".`)
    if (block) {
      const list = listOf(document, 'productos')
      if (list) blocks.push({ number: Number(block[1]), products: list })
      else listError('productos')
    } else if (key === 'productos/categorias') {
      categoryDocument = listOf(document, 'categorias')
      if (!categoryDocument) listError('categorias')
    } else if (key.startsWith('movimientos/')) {
      const list = listOf(document, 'movimientos')
      if (list) ledgers.set(key.slice('movimientos/'.length), list)
      else listError('movimientos')
    } else if (key === 'pedidos') {
      if (isRecord(document)) orderDocuments.push(...Object.entries(document))
      else refuse('documento', key, 'Debe ser un objeto con un pedido por id.')
    } else if (key.startsWith('pedidos/')) {
      orderDocuments.push([key.slice('pedidos/'.length), document])
    } else if (key.startsWith('clickEvents/')) {
      planClicks(plan, key.slice('clickEvents/'.length), document)
    } else if (key.startsWith('pageViews/')) {
      planPageViews(plan, key.slice('pageViews/'.length), document)
    } else {
      refuse('documento', key, 'Documento desconocido: no se importó.')
    }
  }

  planCategories(plan, categoryDocument, now)
  blocks.sort((a, b) => a.number - b.number)
  const missingBlock = blocks.findIndex((block, index) => block.number !== index + 1)
  if (missingBlock >= 0) {
    warn(
      'documento',
      `productos/productos_bloque_${missingBlock + 1}`,
      'Falta este bloque: la tienda original dejaba de leer aquí; los bloques siguientes se importan igual.',
    )
  }
  planProducts(plan, blocks, ledgers, now)
  for (const [id, document] of orderDocuments) planOrder(plan, id, document, now)
  return plan
}

function planCategories(plan: ImportPlan, list: unknown[] | null, now: Date) {
  const seen = new Set<string>()
  for (const [index, raw] of (list ?? []).entries()) {
    const parsed = SourceCategorySchema.safeParse(raw)
    const key = isRecord(raw) && typeof raw.id === 'string' ? raw.id : `categorias[${index}]`
    if (!parsed.success) {
      plan.refused.push({ kind: 'categoría', key, reason: reasonOf(parsed.error) })
      continue
    }
    const { id, nombre, createdAt } = parsed.data
    if (seen.has(id)) {
      plan.refused.push({ kind: 'categoría', key: id, reason: 'Id repetido: se importó la primera.' })
      continue
    }
    seen.add(id)
    plan.categories.push({ id, name: nombre, createdAt: createdAt ?? now })
    plan.hashes.category.set(id, contentHash(raw))
  }
}

function planProducts(
  plan: ImportPlan,
  blocks: { number: number; products: unknown[] }[],
  ledgers: Map<string, unknown[]>,
  now: Date,
) {
  const seen = new Set<string>()
  for (const block of blocks) {
    for (const [index, raw] of block.products.entries()) {
      const parsed = SourceProductSchema.safeParse(raw)
      const key =
        isRecord(raw) && typeof raw.sku === 'string' && raw.sku.trim()
          ? raw.sku.trim()
          : `productos_bloque_${block.number}[${index}]`
      if (!parsed.success) {
        plan.refused.push({ kind: 'producto', key, reason: reasonOf(parsed.error) })
        // Its ledger goes with it, not reported again as a ledger without a product.
        ledgers.delete(key)
        continue
      }
      const product = parsed.data
      if (seen.has(product.sku)) {
        plan.refused.push({
          kind: 'producto',
          key,
          reason: 'SKU repetido en la exportación: se importó el primero.',
        })
        continue
      }
      seen.add(product.sku)
      const ledger = ledgers.get(product.sku) ?? []
      ledgers.delete(product.sku)
      const planned = planProduct(plan, product, ledger, now)
      if (planned) {
        plan.products.push(planned)
        plan.hashes.product.set(planned.sku, contentHash(raw, ledger))
      }
    }
  }
  for (const [sku] of ledgers) {
    plan.refused.push({
      kind: 'movimientos',
      key: sku,
      reason: 'No hay un producto con este SKU en la exportación.',
    })
  }
}

/** One product with its ledger, or null (refused, with the reason in the plan). */
function planProduct(
  plan: ImportPlan,
  product: SourceProduct,
  rawLedger: unknown[],
  now: Date,
): PlannedProduct | null {
  const { sku } = product
  const refuse = (reason: string) => {
    plan.refused.push({ kind: 'producto', key: sku, reason })
    return null
  }
  const warn = (reason: string) => plan.warnings.push({ kind: 'producto', key: sku, reason })

  const movements: SourceMovement[] = []
  for (const [index, raw] of rawLedger.entries()) {
    const parsed = SourceMovementSchema.safeParse(raw)
    if (!parsed.success) {
      return refuse(
        `El movimiento ${index + 1} no es válido (${reasonOf(parsed.error)}); no se importó el producto.`,
      )
    }
    if (parsed.data.sku && parsed.data.sku.trim() !== sku) {
      return refuse(
        `El movimiento ${index + 1} es de otro SKU (${parsed.data.sku}); no se importó el producto.`,
      )
    }
    const expected = parsed.data.cantidad * parsed.data.precioUnitario
    if (parsed.data.total != null && Math.abs(parsed.data.total - expected) > 0.01) {
      warn(
        `El total del movimiento ${index + 1} (${parsed.data.total}) no es cantidad × precio (${expected}); se guarda cantidad × precio.`,
      )
    }
    movements.push(parsed.data)
  }

  // The ledger must explain the stock the product says it has (spec §4: stock changes only there).
  const entered = movements.filter((m) => m.tipo === 'entrada').reduce((sum, m) => sum + m.cantidad, 0)
  const exited = movements.filter((m) => m.tipo === 'salida').reduce((sum, m) => sum + m.cantidad, 0)
  if (entered - exited !== product.stock) {
    return refuse(
      `Sus movimientos no cuadran con el stock: entradas ${entered} − salidas ${exited} = ${entered - exited}, y el producto tiene stock ${product.stock}.`,
    )
  }

  const locations = new Map<string, number>()
  for (const { ubicacion, stock } of product.ubicaciones) {
    const code = normalizeLocationCode(ubicacion)
    if (!isLocationCode(code)) {
      return refuse(`La ubicación "${ubicacion}" no tiene el formato P1-C1-A1-E1-X1-Y1-Z1.`)
    }
    if (stock > 0) locations.set(code, (locations.get(code) ?? 0) + stock)
  }
  const located = [...locations.values()].reduce((sum, units) => sum + units, 0)
  if (located === 0 && product.stock > 0) {
    locations.set(DEFAULT_LOCATION, product.stock)
    warn(`No tenía ubicaciones: sus ${product.stock} unidades quedan en ${DEFAULT_LOCATION}.`)
  } else if (located !== product.stock) {
    return refuse(`Sus ubicaciones suman ${located} unidades y el producto tiene stock ${product.stock}.`)
  }

  const unplaced = movements.map((m) => ({
    type: m.tipo === 'entrada' ? ('in' as const) : ('out' as const),
    quantity: m.cantidad,
    unitPrice: pesosToCentavos(m.precioUnitario),
    receipt: m.recibo,
    note: m.nota,
    at: m.createdAt,
    by: IMPORT_AUTHOR,
  }))
  const history = placeHistory(unplaced, locations)
  if (!history) {
    return refuse('Sus movimientos sacan más unidades de las que había en algún momento.')
  }
  const openingCost = pesosToCentavos(product.cost)
  let final: StockState = { ...EMPTY_STOCK, cost: openingCost }
  for (const movement of history) {
    const applied = applyMovement(final, movement)
    if (!applied.ok) return refuse(`Sus movimientos no se pueden aplicar en orden: ${applied.message}`)
    final = applied.state
    // Refused here rather than failing the whole import's transaction at PostgreSQL.
    for (const [field, label] of REPLAYED_FIGURES) {
      if (final[field] > MAX_INTEGER) {
        return refuse(
          `Sus movimientos llevan ${label} a ${final[field]}, más de lo que Vitrina puede guardar (${MAX_INTEGER}).`,
        )
      }
    }
    for (const [code, units] of final.locations) {
      if (units > MAX_INTEGER) {
        return refuse(
          `Sus movimientos llevan la ubicación ${code} a ${units} unidades, más de lo que Vitrina puede guardar (${MAX_INTEGER}).`,
        )
      }
    }
  }

  if (product.entradas != null && product.entradas !== final.unitsIn) {
    warn(`Decía entradas ${product.entradas}; sus movimientos suman ${final.unitsIn}, que es lo que queda.`)
  }
  if (product.salidas != null && product.salidas !== final.unitsOut) {
    warn(`Decía salidas ${product.salidas}; sus movimientos suman ${final.unitsOut}, que es lo que queda.`)
  }
  // The original kept the average in pesos with every decimal; here each step is rounded to the
  // centavo, and an exit that leaves few units behind magnifies that rounding: under a peso apart
  // is the same cost.
  if (movements.length && Math.abs(final.cost - openingCost) > COST_ROUNDING_CENTAVOS) {
    warn(
      `Su costo era ${pesosText(openingCost)}; sus movimientos dan un costo promedio de ${pesosText(final.cost)}, que es el que queda.`,
    )
  }

  const levels = priceLevelsFrom(pesosToCentavos(product.priceLevels.level1))
  const level = (value: number | null | undefined, computed: number) =>
    value == null ? computed : pesosToCentavos(value)

  const urls = [...new Set(product.imageUrls.map((url) => url.trim()).filter(Boolean))]
  const main = product.mainImageUrl?.trim() || urls.find((url) => !isVideoUrl(url)) || null
  if (main && !urls.includes(main)) urls.unshift(main)
  if (!urls.length) warn('No tiene imágenes.')

  return {
    sku,
    name: product.name,
    description: product.description,
    priceLevel1: levels.priceLevel1,
    priceLevel2: level(product.priceLevels.level2, levels.priceLevel2),
    priceLevel3: level(product.priceLevels.level3, levels.priceLevel3),
    priceLevel4: level(product.priceLevels.level4, levels.priceLevel4),
    priceLevel5: level(product.priceLevels.level5, levels.priceLevel5),
    discountPercent: product.descuento,
    purchaseLink: product.purchaseLink,
    supplierInfo: product.supplierInfo,
    showWholesale: product.showProduct,
    showRetail: product.showProductDetal,
    createdAt: product.createdAt ?? now,
    categoryIds: [...new Set(product.categorias.map((id) => id.trim()).filter(Boolean))],
    media: urls.map((url) => ({ url, kind: isVideoUrl(url) ? 'video' : 'image', main: url === main })),
    history,
    openingCost,
    final,
    sourceMovements: movements.length,
  }
}

const STATUS_BY_LOWER = new Map<string, OrderStatus>(
  ORDER_STATUSES.map((status) => [status.toLowerCase(), status]),
)

function planOrder(plan: ImportPlan, id: string, raw: unknown, now: Date) {
  const refuse = (reason: string) => plan.refused.push({ kind: 'pedido', key: id, reason })
  const warn = (reason: string) => plan.warnings.push({ kind: 'pedido', key: id, reason })
  if (!id.trim()) return refuse('El pedido no tiene id.')
  const parsed = SourceOrderSchema.safeParse(raw)
  if (!parsed.success) return refuse(reasonOf(parsed.error))
  const order = parsed.data
  const status = STATUS_BY_LOWER.get(order.status.toLowerCase())
  if (!status) return refuse(`Estado desconocido "${order.status}".`)
  const method = order.customer_details.payment_method ?? 'acordar'
  if (!PAYMENT_METHODS.includes(method as PaymentMethod)) {
    return refuse(`Método de pago desconocido "${method}".`)
  }
  if (!order.customer_details.payment_method) warn('No decía el método de pago: se toma "acordar".')

  const items = new Map<string, ImportedOrder['items'][number]>()
  for (const item of order.items) {
    const unitPrice = pesosToCentavos(item.unit_price)
    const earlier = items.get(item.id)
    if (earlier && earlier.unitPrice !== unitPrice) {
      return refuse(`El SKU ${item.id} aparece dos veces con precios distintos.`)
    }
    items.set(item.id, {
      sku: item.id,
      title: earlier?.title || item.title,
      quantity: (earlier?.quantity ?? 0) + item.quantity,
      unitPrice,
    })
  }
  const subtotal = [...items.values()].reduce((sum, item) => sum + item.quantity * item.unitPrice, 0)
  const shippingCost = pesosToCentavos(order.shipping_cost)
  const total = pesosToCentavos(order.total)
  if (subtotal + shippingCost > MAX_ORDER_CENTAVOS) {
    return refuse(`Sus artículos suman ${pesosText(subtotal)}: más de lo que un pedido puede guardar.`)
  }
  if (total !== subtotal + shippingCost) {
    if (total === subtotal && shippingCost > 0) {
      warn('Su total no incluía el envío: el total queda como artículos + envío.')
    } else {
      return refuse(
        `Su total (${pesosText(total)}) no es la suma de los artículos (${pesosText(subtotal)}) más el envío (${pesosText(shippingCost)}).`,
      )
    }
  }
  if (!order.createdAt) warn('No tenía fecha: se toma la de la importación.')
  const createdAt = order.createdAt ?? now
  const shipped =
    order.enviado === true ||
    (typeof order.enviado === 'string' && order.enviado.trim().toLowerCase() === 'enviado')
  const c = order.customer_details
  plan.orders.push({
    id,
    status,
    // The original kept no shipping date: the order's own date is the closest known one.
    shippedAt: shipped ? createdAt : null,
    paymentMethod: method as PaymentMethod,
    customer: {
      name: c.name,
      lastName: c.last_name,
      identificationNumber: c.identification_number,
      phone: c.phone,
      email: c.email,
      address: c.address,
      city: c.city,
      department: c.department,
    },
    items: [...items.values()],
    subtotal,
    shippingCost,
    total: subtotal + shippingCost,
    createdAt,
    note: `Importado de la tienda original con estado "${order.status}"${shipped ? ' y enviado' : ''}.`,
  })
  plan.hashes.order.set(id, contentHash(raw))
}

function planClicks(plan: ImportPlan, month: string, document: unknown) {
  const key = `clickEvents/${month}`
  if (!MONTH.test(month)) {
    plan.refused.push({ kind: 'clics', key, reason: 'El mes debe tener la forma AAAA-MM.' })
    return
  }
  const parsed = SourceClicksSchema.safeParse(document)
  if (!parsed.success) {
    plan.refused.push({ kind: 'clics', key, reason: reasonOf(parsed.error) })
    return
  }
  plan.hashes.clicks.set(month, contentHash(document))
  plan.clicks.push({
    month,
    rows: Object.entries(parsed.data).map(([elementName, { click_count }]) => ({
      month,
      elementName,
      clickCount: click_count,
    })),
  })
}

function planPageViews(plan: ImportPlan, month: string, document: unknown) {
  const key = `pageViews/${month}`
  if (!MONTH.test(month)) {
    plan.refused.push({ kind: 'visitas', key, reason: 'El mes debe tener la forma AAAA-MM.' })
    return
  }
  const parsed = SourcePageViewsSchema.safeParse(document)
  if (!parsed.success) {
    plan.refused.push({ kind: 'visitas', key, reason: reasonOf(parsed.error) })
    return
  }
  plan.hashes['page-views'].set(month, contentHash(document))
  plan.pageViews.push({
    month,
    rows: Object.entries(parsed.data).map(([pageName, { visits, totalTime }]) => ({
      month,
      pageName,
      visits,
      totalTimeSeconds: Math.round(totalTime ?? 0),
    })),
  })
}
