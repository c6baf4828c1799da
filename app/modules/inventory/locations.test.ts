import { expect, test } from 'vitest'
import { DEFAULT_LOCATION, isLocationCode, normalizeLocationCode } from './locations.ts'

test('the default location is the spec one and follows the format', () => {
  expect(DEFAULT_LOCATION).toBe('P1-C1-A1-E1-X1-Y1-Z1')
  expect(isLocationCode(DEFAULT_LOCATION)).toBe(true)
})

test('accepts every part with any number', () => {
  expect(isLocationCode('P2-C13-A1-E4-X10-Y1-Z0')).toBe(true)
})

test.each([
  ['', 'empty'],
  ['P1-C1-A1-E1-X1-Y1', 'a part missing'],
  ['P1-C1-A1-E1-X1-Y1-Z1-W1', 'a part too many'],
  ['C1-P1-A1-E1-X1-Y1-Z1', 'parts out of order'],
  ['P-C1-A1-E1-X1-Y1-Z1', 'a part without its number'],
  ['P1 C1 A1 E1 X1 Y1 Z1', 'spaces instead of dashes'],
  ['P1-C1-A1-E1-X1-Y1-Z1 ', 'spaces around (not normalized)'],
  ['p1-c1-a1-e1-x1-y1-z1', 'lower case (not normalized)'],
])('refuses %j (%s)', (code) => {
  expect(isLocationCode(code)).toBe(false)
})

test('normalizing trims and upper-cases what the admin typed', () => {
  expect(normalizeLocationCode('  p1-c2-a1-e3-x1-y1-z1 ')).toBe('P1-C2-A1-E3-X1-Y1-Z1')
  expect(isLocationCode(normalizeLocationCode(' p1-c1-a1-e1-x1-y1-z1'))).toBe(true)
})
