import { describe, expect, test } from 'vitest'
import {
  discountRowsOf,
  missOf,
  normalizeCode,
  pricePromotions,
  shareOut,
  shelfPriceOf,
  type PricingLine,
  type PromotionRule,
} from './rules.ts'

/** Every figure below is worked out by hand, in centavos. */
let nextId = 1
function rule(overrides: Partial<PromotionRule>): PromotionRule {
  return {
    id: nextId++,
    name: 'Promo',
    code: null,
    benefit: 'percent',
    target: 'order',
    percent: 0,
    amount: 0,
    buyQuantity: 0,
    payQuantity: 0,
    productSkus: [],
    categoryIds: [],
    minSubtotal: 0,
    combinable: false,
    ...overrides,
  }
}

function line(
  sku: string,
  unitPrice: number,
  quantity: number,
  extra: Partial<PricingLine> = {},
): PricingLine {
  return { sku, quantity, listPrice: unitPrice, unitPrice, categoryIds: [], ...extra }
}

// Collar 45.000 × 2 (category collares), Aretes 20.000 × 1 (category aretes); shipping 8.000.
const collar = line('COL-1', 45_000_00, 2, { categoryIds: ['collares'] })
const aretes = line('ARE-1', 20_000_00, 1, { categoryIds: ['aretes'] })
const cart = [collar, aretes]
const SHIPPING = 8_000_00

describe('one promotion on each target', () => {
  test('10 % on the whole order: 11.000 off 110.000, shared by line', () => {
    const priced = pricePromotions(cart, SHIPPING, [rule({ percent: 10 })])
    expect(priced.subtotal).toBe(110_000_00)
    expect(priced.lineDiscounts).toEqual({ 'COL-1': 9_000_00, 'ARE-1': 2_000_00 })
    expect(priced.shippingDiscount).toBe(0)
    expect(priced.total).toBe(110_000_00 + 8_000_00 - 11_000_00)
  })

  test('a fixed 15.000 on the order is shared in proportion: 90/110 and 20/110 of it', () => {
    const priced = pricePromotions(cart, SHIPPING, [rule({ benefit: 'fixed', amount: 15_000_00 })])
    // 15.000 × 90/110 = 12.272,7272… → 12.272,73 (the larger remainder takes the odd centavo); 2.727,27.
    expect(priced.lineDiscounts).toEqual({ 'COL-1': 12_272_73, 'ARE-1': 2_727_27 })
    expect(priced.discount).toBe(15_000_00)
  })

  test('a percentage on a category touches only its lines', () => {
    const priced = pricePromotions(cart, SHIPPING, [
      rule({ target: 'products', categoryIds: ['aretes'], percent: 25 }),
    ])
    expect(priced.lineDiscounts).toEqual({ 'ARE-1': 5_000_00 })
    expect(priced.total).toBe(113_000_00)
  })

  test('a chosen product by sku; a fixed amount larger than its lines stops at zero', () => {
    const priced = pricePromotions(cart, SHIPPING, [
      rule({ target: 'products', productSkus: ['ARE-1'], benefit: 'fixed', amount: 50_000_00 }),
    ])
    expect(priced.lineDiscounts).toEqual({ 'ARE-1': 20_000_00 })
    expect(priced.total).toBe(90_000_00 + 8_000_00)
  })

  test('free shipping is 100 % of the shipping; a fixed amount on shipping never goes below zero', () => {
    expect(pricePromotions(cart, SHIPPING, [rule({ target: 'shipping', percent: 100 })])).toMatchObject({
      shippingDiscount: 8_000_00,
      itemsDiscount: 0,
      total: 110_000_00,
    })
    expect(
      pricePromotions(cart, SHIPPING, [rule({ target: 'shipping', benefit: 'fixed', amount: 5_000_00 })])
        .shippingDiscount,
    ).toBe(5_000_00)
    expect(
      pricePromotions(cart, SHIPPING, [rule({ target: 'shipping', benefit: 'fixed', amount: 9_000_00 })])
        .shippingDiscount,
    ).toBe(8_000_00)
  })

  test('a shipping discount after the threshold rule: already free shipping gets nothing more', () => {
    const free = rule({ target: 'shipping', percent: 100, code: 'ENVIO' })
    expect(pricePromotions(cart, 0, [free]).discount).toBe(0)
    expect(missOf(free, cart, 0)).toBe('nothing')
  })

  test('"lleve 3 pague 2" mixed within a category, the cheapest unit of each group of 3 free', () => {
    const a = line('A', 30_000_00, 2, { categoryIds: ['aretes'] })
    const b = line('B', 10_000_00, 2, { categoryIds: ['aretes'] })
    const c = line('C', 50_000_00, 1, { categoryIds: ['collares'] })
    const priced = pricePromotions([a, b, c], SHIPPING, [
      rule({
        target: 'products',
        categoryIds: ['aretes'],
        benefit: 'buy_x_pay_y',
        buyQuantity: 3,
        payQuantity: 2,
      }),
    ])
    // Units dearest first: 30, 30, 10 | 10 — one whole group, its last unit (10.000) free.
    expect(priced.lineDiscounts).toEqual({ B: 10_000_00 })
    const six = line('A', 30_000_00, 6, { categoryIds: ['aretes'] })
    expect(
      pricePromotions([six], 0, [rule({ benefit: 'buy_x_pay_y', buyQuantity: 3, payQuantity: 2 })])
        .lineDiscounts,
    ).toEqual({ A: 60_000_00 })
  })

  test('a scheduled product discount replaces the own descuento, never raises the price', () => {
    // Level 1 50.000 with its own 10 % (45.000): a scheduled 30 % makes it 35.000, 10.000 off per unit.
    const own = line('D', 45_000_00, 2, { listPrice: 50_000_00 })
    const scheduled = rule({ target: 'products', productSkus: ['D'], benefit: 'set_discount', percent: 30 })
    expect(pricePromotions([own], 0, [scheduled]).lineDiscounts).toEqual({ D: 20_000_00 })
    // A scheduled 5 % is less than the own 10 %: the own price stands.
    expect(pricePromotions([own], 0, [{ ...scheduled, percent: 5 }]).discount).toBe(0)
    // Two combinable scheduled discounts (30 % and 20 %) set the price, they never add up: 35.000.
    const both = [
      { ...scheduled, combinable: true },
      { ...scheduled, id: scheduled.id + 1000, percent: 20, combinable: true },
    ]
    expect(pricePromotions([own], 0, both).lineDiscounts).toEqual({ D: 20_000_00 })
  })
})

