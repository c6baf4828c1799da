export type ShippingRules = { shippingCost: number; freeShippingThreshold: number }

/** Spec §9: free when the subtotal exceeds the threshold, otherwise the configured cost (centavos). */
export function shippingFor(subtotal: number, rules: ShippingRules): number {
  if (subtotal <= 0) return 0
  return subtotal > rules.freeShippingThreshold ? 0 : rules.shippingCost
}

export function cartTotals(
  lines: { unitPrice: number; quantity: number }[],
  rules: ShippingRules,
): { subtotal: number; shipping: number; total: number } {
  const subtotal = lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0)
  const shipping = shippingFor(subtotal, rules)
  return { subtotal, shipping, total: subtotal + shipping }
}

/**
 * Whether an order of this subtotal ships free: what the "Envío gratis" notices may promise (a
 * zero shipping cost, or a subtotal over the threshold).
 */
export function shipsFree(subtotal: number, rules: ShippingRules): boolean {
  return rules.shippingCost === 0 || subtotal > rules.freeShippingThreshold
}
