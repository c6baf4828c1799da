import { expect, test } from 'vitest'
import { cartTotals, rulesForPlace, shippingFor } from './shipping.ts'

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

test("a municipality's zone wins over its department's, which wins over the general cost", () => {
  const zones = [
    { code: '05', cost: 12_000_00, cashOnDelivery: true },
    { code: '05001', cost: 6_000_00, cashOnDelivery: true },
    { code: '88', cost: null, cashOnDelivery: false },
  ]
  const medellin = { departmentCode: '05', municipalityCode: '05001' }
  const rionegro = { departmentCode: '05', municipalityCode: '05615' }
  const sanAndres = { departmentCode: '88', municipalityCode: '88001' }
  const bogota = { departmentCode: '11', municipalityCode: '11001' }
  expect(rulesForPlace(rules, zones, medellin)).toEqual({
    ...rules,
    shippingCost: 6_000_00,
    cashOnDelivery: true,
  })
  expect(rulesForPlace(rules, zones, rionegro).shippingCost).toBe(12_000_00)
  expect(rulesForPlace(rules, zones, sanAndres)).toEqual({ ...rules, cashOnDelivery: false })
  expect(rulesForPlace(rules, zones, bogota)).toEqual({ ...rules, cashOnDelivery: true })
  expect(rulesForPlace(rules, zones, null)).toEqual({ ...rules, cashOnDelivery: true })
  // The free-shipping threshold stays above every zone.
  expect(shippingFor(100_000_01, rulesForPlace(rules, zones, rionegro))).toBe(0)
})

test('a live quote prices the place when its zone has no cost of its own; the threshold still wins', () => {
  const zones = [
    { code: '05', cost: 12_000_00, cashOnDelivery: true },
    { code: '05001', cost: null, cashOnDelivery: false },
  ]
  const quote = 9_450_00
  const medellin = { departmentCode: '05', municipalityCode: '05001' }
  const rionegro = { departmentCode: '05', municipalityCode: '05615' }
  const bogota = { departmentCode: '11', municipalityCode: '11001' }
  // The owner's own price for the department wins over the quote.
  expect(rulesForPlace(rules, zones, rionegro, quote).shippingCost).toBe(12_000_00)
  // A zone without a cost of its own (only cash on delivery) leaves the quote, and keeps its flag.
  expect(rulesForPlace(rules, zones, medellin, quote)).toEqual({
    ...rules,
    shippingCost: quote,
    cashOnDelivery: false,
  })
  expect(rulesForPlace(rules, zones, bogota, quote)).toEqual({
    ...rules,
    shippingCost: quote,
    cashOnDelivery: true,
  })
  // No quote (none asked, or it failed): the general cost.
  expect(rulesForPlace(rules, zones, bogota, null).shippingCost).toBe(rules.shippingCost)
  // The free-shipping threshold stays above the quote.
  expect(shippingFor(100_000_01, rulesForPlace(rules, zones, bogota, quote))).toBe(0)
  expect(shippingFor(50_000_00, rulesForPlace(rules, zones, bogota, quote))).toBe(quote)
})
