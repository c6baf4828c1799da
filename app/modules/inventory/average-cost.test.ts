import { describe, expect, test } from 'vitest'
import { averageCostAfterEntry, averageCostAfterExit } from './average-cost.ts'

describe('entry', () => {
  test('weights the old stock and the new units', () => {
    // 10 × $20.000 + 5 × $26.000 = $330.000 over 15 units = $22.000
    expect(averageCostAfterEntry(10, 2_000_000, 5, 2_600_000)).toBe(2_200_000)
  })

  test('the first entry takes its unit cost', () => {
    expect(averageCostAfterEntry(0, 0, 7, 1_234_500)).toBe(1_234_500)
    // An old cost with no stock behind it weighs nothing.
    expect(averageCostAfterEntry(0, 999_900, 3, 500_000)).toBe(500_000)
  })

  test('rounds to the nearest centavo', () => {
    // (2 × 100 + 1 × 101) / 3 = 100,33… centavos
    expect(averageCostAfterEntry(2, 100, 1, 101)).toBe(100)
    // (1 × 100 + 2 × 101) / 3 = 100,66… centavos
    expect(averageCostAfterEntry(1, 100, 2, 101)).toBe(101)
  })

  test('free units lower the average', () => {
    // 4 × $10.000 + 4 × $0 over 8 units = $5.000
    expect(averageCostAfterEntry(4, 1_000_000, 4, 0)).toBe(500_000)
  })
})

describe('exit', () => {
  test('at the average cost leaves the average as it was', () => {
    expect(averageCostAfterExit(15, 2_200_000, 6, 2_200_000)).toBe(2_200_000)
  })

  test('at an edited price moves the average of what remains', () => {
    // 10 × $20.000 − 4 × $17.000 = $132.000 over 6 units = $22.000
    expect(averageCostAfterExit(10, 2_000_000, 4, 1_700_000)).toBe(2_200_000)
    // 10 × $20.000 − 2 × $26.000 = $148.000 over 8 units = $18.500
    expect(averageCostAfterExit(10, 2_000_000, 2, 2_600_000)).toBe(1_850_000)
  })

  test('rounds to the nearest centavo', () => {
    // (3 × 100 − 1 × 99) / 2 = 100,5 → 101 centavos
    expect(averageCostAfterExit(3, 100, 1, 99)).toBe(101)
  })

  test('to zero stock makes the cost 0', () => {
    expect(averageCostAfterExit(5, 2_000_000, 5, 2_000_000)).toBe(0)
    expect(averageCostAfterExit(5, 2_000_000, 5, 3_100_000)).toBe(0)
  })

  test('never goes below zero', () => {
    // 2 × $1.000 − 1 × $5.000 over 1 unit would be −$3.000
    expect(averageCostAfterExit(2, 100_000, 1, 500_000)).toBe(0)
  })
})
