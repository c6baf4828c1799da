import { and, asc, eq, gte, lt, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { bogotaDayRange, bogotaStamp } from '#app/utils/bogota-days.ts'
import { csvPesos, spreadsheetCsv, type CsvCell } from '#app/utils/spreadsheet-csv.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { KARDEX_COLUMNS } from './kardex-columns.ts'
import { productLocations, stockMovements } from './schema.ts'
import { availableUnitsSql } from './stock.server.ts'
import type { KardexFilters } from './validators.ts'
import { hasNul } from '#app/utils/text.ts'

/** Rows per kardex page. */
export const KARDEX_PAGE_SIZE = 50

/** Ledger types as the kardex names them (spec §3: "Entrada", "Salida"; cost adjustments are ours). */
export const MOVEMENT_TYPE_LABELS: Record<string, string> = {
  in: 'Entrada',
  out: 'Salida',
  adjust: 'Ajuste de costo',
}

const bogotaDateTime = new Intl.DateTimeFormat('es-CO', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'America/Bogota',
})

/** One ledger row, display-ready (dates formatted on the server so the page hydrates identically). */
export type KardexRow = {
  id: number
  at: string
  when: string
  type: string
  typeLabel: string
  quantity: number
  unitPrice: number
  total: number
  receipt: string
  note: string
  location: string
  stockAfter: number
  averageCostAfter: number
  by: string
}

export type KardexProduct = {
  sku: string
  name: string
  stock: number
  reserved: number
  available: number
  cost: number
}

/** The kardex's figures of cost: only a role that may see costs gets them (issue 27). */
type KardexCostField = 'unitPrice' | 'total' | 'averageCostAfter'

/** A ledger row as it leaves the server: without its unit price, total and average cost for some. */
export type ShownKardexRow = Omit<KardexRow, KardexCostField> & Partial<Pick<KardexRow, KardexCostField>>
export type ShownKardexProduct = Omit<KardexProduct, 'cost'> & { cost?: number }
export type ShownKardex = { product: ShownKardexProduct; rows: ShownKardexRow[]; hasMore: boolean }

/**
 * A kardex page for a role that may not see costs: quantities, stock after, location, receipt and
 * note stay; the unit prices, totals and average costs go (the product's too).
 */
export function kardexWithoutCosts(kardex: {
  product: KardexProduct
  rows: KardexRow[]
  hasMore: boolean
}): ShownKardex {
  const { cost: _cost, ...product } = kardex.product
  return {
    product,
    rows: kardex.rows.map(({ unitPrice: _price, total: _total, averageCostAfter: _average, ...row }) => row),
    hasMore: kardex.hasMore,
  }
}

/** The CSV's columns that carry costs, dropped for a role that may not see them. */
const KARDEX_COST_COLUMNS: ReadonlySet<string> = new Set([
  'Precio unitario',
  'Total',
  'Costo promedio después',
])

function kardexWhere(sku: string, filters: Pick<KardexFilters, 'from' | 'to'>): SQL | undefined {
  const { start, end } = bogotaDayRange(filters)
  return and(
    eq(stockMovements.productSku, sku),
    start ? gte(stockMovements.createdAt, start) : undefined,
    end ? lt(stockMovements.createdAt, end) : undefined,
  )
}

async function ledgerRows(
  db: DbOrTx,
  sku: string,
  filters: Pick<KardexFilters, 'from' | 'to'>,
  page?: { offset: number; limit: number },
): Promise<KardexRow[]> {
  const query = db
    .select()
    .from(stockMovements)
    .where(kardexWhere(sku, filters))
    .orderBy(asc(stockMovements.id))
  const rows = page ? await query.offset(page.offset).limit(page.limit) : await query
  return rows.map((row) => ({
    id: row.id,
    at: row.createdAt.toISOString(),
    when: bogotaDateTime.format(row.createdAt),
    type: row.type,
    typeLabel: MOVEMENT_TYPE_LABELS[row.type] ?? row.type,
    quantity: row.quantity,
    unitPrice: row.unitPrice,
    total: row.total,
    receipt: row.receipt,
    note: row.note,
    location: row.location,
    stockAfter: row.stockAfter,
    averageCostAfter: row.averageCostAfter,
    by: row.createdBy,
  }))
}

/** The product a kardex is about, or null for an unknown SKU. */
export async function kardexProduct(db: DbOrTx, sku: string): Promise<KardexProduct | null> {
  // A NUL is in no sku, and PostgreSQL would refuse the query for it.
  if (hasNul(sku)) return null
  const [product] = await db
    .select({
      sku: products.sku,
      name: products.name,
      stock: products.stock,
      reserved: products.reserved,
      available: availableUnitsSql,
      cost: products.cost,
    })
    .from(products)
    .where(eq(products.sku, sku))
  return product ?? null
}

/**
 * One page of a product's kardex: its ledger rows in the order they happened (oldest first, as a
 * ledger reads), within the Bogotá day range. Null when the SKU is unknown.
 */
export async function readKardex(
  db: DbOrTx,
  sku: string,
  filters: KardexFilters,
  pageSize = KARDEX_PAGE_SIZE,
): Promise<{ product: KardexProduct; rows: KardexRow[]; hasMore: boolean } | null> {
  const product = await kardexProduct(db, sku)
  if (!product) return null
  const rows = await ledgerRows(db, product.sku, filters, {
    offset: (filters.page - 1) * pageSize,
    limit: pageSize + 1,
  })
  return { product, rows: rows.slice(0, pageSize), hasMore: rows.length > pageSize }
}

/** The product's locations with units, for the exit form's suggestions. */
export async function locationsOf(db: DbOrTx, sku: string): Promise<{ code: string; stock: number }[]> {
  const rows = await db
    .select({ code: productLocations.code, stock: productLocations.stock })
    .from(productLocations)
    .where(eq(productLocations.productSku, sku))
    .orderBy(asc(productLocations.code))
  return rows.filter((row) => row.stock > 0)
}

/**
 * The kardex rows of the day range as CSV (`spreadsheetCsv`: what Excel in es-CO opens), Spanish
 * headers, Bogotá times, money in pesos; without the columns of cost unless `costs`. Null when the
 * SKU is unknown.
 */
export async function kardexCsv(
  db: DbOrTx,
  sku: string,
  filters: Pick<KardexFilters, 'from' | 'to'>,
  { costs = true }: { costs?: boolean } = {},
): Promise<{ sku: string; csv: string } | null> {
  const product = await kardexProduct(db, sku)
  if (!product) return null
  const rows = await ledgerRows(db, product.sku, filters)
  const records = rows.map((row) => [
    bogotaStamp(new Date(row.at)),
    row.typeLabel,
    row.quantity,
    csvPesos(row.unitPrice),
    csvPesos(row.total),
    row.receipt,
    row.note,
    row.location,
    row.stockAfter,
    csvPesos(row.averageCostAfter),
    row.by,
  ])
  if (costs) return { sku: product.sku, csv: spreadsheetCsv(KARDEX_COLUMNS, records) }
  const kept = (_: unknown, index: number) => !KARDEX_COST_COLUMNS.has(KARDEX_COLUMNS[index]!)
  const csv = spreadsheetCsv(
    KARDEX_COLUMNS.filter(kept),
    records.map((record: CsvCell[]) => record.filter(kept)),
  )
  return { sku: product.sku, csv }
}
