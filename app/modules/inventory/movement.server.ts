import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { isLocationCode, normalizeLocationCode } from './locations.ts'
import { applyMovement, type Movement, type StockState } from './movements.ts'
import { productLocations, stockMovements } from './schema.ts'
import { enqueueStockSync } from './channel-stock-queue.server.ts'
import { inLockOrder, type StockLine } from './stock.server.ts'
import { STOCK_MESSAGES } from './validators.ts'

/** Money in centavos. The location is normalised (trimmed, upper case) and format-checked here. */
export type EntryInput = {
  sku: string
  quantity: number
  unitCost: number
  location: string
  receipt: string
  note: string
}
export type ExitInput = {
  sku: string
  quantity: number
  /**
   * What each unit leaves at; 'average-cost' (spec §5: the read-only price) is the product's cost
   * read under the lock, so a movement landing a moment earlier cannot leave it stale.
   */
  unitPrice: number | 'average-cost'
  location: string
  receipt: string
  note: string
}
export type MovementResult = { movementId: number; stock: number; cost: number }

/** The form field a refusal is about, so the form can show the message beside it. */
export type StockField = 'sku' | 'quantity' | 'unitPrice' | 'location'

/** An entry or exit the stock rules refuse, with the spec's Spanish message (nothing was written). */
export class StockRefused extends Refusal {
  override name = 'StockRefused'
  constructor(
    message: string,
    readonly field?: StockField,
    status = 409,
  ) {
    super(message, { status, standsAlone: true })
  }
}

type LockedStock = StockState & { reserved: number }

/**
 * The product's stock columns and locations, its row locked until the caller's transaction ends:
 * every stock writer goes through here, so two movements of one product never interleave.
 */
async function lockStock(tx: Tx, sku: string): Promise<LockedStock | null> {
  const [row] = await tx
    .select({
      stock: products.stock,
      reserved: products.reserved,
      cost: products.cost,
      unitsIn: products.unitsIn,
      unitsOut: products.unitsOut,
    })
    .from(products)
    .where(eq(products.sku, sku))
    .for('update')
  if (!row) return null
  const rows = await tx
    .select({ code: productLocations.code, stock: productLocations.stock })
    .from(productLocations)
    .where(eq(productLocations.productSku, sku))
  return { ...row, locations: new Map(rows.map((location) => [location.code, location.stock])) }
}

/** Writes what changed between the locked state and the new one: the product row and its locations. */
async function saveStock(tx: Tx, sku: string, before: LockedStock, after: LockedStock) {
  await tx
    .update(products)
    .set({
      stock: after.stock,
      reserved: after.reserved,
      cost: after.cost,
      unitsIn: after.unitsIn,
      unitsOut: after.unitsOut,
      updatedAt: new Date(),
    })
    .where(eq(products.sku, sku))
  for (const [code, stock] of after.locations) {
    if (before.locations.get(code) === stock) continue
    await tx
      .insert(productLocations)
      .values({ productSku: sku, code, stock })
      .onConflictDoUpdate({ target: [productLocations.productSku, productLocations.code], set: { stock } })
  }
  const emptied = [...before.locations.keys()].filter((code) => !after.locations.has(code))
  if (emptied.length) {
    await tx
      .delete(productLocations)
      .where(and(eq(productLocations.productSku, sku), inArray(productLocations.code, emptied)))
  }
}

type LedgerDetails = { receipt: string; note: string; by: string; orderId?: string }

async function appendLedger(
  tx: Tx,
  sku: string,
  movement: Movement | { type: 'adjust'; quantity: 0; unitPrice: number; location: '' },
  after: StockState,
  details: LedgerDetails,
): Promise<number> {
  const [row] = await tx
    .insert(stockMovements)
    .values({
      productSku: sku,
      type: movement.type,
      quantity: movement.quantity,
      unitPrice: movement.unitPrice,
      total: movement.quantity * movement.unitPrice,
      receipt: details.receipt,
      note: details.note,
      location: movement.location,
      orderId: details.orderId,
      stockAfter: after.stock,
      averageCostAfter: after.cost,
      createdBy: details.by,
    })
    .returning({ id: stockMovements.id })
  return row!.id
}

/** Applies one movement to the locked state or throws the spec's refusal for it. */
function applyOrRefuse(state: LockedStock, movement: Movement): LockedStock {
  const applied = applyMovement(state, movement)
  if (applied.ok) return { ...applied.state, reserved: state.reserved }
  const field: StockField = applied.message === STOCK_MESSAGES.notEnoughStock ? 'quantity' : 'location'
  throw new StockRefused(applied.message, field)
}

