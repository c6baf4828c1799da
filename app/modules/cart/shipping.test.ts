import { expect, test } from 'vitest'
import { cartTotals, shippingFor } from './shipping.ts'

const rules = { shippingCost: 8_000_00, freeShippingThreshold: 100_000_00 }

test('shipping is free only when the subtotal exceeds the threshold (spec §9)', () => {
  expect(shippingFor(100_000_01, rules)).toBe(0)
  expect(shippingFor(100_000_00, rules)).toBe(8_000_00)
  expect(shippingFor(50_000_00, rules)).toBe(8_000_00)
})

test('an empty cart pays no shipping', () => {
  expect(shippingFor(0, rules)).toBe(0)
})

test('with the product default of 0 shipping is always free', () => {
  expect(shippingFor(10_00, { shippingCost: 0, freeShippingThreshold: 100_000_00 })).toBe(0)
})

test('totals add the lines and shipping', () => {
  expect(
    cartTotals(
      [
        { unitPrice: 30_000_00, quantity: 2 },
        { unitPrice: 15_500_50, quantity: 1 },
      ],
      rules,
    ),
  ).toEqual({ subtotal: 75_500_50, shipping: 8_000_00, total: 83_500_50 })
})
