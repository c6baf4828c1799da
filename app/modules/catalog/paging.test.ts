import { expect, test } from 'vitest'
import { pageOffset } from './paging.ts'

test('list offsets from the query string are whole, bounded numbers', () => {
  expect(pageOffset('20')).toBe(20)
  expect(pageOffset('20.7')).toBe(20)
  expect(pageOffset(null)).toBe(0)
  expect(pageOffset('-5')).toBe(0)
  expect(pageOffset('abc')).toBe(0)
  expect(pageOffset('1e30')).toBe(1_000_000)
  expect(pageOffset('Infinity')).toBe(0)
})
