import { expect, test } from 'vitest'
import { bogotaDay, bogotaMoment, bogotaStamp, daysBetween, monthsBetween } from './bogota-days.ts'

test('an instant falls on its Bogotá day (UTC−5 all year)', () => {
  expect(bogotaDay(new Date('2026-12-01T04:59:59Z'))).toBe('2026-11-30')
  expect(bogotaDay(new Date('2026-12-01T05:00:00Z'))).toBe('2026-12-01')
  expect(bogotaStamp(new Date('2027-01-01T04:30:00Z'))).toBe('2026-12-31 23:30')
})

test('days and months of a range, both ends included, across years and leap days', () => {
  expect(daysBetween('2028-02-27', '2028-03-01')).toEqual([
    '2028-02-27',
    '2028-02-28',
    '2028-02-29',
    '2028-03-01',
  ])
  expect(daysBetween('2026-05-02', '2026-05-01')).toEqual([])
  expect(monthsBetween('2026-11-15', '2027-02-01')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02'])
  expect(monthsBetween('2026-11-15', '2026-11-20')).toEqual(['2026-11'])
})

test('an instant as a shopper in Colombia reads it, "a la 1" and "a las" other hours', () => {
  expect(bogotaMoment(new Date('2026-12-01T13:05:00Z'))).toBe('1 de diciembre de 2026 a las 8:05 a. m.')
  expect(bogotaMoment(new Date('2026-12-01T18:00:00Z'))).toBe('1 de diciembre de 2026 a la 1:00 p. m.')
  expect(bogotaMoment(new Date('2026-12-01T05:30:00Z'))).toBe('1 de diciembre de 2026 a las 12:30 a. m.')
})
