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