describe('conditions and combining', () => {
  test('a minimum subtotal is judged on the lines before promotions', () => {
    const min = rule({ percent: 10, minSubtotal: 110_000_01 })
    expect(pricePromotions(cart, SHIPPING, [min]).discount).toBe(0)
    expect(missOf(min, cart, SHIPPING)).toBe('minimum')
    expect(pricePromotions(cart, SHIPPING, [{ ...min, minSubtotal: 110_000_00 }]).discount).toBe(11_000_00)
  })

  test('a products promotion with none of its products in the cart misses for "products"', () => {
    expect(missOf(rule({ target: 'products', categoryIds: ['pulseras'], percent: 10 }), cart, SHIPPING)).toBe(
      'products',
    )
  })

  test('combinable promotions stack in order: products first, then the order, then shipping', () => {
    const category = rule({ target: 'products', categoryIds: ['collares'], percent: 20, combinable: true })
    const order = rule({ percent: 10, combinable: true })
    const shipping = rule({ target: 'shipping', percent: 50, combinable: true })
    const priced = pricePromotions(cart, SHIPPING, [shipping, order, category])
    // Collares 90.000 − 20 % = 72.000; then 10 % of (72.000 + 20.000) = 9.200, shared 72/92 and 20/92:
    // 7.200 and 2.000. Shipping 8.000 − 50 % = 4.000.
    expect(priced.lineDiscounts).toEqual({ 'COL-1': 18_000_00 + 7_200_00, 'ARE-1': 2_000_00 })
    expect(priced.shippingDiscount).toBe(4_000_00)
    expect(priced.total).toBe(110_000_00 - 27_200_00 + 4_000_00)
    expect(priced.applied.map((applied) => applied.id)).toEqual([category.id, order.id, shipping.id])
  })

  test('the best single result when exclusive promotions compete; combinable ones together count as one option', () => {
    const exclusiveSmall = rule({ percent: 5 })
    const exclusiveBig = rule({ benefit: 'fixed', amount: 12_000_00 })
    const together = [
      rule({ percent: 5, combinable: true }),
      rule({ target: 'shipping', percent: 100, combinable: true }),
    ]
    // 5 % = 5.500; 12.000 fixed; together 5.500 + 8.000 = 13.500: the combinable set wins.
    expect(pricePromotions(cart, SHIPPING, [exclusiveSmall, exclusiveBig, ...together]).discount).toBe(
      13_500_00,
    )
    // Without free shipping the 12.000 wins over 5.500.
    const best = pricePromotions(cart, SHIPPING, [exclusiveSmall, exclusiveBig, together[0]!])
    expect(best.discount).toBe(12_000_00)
    expect(best.applied).toEqual([exclusiveBig])
  })

  test('stacked discounts never take a line below zero', () => {
    const priced = pricePromotions([aretes], 0, [
      rule({ benefit: 'fixed', amount: 15_000_00, combinable: true }),
      rule({
        benefit: 'fixed',
        amount: 15_000_00,
        combinable: true,
        target: 'products',
        productSkus: ['ARE-1'],
      }),
    ])
    expect(priced.total).toBe(0)
    expect(priced.lineDiscounts).toEqual({ 'ARE-1': 20_000_00 })
  })
})

