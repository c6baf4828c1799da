import { describe, expect, test } from 'vitest'
import { discountedInvoiceLines, exactDiscountPercent } from './discount-lines.ts'

/** What Factus charges for these lines: price × quantity × (1 − rate / 100), in centavos. */
const charged = (lines: ReturnType<typeof discountedInvoiceLines>) =>
  lines.reduce((sum, line) => sum + (line.unitPrice * line.quantity * (100 - line.discountPercent)) / 100, 0)

const line = { sku: 'COL', name: 'Collar Luna', vat: 19 as const }

describe('discounts on the invoice', () => {
  test('a percentage with 2 decimals when one takes exactly the discount off', () => {
    expect(exactDiscountPercent(90_000_00, 9_000_00)).toBe(10)
    expect(exactDiscountPercent(20_000_00, 2_500)).toBeNull()
    expect(exactDiscountPercent(12_000_00, 5_000_00)).toBeNull()
    expect(exactDiscountPercent(12_000_00, 0)).toBe(0)
    expect(
      discountedInvoiceLines({ ...line, quantity: 2, unitPrice: 45_000_00, discount: 9_000_00 }),
    ).toEqual([{ ...line, quantity: 2, unitPrice: 45_000_00, discountPercent: 10 }])
  })

  test('"lleve 3, pague 2": the paid units, and the free one at 100 %', () => {
    const lines = discountedInvoiceLines({ ...line, quantity: 3, unitPrice: 45_000_00, discount: 45_000_00 })
    expect(lines).toEqual([
      { ...line, quantity: 2, unitPrice: 45_000_00, discountPercent: 0 },
      { ...line, quantity: 1, unitPrice: 45_000_00, discountPercent: 100 },
    ])
    expect(charged(lines)).toBe(90_000_00)
  })

  test('otherwise the units at their net price, one with the centavos left: always exactly the net', () => {
    expect(
      discountedInvoiceLines({ ...line, quantity: 3, unitPrice: 33_333_00, discount: 7_777_77 }),
    ).toEqual([{ ...line, quantity: 3, unitPrice: 30_740_41, discountPercent: 0 }])
    const lines = discountedInvoiceLines({ ...line, quantity: 3, unitPrice: 33_333_00, discount: 7_777_78 })
    expect(lines).toEqual([
      { ...line, quantity: 2, unitPrice: 30_740_40, discountPercent: 0 },
      { ...line, quantity: 1, unitPrice: 30_740_42, discountPercent: 0 },
    ])
    expect(charged(lines)).toBe(3 * 33_333_00 - 7_777_78)
    for (let seed = 1; seed <= 300; seed++) {
      const quantity = (seed % 5) + 1
      const unitPrice = ((seed * 7919) % 9_000_000) + 1
      const discount = (seed * 104_729) % (unitPrice * quantity + 1)
      const result = discountedInvoiceLines({ ...line, quantity, unitPrice, discount })
      expect(Math.round(charged(result))).toBe(unitPrice * quantity - discount)
      for (const part of result) expect(part.quantity).toBeGreaterThan(0)
    }
  })
})