/** Checks what the domain must never take, whatever form sent it; gives the normalised location. */
function checkedMovement(input: {
  quantity: number
  price: number
  priceMessage: string
  location: string
}): string {
  if (!Number.isInteger(input.quantity) || input.quantity < 1) {
    throw new StockRefused(STOCK_MESSAGES.quantity, 'quantity', 400)
  }
  if (!Number.isInteger(input.price) || input.price < 0) {
    throw new StockRefused(input.priceMessage, 'unitPrice', 400)
  }
  const location = normalizeLocationCode(input.location)
  if (!location) throw new StockRefused(STOCK_MESSAGES.missingFields, 'location', 400)
  if (!isLocationCode(location)) throw new StockRefused(STOCK_MESSAGES.locationFormat, 'location', 400)
  return location
}

async function lockOrRefuse(tx: Tx, sku: string): Promise<LockedStock> {
  const state = await lockStock(tx, sku)
  if (!state) throw new StockRefused(STOCK_MESSAGES.productNotFound, 'sku', 404)
  return state
}

/**
 * Entrada (spec §4, §9): adds to stock, units in and the location (created when absent); the
 * average cost becomes (stock × cost + qty × unit cost) / new stock. One transaction with the
 * product row locked, a ledger row saying who, and the channels told of the new stock.
 */
export async function recordEntry(
  db: Db,
  jobs: JobQueue,
  input: EntryInput,
  by: string,
): Promise<MovementResult> {
  const location = checkedMovement({
    quantity: input.quantity,
    price: input.unitCost,
    priceMessage: STOCK_MESSAGES.unitCost,
    location: input.location,
  })
  return db.transaction(async (tx) => {
    const before = await lockOrRefuse(tx, input.sku)
    const movement: Movement = { type: 'in', quantity: input.quantity, unitPrice: input.unitCost, location }
    const after = applyOrRefuse(before, movement)
    await saveStock(tx, input.sku, before, after)
    const movementId = await appendLedger(tx, input.sku, movement, after, { ...input, by })
    await enqueueStockSync(jobs, tx, [input.sku])
    return { movementId, stock: after.stock, cost: after.cost }
  })
}

/**
 * Salida (spec §4, §5, §9): refused when the quantity exceeds stock, the location does not exist or
 * lacks the units, or the exit would take units that orders have reserved. Takes from stock and the
 * location (removed at 0), adds to units out; the average cost becomes (stock × cost − qty × unit
 * price) / remaining, or 0 when none remains.
 */
export async function recordExit(
  db: Db,
  jobs: JobQueue,
  input: ExitInput,
  by: string,
): Promise<MovementResult> {
  const location = checkedMovement({
    quantity: input.quantity,
    price: input.unitPrice === 'average-cost' ? 0 : input.unitPrice,
    priceMessage: STOCK_MESSAGES.unitPrice,
    location: input.location,
  })
  return db.transaction(async (tx) => {
    const before = await lockOrRefuse(tx, input.sku)
    const unitPrice = input.unitPrice === 'average-cost' ? before.cost : input.unitPrice
    const movement: Movement = { type: 'out', quantity: input.quantity, unitPrice, location }
    const after = applyOrRefuse(before, movement)
    const available = before.stock - before.reserved
    if (input.quantity > available) {
      throw new StockRefused(
        STOCK_MESSAGES.reservedUnits(Math.max(available, 0), before.reserved),
        'quantity',
      )
    }
    await saveStock(tx, input.sku, before, after)
    const movementId = await appendLedger(tx, input.sku, movement, after, { ...input, by })
    await enqueueStockSync(jobs, tx, [input.sku])
    return { movementId, stock: after.stock, cost: after.cost }
  })
}

export type ShippedUnits = { sku: string; location: string; quantity: number; unitPrice: number }

/**
 * "Marcar como Enviado", in the order's transaction: the units the order holds leave the shop. Each
 * line's reservation becomes exits in the ledger (receipt = the order number) at the current average
 * cost, so the cost of what stays is unchanged, taken from the product's locations, largest first.
 */