describe('rounding to the centavo', () => {
  test('a percentage of an odd amount rounds half up, once for the whole target', () => {
    // 3 × 333,33 = 999,99; 15 % = 149,9985 → 150,00 (15.000 centavos); shared 1/3 each: 50,00.
    const odd = line('O', 333_33, 3)
    expect(pricePromotions([odd], 0, [rule({ percent: 15 })]).lineDiscounts).toEqual({ O: 150_00 })
  })

  test('shares add up to the total exactly; the odd centavos go to the largest remainders', () => {
    expect(shareOut(100, [1, 1, 1])).toEqual([34, 33, 33])
    expect(shareOut(1_000, [333, 333, 334])).toEqual([333, 333, 334])
    expect(shareOut(7, [0, 5])).toEqual([0, 7])
    expect(shareOut(0, [5, 5])).toEqual([0, 0])
  })
})

test('codes compare in upper case without spaces', () => {
  expect(normalizeCode(' laura 10 ')).toBe('LAURA10')
})

test('the summary shows one row per promotion, the code in brackets', () => {
  expect(
    discountRowsOf([
      { promotionId: 1, name: 'Black Friday', code: null, amount: 900 },
      { promotionId: 2, name: 'Envío gratis', code: 'ENVIO', amount: 800 },
      { promotionId: 1, name: 'Black Friday', code: null, amount: 100 },
    ]),
  ).toEqual([
    { name: 'Black Friday', amount: 1_000 },
    { name: 'Envío gratis (ENVIO)', amount: 800 },
  ])
})

describe('what a card shows', () => {
  const card = { sku: 'K', listPrice: 50_000_00, unitPrice: 45_000_00, categoryIds: ['collares'] }

  test('an automatic percentage on its category, after the own descuento, as a percentage of level 1', () => {
    const shelf = shelfPriceOf(card, [rule({ target: 'products', categoryIds: ['collares'], percent: 20 })])
    // 45.000 − 20 % = 36.000: 28 % below 50.000.
    expect(shelf).toEqual({ finalPrice: 36_000_00, discountPercent: 28, buyPay: null })
  })

  test('codes, minimums and fixed amounts are not on the shelf; "lleve 3 pague 2" is a badge', () => {
    const shelf = shelfPriceOf(card, [
      rule({ percent: 20, code: 'X' }),
      rule({ percent: 20, minSubtotal: 1 }),
      rule({ benefit: 'fixed', amount: 100 }),
      rule({
        target: 'products',
        categoryIds: ['collares'],
        benefit: 'buy_x_pay_y',
        buyQuantity: 3,
        payQuantity: 2,
      }),
    ])
    expect(shelf).toEqual({ finalPrice: 45_000_00, discountPercent: 10, buyPay: { buy: 3, pay: 2 } })
  })
})
