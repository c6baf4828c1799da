import { describe, expect, test } from 'vitest'
import {
  discountedPrice,
  levelPesos,
  priceLevelsFrom,
  priceLevelsWith,
  profitOf,
  truncateName,
} from './pricing.ts'

describe('price levels (spec §3, §9)', () => {
  test('levels 2..5 are 80, 70, 60 and 40 % of level 1', () => {
    expect(priceLevelsFrom(10_000_00)).toEqual({
      priceLevel1: 10_000_00,
      priceLevel2: 8_000_00,
      priceLevel3: 7_000_00,
      priceLevel4: 6_000_00,
      priceLevel5: 4_000_00,
    })
  })

  test('rounds to the centavo (2 decimals of a peso)', () => {
    // 333,33 pesos × 0,8 = 266,664 → 266,66
    expect(priceLevelsFrom(333_33).priceLevel2).toBe(266_66)
    expect(priceLevelsFrom(333_33).priceLevel5).toBe(133_33)
  })
})

describe('discounted price (spec §5)', () => {
  test('level 1 less the discount percent of level 1', () => {
    expect(discountedPrice(80_000_00, 20)).toBe(64_000_00)
    expect(discountedPrice(55_000_00, 15)).toBe(46_750_00)
  })

  test('no discount, or a negative one, keeps the price', () => {
    expect(discountedPrice(80_000_00, 0)).toBe(80_000_00)
    expect(discountedPrice(80_000_00, -5)).toBe(80_000_00)
  })

  test('never goes below zero', () => {
    expect(discountedPrice(80_000_00, 150)).toBe(0)
  })

  test('rounds to the centavo', () => {
    expect(discountedPrice(999, 33)).toBe(669)
  })
})

describe('card name truncation (spec §5)', () => {
  test('names of up to 14 characters stay whole', () => {
    expect(truncateName('Collar Dorado')).toBe('Collar Dorado')
    expect(truncateName('12345678901234')).toBe('12345678901234')
  })

  test('longer names show their first 15 characters and "..."', () => {
    expect(truncateName('Collar Corazón Dorado')).toBe('Collar Corazón ...')
    expect(truncateName('123456789012345')).toBe('123456789012345...')
  })
})

describe('admin form prices (spec §3)', () => {
  test('a typed level 5 replaces the computed 40 %; levels 2..4 still follow level 1', () => {
    expect(priceLevelsWith(10_000_00)).toEqual(priceLevelsFrom(10_000_00))
    expect(priceLevelsWith(10_000_00, 3_500_00)).toEqual({
      priceLevel1: 10_000_00,
      priceLevel2: 8_000_00,
      priceLevel3: 7_000_00,
      priceLevel4: 6_000_00,
      priceLevel5: 3_500_00,
    })
  })

  test('profit is price (level 1) minus cost, negative below cost', () => {
    expect(profitOf(45_000_00, 12_000_00)).toBe(33_000_00)
    expect(profitOf(10_000_00, 12_500_50)).toBe(-2_500_50)
  })

  test('the form mirrors levels in pesos rounded to 2 decimals', () => {
    expect(levelPesos(45000.5, 0.8)).toBe(36000.4)
    expect(levelPesos(333.33, 0.8)).toBe(266.66)
    expect(levelPesos(333.33, 0.4)).toBe(133.33)
    expect(levelPesos(0.05, 0.7)).toBe(0.04)
  })
})
