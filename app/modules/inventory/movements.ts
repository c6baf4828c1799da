import { averageCostAfterEntry, averageCostAfterExit } from './average-cost.ts'
import { STOCK_MESSAGES } from './validators.ts'

/** What the stock columns and location rows of one product hold. Money in centavos. */
export type StockState = {
  stock: number
  /** Weighted average cost per unit (`average-cost.ts`). */
  cost: number
  unitsIn: number
  unitsOut: number
  /** Units per location code; a location at 0 is gone (spec §4). */
  locations: ReadonlyMap<string, number>
}

/** An entry (Entrada) or exit (Salida) of whole units at one location. */
export type Movement = {
  type: 'in' | 'out'
  quantity: number
  /** Unit cost of an entry, unit price of an exit. */
  unitPrice: number
  location: string
}

export const EMPTY_STOCK: StockState = { stock: 0, cost: 0, unitsIn: 0, unitsOut: 0, locations: new Map() }

/**
 * Spec §4 stock changes: an entry adds to stock, units in and its location (created when absent);
 * an exit takes from stock and its location (removed at 0) and adds to units out, refused when the
 * product or the location lacks the units. The average cost follows spec §9.
 */
export function applyMovement(
  state: StockState,
  movement: Movement,
): { ok: true; state: StockState } | { ok: false; message: string } {
  const { quantity, unitPrice, location } = movement
  if (!Number.isInteger(quantity) || quantity < 1) throw new RangeError(`Cantidad inválida: ${quantity}`)
  if (!Number.isInteger(unitPrice) || unitPrice < 0) throw new RangeError(`Precio inválido: ${unitPrice}`)
  const locations = new Map(state.locations)
  const atLocation = locations.get(location)
  if (movement.type === 'in') {
    locations.set(location, (atLocation ?? 0) + quantity)
    return {
      ok: true,
      state: {
        stock: state.stock + quantity,
        cost: averageCostAfterEntry(state.stock, state.cost, quantity, unitPrice),
        unitsIn: state.unitsIn + quantity,
        unitsOut: state.unitsOut,
        locations,
      },
    }
  }
  if (quantity > state.stock) return { ok: false, message: STOCK_MESSAGES.notEnoughStock }
  if (atLocation === undefined) return { ok: false, message: STOCK_MESSAGES.unknownLocation(location) }
  if (quantity > atLocation) return { ok: false, message: STOCK_MESSAGES.notEnoughAtLocation(location) }
  if (atLocation === quantity) locations.delete(location)
  else locations.set(location, atLocation - quantity)
  return {
    ok: true,
    state: {
      stock: state.stock - quantity,
      cost: averageCostAfterExit(state.stock, state.cost, quantity, unitPrice),
      unitsIn: state.unitsIn,
      unitsOut: state.unitsOut + quantity,
      locations,
    },
  }
}
