import fc from 'fast-check'
import { expect, test } from 'vitest'
import { centavosToWholePesos, formatCOP, percentOf, pesosToCentavos } from './money.ts'

const spaces = (text: string) => text.replace(/\s/g, ' ')

test('formats centavos in the Colombian locale with two decimals', () => {
  expect(spaces(formatCOP(45_000_00))).toBe('$ 45.000,00')
  expect(spaces(formatCOP(1_234_567_89))).toBe('$ 1.234.567,89')
  expect(spaces(formatCOP(0))).toBe('$ 0,00')
})

test('writes every amount exactly as the es-CO currency format of Intl does', () => {
  const intl = new Intl.NumberFormat('es-CO', {
    style: 'currency',
    currency: 'COP',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })
  const edges = [0, 1, 5, 10, 99, 100, 101, 999, 1_000, 99_999, 100_000, 12_345_678, 1_000_000_00]
  for (const centavos of [...edges, ...edges.map((amount) => -amount).filter(Boolean)]) {
    expect(formatCOP(centavos), String(centavos)).toBe(intl.format(centavos / 100))
  }
  fc.assert(
    fc.property(fc.integer({ min: -1e13, max: 1e13 }), (centavos) => {
      expect(formatCOP(centavos)).toBe(intl.format(centavos / 100))
    }),
  )
})

test('converts between pesos and centavos', () => {
  expect(pesosToCentavos(100000)).toBe(10_000_000)
  expect(pesosToCentavos(19.99)).toBe(1999)
  expect(centavosToWholePesos(4_675_050)).toBe(46_751)
})

test('percent of an amount rounds to the centavo', () => {
  expect(percentOf(10_000, 15)).toBe(1_500)
  expect(percentOf(999, 33)).toBe(330)
})
