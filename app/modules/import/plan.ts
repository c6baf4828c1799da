import { createHash } from 'node:crypto'
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
import { MONTH_PATTERN } from '#app/modules/analytics/validators.ts'
import {
  analyticsNameProblem,
  MAX_ID_LENGTH,
  MAX_INTEGER,
  parseSource,
  plainCount,
  quoted,
  reasonOf,
  recordProblem,
  SourceCategorySchema,
  SourceClickSchema,
  SourceMovementSchema,
  SourceOrderSchema,
  SourcePageViewSchema,
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
 *
 * It is the SHA-256 of `safe-stable-stringify`'s text of `parts` (what earlier runs kept in
 * `import_records`, so it must not change), fed to the hash piece by piece rather than built as
 * one string: a month of 700,000 clicks made a 50 MB text, and several times that in the pieces
 * concatenated to make it. Only called on records `recordProblem` passed (a few levels deep).
 */
export function contentHash(...parts: unknown[]): string {
  const digest = new StableDigest()
  digest.value(parts)
  return digest.finish()
}

// eslint-disable-next-line no-control-regex -- the characters JSON escapes
const NEEDS_ESCAPE = /[\u0000-\u001f\u0022\u005c\ud800-\udfff]/
/** A string as JSON writes it (safe-stable-stringify's `strEscape`). */
const jsonString = (text: string) => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`)
/** Text gathered before it goes to the hash: fewer calls into it, no large strings. */
const DIGEST_CHUNK = 65_536

class StableDigest {
  private readonly hash = createHash('sha256')
  private pending = ''

  private write(text: string) {
    this.pending += text
    if (this.pending.length > DIGEST_CHUNK) {
      this.hash.update(this.pending)
      this.pending = ''
    }
  }

  /** Writes `value` as safe-stable-stringify would (keys sorted); false when it writes nothing. */
  value(value: unknown, key = ''): boolean {
    if (
      value !== null &&
      typeof value === 'object' &&
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ) {
      value = (value as { toJSON(key: string): unknown }).toJSON(key)
    }
    switch (typeof value) {
      case 'string':
        this.write(jsonString(value))
        return true
      case 'number':
        this.write(Number.isFinite(value) ? String(value) : 'null')
        return true
      case 'boolean':
        this.write(value ? 'true' : 'false')
        return true
      case 'bigint':
        this.write(String(value))
        return true
      case 'object':
        break
      default:
        return false
    }
    if (value === null) {
      this.write('null')
      return true
    }
    if (Array.isArray(value)) {
      this.write('[')
      value.forEach((item: unknown, index) => {
        if (index) this.write(',')
        if (!this.value(item, String(index))) this.write('null')
      })
      this.write(']')
      return true
    }
    const object = value as Record<string, unknown>
    // Its default order (UTF-16 code units), as safe-stable-stringify sorts.
    const keys = Object.keys(object).sort()
    this.write('{')
    let separator = ''
    for (const name of keys) {
      const field = object[name]
      if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue
      this.write(`${separator}${jsonString(name)}:`)
      this.value(field, name)
      separator = ','
    }
    this.write('}')
    return true
  }

  finish(): string {
    this.hash.update(this.pending)
    return this.hash.digest('hex')
  }
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

const MAX_ORDER_CENTAVOS = MAX_INTEGER

/** What a replayed ledger may carry past `MAX_INTEGER`, as the owner reads it. */
const REPLAYED_FIGURES = [
  ['stock', 'el stock'],
  ['unitsIn', 'las entradas'],
  ['unitsOut', 'las salidas'],
  ['cost', 'el costo promedio (en centavos)'],
] as const

const BLOCK_KEY = /^productos\/productos_bloque_(\d+)$/

/** How long a key of the export may be in the report (the rest is cut: it is for reading). */
const SHOWN_KEY = 120

/** A key as the report shows it: a hostile one may be 100,000 characters long. */
export const shownKey = (key: string) => (key.length > SHOWN_KEY ? `${key.slice(0, SHOWN_KEY)}…` : key)

/**
 * Where a long import is, for the console: a Spanish label, and how far along when it is counted.
 * Called often (the caller throttles what it prints).
 */
export type ImportProgress = (label: string, done?: number, total?: number) => void

/** An export read as it streams: its top-level keys with their documents, in file order. */
export type ExportDocuments = AsyncIterable<readonly [key: string, document: unknown]>

/** How many rows or records go by between two progress calls. */
const PROGRESS_EVERY = 1_000

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A list field of a document, or null when the document does not hold one. */
function listOf(document: unknown, field: string): unknown[] | null {
  return isRecord(document) && Array.isArray(document[field]) ? (document[field] as unknown[]) : null
}

const pesosText = (centavos: number) => formatCOP(centavos)

function emptyPlan(): ImportPlan {
  return {
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
    refused: [],
    warnings: [],
  }
}

const isAsyncIterable = (value: unknown): value is ExportDocuments =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value

/**
 * Reads an export (see `validators.ts` for its shape) into what Vitrina will write, checking every
 * record on its own: a record that is malformed, contradicts itself or passes a bound of Vitrina's
 * own forms or columns is refused with the reason and the rest goes on. Nothing here reads or
 * writes the database, and nothing here throws on what the export holds.
 */
export function planImport(source: unknown, now: Date, progress?: ImportProgress): ImportPlan {
  if (!isRecord(source)) {
    const plan = emptyPlan()
    plan.refused.push({
      kind: 'documento',
      key: '(exportación)',
      reason: 'La exportación debe ser un objeto JSON con una clave por documento.',
    })
    return plan
  }
  const planner = new ExportPlanner(now, progress)
  for (const key of Object.keys(source)) planner.add(key, source[key])
  return planner.finish()
}

/**
 * `planImport` for an export held whole (a parsed object) or read document by document as it
 * streams (`ExportDocuments`): a month of analytics is planned and let go as soon as it is read, so
 * a large export never sits whole in memory.
 */
export async function planExport(source: unknown, now: Date, progress?: ImportProgress): Promise<ImportPlan> {
  if (!isAsyncIterable(source)) return planImport(source, now, progress)
  const planner = new ExportPlanner(now, progress)
  for await (const [key, document] of source) planner.add(key, document)
  return planner.finish()
}

/**
 * The plan being built, one top-level document at a time. Analytics months are planned as they
 * come; the catalogue's documents and the orders wait for `finish` (a product needs its ledger,
 * which may come before or after it), so the report keeps one order whatever the file's.
 */
class ExportPlanner {
  private readonly plan = emptyPlan()
  private readonly blocks: { number: number; products: unknown[] }[] = []
  private readonly ledgers = new Map<string, unknown[]>()
  private readonly orderDocuments: [string, unknown][] = []
  private categoryDocument: unknown[] | null = null
  /** A streamed file may repeat a key, which `JSON.parse` would have merged away. */
  private readonly keys = new Set<string>()

  constructor(
    private readonly now: Date,
    private readonly progress: ImportProgress | undefined,
  ) {}

  private refuse(key: string, reason: string) {
    this.plan.refused.push({ kind: 'documento', key: shownKey(key), reason })
  }

  add(key: string, document: unknown) {
    if (this.keys.has(key)) {
      this.refuse(key, 'Esta clave aparece más de una vez en la exportación: se leyó solo la primera.')
      return
    }
    this.keys.add(key)
    const block = BLOCK_KEY.exec(key)
    const listError = (field: string) => this.refuse(key, `No tiene la lista "${field}".`)
    if (block) {
      const list = listOf(document, 'productos')
      if (list) this.blocks.push({ number: Number(block[1]), products: list })
      else listError('productos')
    } else if (key === 'productos/categorias') {
      this.categoryDocument = listOf(document, 'categorias')
      if (!this.categoryDocument) listError('categorias')
    } else if (key.startsWith('movimientos/')) {
      const list = listOf(document, 'movimientos')
      if (list) this.ledgers.set(key.slice('movimientos/'.length), list)
      else listError('movimientos')
    } else if (key === 'pedidos') {
      if (isRecord(document)) {
        for (const id of Object.keys(document)) this.orderDocuments.push([id, document[id]])
      } else this.refuse(key, 'Debe ser un objeto con un pedido por id.')
    } else if (key.startsWith('pedidos/')) {
      this.orderDocuments.push([key.slice('pedidos/'.length), document])
    } else if (key.startsWith('clickEvents/')) {
      planClicks(this.plan, key.slice('clickEvents/'.length), document, this.progress)
    } else if (key.startsWith('pageViews/')) {
      planPageViews(this.plan, key.slice('pageViews/'.length), document, this.progress)
    } else {
      this.refuse(key, 'Documento desconocido: no se importó.')
    }
  }

  finish(): ImportPlan {
    const { plan, blocks, now } = this
    planCategories(plan, this.categoryDocument, now)
    blocks.sort((a, b) => a.number - b.number)
    const missingBlock = blocks.findIndex((block, index) => block.number !== index + 1)
    if (missingBlock >= 0) {
      plan.warnings.push({
        kind: 'documento',
        key: `productos/productos_bloque_${missingBlock + 1}`,
        reason:
          'Falta este bloque: la tienda original dejaba de leer aquí; los bloques siguientes se importan igual.',
      })
    }
    planProducts(plan, blocks, this.ledgers, now, this.progress)
    const seen = new Set<string>()
    for (const [index, [id, document]] of this.orderDocuments.entries()) {
      if (index % PROGRESS_EVERY === 0) this.progress?.('Pedidos', index, this.orderDocuments.length)
      if (seen.has(id)) {
        plan.refused.push({
          kind: 'pedido',
          key: shownKey(id),
          reason: 'Id repetido en la exportación: se importó el primero.',
        })
        continue
      }
      seen.add(id)
      planOrder(plan, id, document, now)
    }
    this.progress?.('Pedidos', this.orderDocuments.length, this.orderDocuments.length)
    return plan
  }
}

function planCategories(plan: ImportPlan, list: unknown[] | null, now: Date) {
  const seen = new Set<string>()
  for (const [index, raw] of (list ?? []).entries()) {
    const key = isRecord(raw) && typeof raw.id === 'string' ? shownKey(raw.id) : `categorias[${index}]`
    const problem = recordProblem(raw)
    if (problem) {
      plan.refused.push({ kind: 'categoría', key, reason: problem })
      continue
    }
    const parsed = parseSource(SourceCategorySchema, raw)
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
  progress: ImportProgress | undefined,
) {
  const seen = new Set<string>()
  const total = blocks.reduce((sum, block) => sum + block.products.length, 0)
  let done = 0
  for (const block of blocks) {
    for (const [index, raw] of block.products.entries()) {
      if (done++ % PROGRESS_EVERY === 0) progress?.('Productos', done - 1, total)
      const sku = isRecord(raw) && typeof raw.sku === 'string' ? raw.sku.trim() : ''
      const key = sku ? shownKey(sku) : `productos_bloque_${block.number}[${index}]`
      const problem = recordProblem(raw)
      const parsed = problem ? null : parseSource(SourceProductSchema, raw)
      if (!parsed?.success) {
        plan.refused.push({
          kind: 'producto',
          key,
          reason: problem ?? reasonOf(parsed!.error!),
        })
        // Its ledger goes with it, not reported again as a ledger without a product.
        ledgers.delete(sku)
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
  progress?.('Productos', total, total)
  for (const [sku] of ledgers) {
    plan.refused.push({
      kind: 'movimientos',
      key: shownKey(sku),
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
    const problem = recordProblem(raw)
    const parsed = problem ? null : parseSource(SourceMovementSchema, raw)
    if (!parsed?.success) {
      return refuse(
        `El movimiento ${index + 1} no es válido (${problem ?? reasonOf(parsed!.error!)}); no se importó el producto.`,
      )
    }
    if (parsed.data.sku && parsed.data.sku.trim() !== sku) {
      return refuse(
        `El movimiento ${index + 1} es de otro SKU (${quoted(parsed.data.sku)}); no se importó el producto.`,
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
      return refuse(`La ubicación ${quoted(ubicacion)} no tiene el formato P1-C1-A1-E1-X1-Y1-Z1.`)
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
  const refuse = (reason: string) => plan.refused.push({ kind: 'pedido', key: shownKey(id), reason })
  const warn = (reason: string) => plan.warnings.push({ kind: 'pedido', key: id, reason })
  if (!id.trim()) return refuse('El pedido no tiene id.')
  if (id.length > MAX_ID_LENGTH) return refuse(`Su id tiene más de ${MAX_ID_LENGTH} caracteres.`)
  const problem = recordProblem(id) ?? recordProblem(raw)
  if (problem) return refuse(problem)
  const parsed = parseSource(SourceOrderSchema, raw)
  if (!parsed.success) return refuse(reasonOf(parsed.error))
  const order = parsed.data
  const status = STATUS_BY_LOWER.get(order.status.toLowerCase())
  if (!status) return refuse(`Estado desconocido ${quoted(order.status)}.`)
  const method = order.customer_details.payment_method ?? 'acordar'
  if (!PAYMENT_METHODS.includes(method as PaymentMethod)) {
    return refuse(`Método de pago desconocido ${quoted(method)}.`)
  }
  if (!order.customer_details.payment_method) warn('No decía el método de pago: se toma "acordar".')

  const items = new Map<string, ImportedOrder['items'][number]>()
  for (const item of order.items) {
    const unitPrice = pesosToCentavos(item.unit_price)
    const earlier = items.get(item.id)
    if (earlier && earlier.unitPrice !== unitPrice) {
      return refuse(`El SKU ${quoted(item.id)} aparece dos veces con precios distintos.`)
    }
    const quantity = (earlier?.quantity ?? 0) + item.quantity
    if (quantity > MAX_INTEGER) {
      return refuse(
        `Sus líneas del SKU ${quoted(item.id)} suman ${quantity} unidades, más de lo que Vitrina puede guardar (${MAX_INTEGER}).`,
      )
    }
    items.set(item.id, { sku: item.id, title: earlier?.title || item.title, quantity, unitPrice })
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

/** A month of clicks or page views: its key, or why it is refused (null when it may be read). */
function monthProblem(month: string, document: unknown, what: string): string | null {
  if (!MONTH_PATTERN.test(month)) return 'El mes debe tener la forma AAAA-MM.'
  if (!isRecord(document)) return `Debe ser un objeto con un registro por ${what}.`
  return recordProblem(document)
}

function planClicks(
  plan: ImportPlan,
  month: string,
  document: unknown,
  progress: ImportProgress | undefined,
) {
  const refuse = (reason: string) =>
    plan.refused.push({ kind: 'clics', key: shownKey(`clickEvents/${month}`), reason })
  const problem = monthProblem(month, document, 'elemento')
  if (problem) return refuse(problem)
  const record = document as Record<string, unknown>
  const names = Object.keys(record)
  const rows: ImportedClicks[] = []
  for (const [index, elementName] of names.entries()) {
    // Only a large month is worth a line (an old shop may have hundreds of them).
    if (index % PROGRESS_EVERY === 0 && names.length > PROGRESS_EVERY) {
      progress?.(`Clics de ${month}`, index, names.length)
    }
    const nameProblem = analyticsNameProblem(elementName)
    if (nameProblem) return refuse(`Elemento ${quoted(elementName)}: ${nameProblem}.`)
    const entry = record[elementName]
    let clickCount = isRecord(entry) ? plainCount(entry.click_count) : null
    if (clickCount === null) {
      const parsed = parseSource(SourceClickSchema, entry)
      if (!parsed.success) return refuse(reasonOf(parsed.error, elementName))
      clickCount = parsed.data.click_count
    }
    rows.push({ month, elementName, clickCount })
  }
  plan.hashes.clicks.set(month, contentHash(document))
  plan.clicks.push({ month, rows })
}

function planPageViews(
  plan: ImportPlan,
  month: string,
  document: unknown,
  progress: ImportProgress | undefined,
) {
  const refuse = (reason: string) =>
    plan.refused.push({ kind: 'visitas', key: shownKey(`pageViews/${month}`), reason })
  const problem = monthProblem(month, document, 'página')
  if (problem) return refuse(problem)
  const record = document as Record<string, unknown>
  const names = Object.keys(record)
  const rows: ImportedPageViews[] = []
  for (const [index, pageName] of names.entries()) {
    // Only a large month is worth a line (an old shop may have hundreds of them).
    if (index % PROGRESS_EVERY === 0 && names.length > PROGRESS_EVERY) {
      progress?.(`Visitas de ${month}`, index, names.length)
    }
    const nameProblem = analyticsNameProblem(pageName)
    if (nameProblem) return refuse(`Página ${quoted(pageName)}: ${nameProblem}.`)
    const entry = record[pageName]
    let visits = isRecord(entry) ? plainCount(entry.visits) : null
    let seconds = isRecord(entry) ? plainCount(entry.totalTime) : null
    if (visits === null || seconds === null) {
      const parsed = parseSource(SourcePageViewSchema, entry)
      if (!parsed.success) return refuse(reasonOf(parsed.error, pageName))
      visits = parsed.data.visits
      seconds = Math.round(parsed.data.totalTime ?? 0)
    }
    rows.push({ month, pageName, visits, totalTimeSeconds: seconds })
  }
  plan.hashes['page-views'].set(month, contentHash(document))
  plan.pageViews.push({ month, rows })
}
