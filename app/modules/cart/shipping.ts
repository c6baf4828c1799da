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

/**
 * A shipping rule for one department ("05") or one municipality ("05001"), by DANE code: its own
 * cost (centavos; null keeps the general cost) and whether cash on delivery is taken there. The
 * owner keeps them in "Configuraciones"; the free-shipping threshold stays above them all.
 */
export type ShippingZone = { code: string; cost: number | null; cashOnDelivery: boolean }

/** Where an order goes, by DANE code. */
export type ShippingPlace = { departmentCode: string; municipalityCode: string }

/** The zone that rules this place: its municipality's, else its department's (none: undefined). */
export function zoneFor(
  zones: readonly ShippingZone[],
  place: ShippingPlace | null,
): ShippingZone | undefined {
  if (!place) return undefined
  return (
    zones.find((candidate) => candidate.code === place.municipalityCode) ??
    zones.find((candidate) => candidate.code === place.departmentCode)
  )
}

/**
 * The shipping rules for an order to this place: its zone's own cost (the owner's price for that
 * municipality or department, `zoneFor`), else the carrier's live quote when there is one
 * (`quotedCost`, centavos), else the general cost; cash on delivery is taken unless that zone turns
 * it off. The free-shipping threshold stays above them all (`shippingFor`).
 */
export function rulesForPlace(
  rules: ShippingRules,
  zones: readonly ShippingZone[],
  place: ShippingPlace | null,
  quotedCost: number | null = null,
): ShippingRules & { cashOnDelivery: boolean } {
  const zone = zoneFor(zones, place)
  return {
    shippingCost: zone?.cost ?? quotedCost ?? rules.shippingCost,
    freeShippingThreshold: rules.freeShippingThreshold,
    cashOnDelivery: zone?.cashOnDelivery ?? true,
  }
}
