import { and, eq, sql, type SQL } from 'drizzle-orm'
import { bulkInsert } from '#app/db/bulk-insert.server.ts'
import type { Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { applyMovement, EMPTY_STOCK, type Movement, type StockState } from './movements.ts'
import { productLocations, stockMovements } from './schema.ts'
import { enqueueStockSync } from './channel-stock-queue.server.ts'

/** The product columns only this module writes (a guard test keeps it so). */
export const STOCK_COLUMNS = ['stock', 'reserved', 'unitsIn', 'unitsOut', 'cost'] as const

export type StockLine = { sku: string; quantity: number }

/** Units the shop can still sell or move: stock − reserved, never below 0 (one home for the rule). */
export const availableUnitsSql = sql<number>`greatest(${products.stock} - ${products.reserved}, 0)::int`

/**
 * A product's current average cost in centavos (0 for an unknown SKU), for reads outside the
 * catalogue that estimate what units not shipped yet will cost (the sales report).
 */
export const averageCostSql = (sku: SQL) => sql<number>`coalesce(${knownAverageCostSql(sku)}, 0)`

/** Like `averageCostSql`, but null for a SKU no longer in the catalogue (its cost is unknown, not 0). */
export const knownAverageCostSql = (sku: SQL) =>
  sql<number | null>`(select ${products.cost} from ${products} where ${products.sku} = ${sku})`

/** A reservation found fewer available units (stock − reserved) than asked for. */
export class OutOfStock extends Error {
  override name = 'OutOfStock'
  constructor(readonly sku: string) {
    super(`No hay unidades disponibles de ${sku}`)
  }
}

/**
 * The product asked for is not in the catalogue at all. Still an `OutOfStock` for a checkout (no
 * units to sell either way); an import tells it apart, since the product may be yet to come.
 */
export class UnknownProduct extends OutOfStock {
  override name = 'UnknownProduct'
  constructor(sku: string) {
    super(sku)
    this.message = `No existe el producto ${sku}`
  }
}

/**
 * One line per sku, in one fixed order: every writer locks product rows in this order, so two
 * transactions never wait on each other's rows (no deadlock).
 */
export function inLockOrder(lines: StockLine[]): StockLine[] {
  const merged = new Map<string, number>()
  for (const line of lines) merged.set(line.sku, (merged.get(line.sku) ?? 0) + line.quantity)
  return [...merged]
    .map(([sku, quantity]) => ({ sku, quantity }))
    .sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0))
}

/**
 * Holds units for an order in the caller's transaction: each line is taken atomically from the
 * available units, so two orders never get the same last unit. Throws `OutOfStock` when a line
 * cannot be held; the caller's transaction must then roll back (earlier lines are already held).
 */
export async function reserveUnits(tx: Tx, jobs: JobQueue, lines: StockLine[]): Promise<void> {
  const ordered = await holdUnits(tx, lines)
  await enqueueStockSync(
    jobs,
    tx,
    ordered.map((line) => line.sku),
  )
}

/**
 * `reserveUnits` without telling the channels: for an import, after which the channels are
 * brought up to date as a whole (the admin's "Sincronizar todo"). Gives the lines in lock order.
 */
export async function holdUnits(tx: Tx, lines: StockLine[]): Promise<StockLine[]> {
  const ordered = inLockOrder(lines)
  for (const line of ordered) {
    const [row] = await tx
      .update(products)
      .set({ reserved: sql`${products.reserved} + ${line.quantity}`, updatedAt: new Date() })
      .where(and(eq(products.sku, line.sku), sql`${availableUnitsSql} >= ${line.quantity}`))
      .returning({ sku: products.sku })
    if (!row) {
      const [known] = await tx.select({ sku: products.sku }).from(products).where(eq(products.sku, line.sku))
      throw known ? new OutOfStock(line.sku) : new UnknownProduct(line.sku)
    }
  }
  return ordered
}

/** Gives held units back (an order cancelled before shipping), in the caller's transaction. */
export async function releaseUnits(tx: Tx, jobs: JobQueue, lines: StockLine[]): Promise<void> {
  const ordered = inLockOrder(lines)
  for (const line of ordered) {
    await tx
      .update(products)
      .set({ reserved: sql`greatest(${products.reserved} - ${line.quantity}, 0)`, updatedAt: new Date() })
      .where(eq(products.sku, line.sku))
  }
  await enqueueStockSync(
    jobs,
    tx,
    ordered.map((line) => line.sku),
  )
}

/** A movement from the past, with who made it and when. */
export type PastMovement = Movement & { receipt: string; note: string; at: Date; by: string }

/**
 * Writes the past movements of products that have none yet (the demo shop, an import), in bulk:
 * each product's stock, units in and out, average cost and locations come out as if every
 * movement had been made in turn, and every movement is in the ledger with the stock and cost
 * after it. `openingCost` is a cost typed before any entry (it stays the cost of a product with no
 * movements; the first entry replaces it). Throws, writing nothing, when a movement breaks a stock
 * rule or a product already has stock or movements.
 */
export async function replayHistories(
  db: Tx,
  histories: { sku: string; movements: PastMovement[]; openingCost?: number }[],
) {
  const finals: { sku: string; state: StockState }[] = []
  const ledger: (typeof stockMovements.$inferInsert)[] = []
  for (const { sku, movements, openingCost = 0 } of histories) {
    let state: StockState = { ...EMPTY_STOCK, cost: openingCost }
    for (const movement of movements) {
      const applied = applyMovement(state, movement)
      if (!applied.ok) throw new Error(`${sku}: ${applied.message}`)
      state = applied.state
      ledger.push({
        productSku: sku,
        type: movement.type,
        quantity: movement.quantity,
        unitPrice: movement.unitPrice,
        total: movement.quantity * movement.unitPrice,
        receipt: movement.receipt,
        note: movement.note,
        location: movement.location,
        stockAfter: state.stock,
        averageCostAfter: state.cost,
        createdBy: movement.by,
        createdAt: movement.at,
      })
    }
    finals.push({ sku, state })
  }
  if (!finals.length) return
  const json = JSON.stringify(
    finals.map(({ sku, state }) => ({
      sku,
      stock: state.stock,
      units_in: state.unitsIn,
      units_out: state.unitsOut,
      cost: state.cost,
    })),
  )
  const result = await db.execute(sql`
    update ${products} p
    set stock = v.stock, units_in = v.units_in, units_out = v.units_out, cost = v.cost
    from json_populate_recordset(null::${products}, ${json}::json) v
    where p.sku = v.sku and p.stock = 0 and p.reserved = 0 and p.units_in = 0 and p.units_out = 0
    returning p.sku`)
  const updated = (result as unknown as { rows: unknown[] }).rows.length
  if (updated !== finals.length) {
    throw new Error(
      `replayHistories: ${finals.length - updated} productos no existen o ya tienen movimientos`,
    )
  }
  await bulkInsert(db, stockMovements, ledger)
  await bulkInsert(
    db,
    productLocations,
    finals.flatMap(({ sku, state }) =>
      [...state.locations].map(([code, stock]) => ({ productSku: sku, code, stock })),
    ),
  )
}

/**
 * Forgets all stock: the ledger and every location, and every product back at zero (the seed
 * script's `--reset`, which then removes the products themselves). Never called by the store.
 */
export async function clearAllStock(tx: Tx) {
  await tx.delete(stockMovements)
  await tx.delete(productLocations)
  await tx.update(products).set({ stock: 0, reserved: 0, unitsIn: 0, unitsOut: 0, cost: 0 })
}
