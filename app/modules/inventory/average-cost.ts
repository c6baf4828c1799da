/**
 * Weighted average cost of a product (spec §9), in integer centavos per unit. Products multiply
 * exactly as JavaScript numbers up to 2^53 (about 90 million units at 1.000.000 pesos), far past
 * any shop's stock.
 */

/** After an entry: (stock × cost + qty × unit cost) / new stock, to the nearest centavo. */
export function averageCostAfterEntry(
  stock: number,
  cost: number,
  quantity: number,
  unitCost: number,
): number {
  const newStock = stock + quantity
  if (newStock <= 0) return 0
  return Math.round((stock * cost + quantity * unitCost) / newStock)
}

/**
 * After an exit: (stock × cost − qty × unit price) / remaining stock, or 0 when none remains. An
 * exit priced above the average (the admin edited the price) could push the result below zero; a
 * cost is never negative, so it stops at 0.
 */
export function averageCostAfterExit(
  stock: number,
  cost: number,
  quantity: number,
  unitPrice: number,
): number {
  const remaining = stock - quantity
  if (remaining <= 0) return 0
  return Math.max(0, Math.round((stock * cost - quantity * unitPrice) / remaining))
}