export async function shipOrderUnits(
  tx: Tx,
  jobs: JobQueue,
  order: { id: string; number: number; lines: StockLine[] },
  by: string,
): Promise<ShippedUnits[]> {
  const shipped: ShippedUnits[] = []
  const details = {
    receipt: String(order.number),
    note: `Envío del pedido ${order.number}`,
    by,
    orderId: order.id,
  }
  for (const line of inLockOrder(order.lines)) {
    const before = await lockOrRefuse(tx, line.sku)
    // Units the order no longer holds (its reservation was released) belong to other orders.
    if (before.reserved < line.quantity) {
      throw new StockRefused(
        STOCK_MESSAGES.notReserved(line.sku, line.quantity, order.number, before.reserved),
      )
    }
    let state = before
    let missing = line.quantity
    const largestFirst = [...before.locations].sort(([codeA, a], [codeB, b]) =>
      b !== a ? b - a : codeA.localeCompare(codeB),
    )
    for (const [location, atLocation] of largestFirst) {
      if (missing === 0) break
      const movement: Movement = {
        type: 'out',
        quantity: Math.min(missing, atLocation),
        unitPrice: state.cost,
        location,
      }
      state = applyOrRefuse(state, movement)
      await appendLedger(tx, line.sku, movement, state, details)
      shipped.push({ sku: line.sku, location, quantity: movement.quantity, unitPrice: movement.unitPrice })
      missing -= movement.quantity
    }
    if (missing > 0) {
      // Stock without a location (data from before locations were kept): a person must record where.
      throw new StockRefused(
        `Las ubicaciones de ${line.sku} no tienen las ${line.quantity} unidad(es) del pedido ${order.number}; registra una entrada con su ubicación antes de enviarlo.`,
      )
    }
    await saveStock(tx, line.sku, before, { ...state, reserved: before.reserved - line.quantity })
  }
  await enqueueStockSync(
    jobs,
    tx,
    order.lines.map((line) => line.sku),
  )
  return shipped
}

/**
 * Cancelling an order that already shipped, in the order's transaction: every exit of the order
 * comes back as an entry (a return) at its location and exit cost. Once: an order whose units came
 * back already returns nothing more.
 */
export async function returnShippedUnits(
  tx: Tx,
  jobs: JobQueue,
  order: { id: string; number: number },
  by: string,
): Promise<void> {
  const rows = await tx
    .select({
      sku: stockMovements.productSku,
      type: stockMovements.type,
      quantity: stockMovements.quantity,
      unitPrice: stockMovements.unitPrice,
      location: stockMovements.location,
    })
    .from(stockMovements)
    .where(eq(stockMovements.orderId, order.id))
    .orderBy(asc(stockMovements.id))
  if (rows.some((row) => row.type === 'in')) return
  const exits = rows.filter((row) => row.type === 'out')
  const details = {
    receipt: String(order.number),
    note: `Devolución del pedido ${order.number}`,
    by,
    orderId: order.id,
  }
  const skus = [...new Set(exits.map((row) => row.sku))].sort()
  for (const sku of skus) {
    const before = await lockOrRefuse(tx, sku)
    let state = before
    for (const exit of exits.filter((row) => row.sku === sku)) {
      const movement: Movement = {
        type: 'in',
        quantity: exit.quantity,
        unitPrice: exit.unitPrice,
        location: exit.location,
      }
      state = applyOrRefuse(state, movement)
      await appendLedger(tx, sku, movement, state, details)
    }
    await saveStock(tx, sku, before, state)
  }
  await enqueueStockSync(jobs, tx, skus)
}

/**
 * A unit cost typed in the product form (centavos): `from` is the cost the form was loaded with,
 * `to` what it posts. Nothing happens unless the admin changed it (the form always posts the
 * cost, and a movement may have moved the average since the page loaded); a change made against
 * a cost that has moved meanwhile is refused, so it never undoes that movement. Once the product
 * has stock the change is a ledger row (a cost adjustment, quantity 0), so every change of stock
 * and cost is explained there.
 */
export async function adjustCost(
  tx: Tx,
  sku: string,
  { from, to: cost }: { from: number; to: number },
  by: string,
): Promise<void> {
  if (!Number.isInteger(cost) || cost < 0) throw new StockRefused(STOCK_MESSAGES.unitCost, 'unitPrice', 400)
  if (cost === from) return
  const before = await lockOrRefuse(tx, sku)
  if (before.cost === cost) return
  if (before.cost !== from) throw new StockRefused(STOCK_MESSAGES.costMoved, 'unitPrice')
  const after = { ...before, cost }
  await saveStock(tx, sku, before, after)
  if (before.stock > 0) {
    await appendLedger(tx, sku, { type: 'adjust', quantity: 0, unitPrice: cost, location: '' }, after, {
      receipt: '',
      note: 'Ajuste de costo desde el formulario del producto',
      by,
    })
  }
}
