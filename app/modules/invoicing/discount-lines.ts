import type { InvoiceLine, Vat } from './provider.ts'

/**
 * How an order's discounts go on its invoice (pure). An invoice line takes its discount as a
 * percentage with 2 decimals (Factus's `discount_rate`, applied to price × quantity), so each
 * line is written the way that charges exactly what the order charged for it, and the invoice's
 * total is the order's to the centavo. Centavos.
 */

/** The percentage (at most 2 decimals) that takes exactly `discount` off `gross`, or null when none does. */
export function exactDiscountPercent(gross: number, discount: number): number | null {
  if (discount === 0) return 0
  if (gross <= 0 || discount < 0 || discount > gross) return null
  const hundredths = Math.round((discount * 10_000) / gross)
  return gross * hundredths === discount * 10_000 ? hundredths / 100 : null
}

/**
 * An order line as invoice lines charging exactly its net (`unitPrice × quantity − discount`):
 * one line with its discount as a percentage when one is exact; else, when the discount is whole
 * units ("lleve 3, pague 2"), the paid units and the free ones at 100 %; else its units at their
 * net price, one of them with the centavos left over.
 */
export function discountedInvoiceLines(line: {
  sku: string
  name: string
  quantity: number
  unitPrice: number
  discount: number
  vat: Vat
}): InvoiceLine[] {
  const { discount, ...rest } = line
  const base = { sku: rest.sku, name: rest.name, vat: rest.vat }
  const percent = exactDiscountPercent(line.unitPrice * line.quantity, discount)
  if (percent !== null)
    return [{ ...base, quantity: line.quantity, unitPrice: line.unitPrice, discountPercent: percent }]
  if (line.unitPrice > 0 && discount % line.unitPrice === 0) {
    const free = discount / line.unitPrice
    return [
      ...(line.quantity > free
        ? [{ ...base, quantity: line.quantity - free, unitPrice: line.unitPrice, discountPercent: 0 }]
        : []),
      { ...base, quantity: free, unitPrice: line.unitPrice, discountPercent: 100 },
    ]
  }
  const net = line.unitPrice * line.quantity - discount
  const each = Math.floor(net / line.quantity)
  const left = net - each * line.quantity
  if (left === 0) return [{ ...base, quantity: line.quantity, unitPrice: each, discountPercent: 0 }]
  return [
    ...(line.quantity > 1
      ? [{ ...base, quantity: line.quantity - 1, unitPrice: each, discountPercent: 0 }]
      : []),
    { ...base, quantity: 1, unitPrice: each + left, discountPercent: 0 },
  ]
}
