import { expect, test } from 'vitest'
import { addBusinessDays, businessDaysAfter, isBusinessDay } from './business-days.ts'

test('weekends and the national holidays, moved to Monday or placed by Easter, are not business days', () => {
  expect(isBusinessDay('2026-12-04')).toBe(true) // Friday
  expect(isBusinessDay('2026-12-05')).toBe(false) // Saturday
  expect(isBusinessDay('2026-12-06')).toBe(false) // Sunday
  expect(isBusinessDay('2026-12-08')).toBe(false) // Inmaculada Concepción (Tuesday, not moved)
  expect(isBusinessDay('2026-12-25')).toBe(false) // Navidad
  expect(isBusinessDay('2027-01-11')).toBe(false) // Reyes Magos, moved from Wednesday 6 to Monday 11
  expect(isBusinessDay('2027-01-06')).toBe(true)
  expect(isBusinessDay('2027-03-25')).toBe(false) // Jueves Santo 2027
  expect(isBusinessDay('2027-03-26')).toBe(false) // Viernes Santo 2027
})

test('a term of 5 business days skips the weekend and a holiday inside it', () => {
  // Delivered Friday 4 December 2026: Mon 7, (Tue 8 holiday), Wed 9, Thu 10, Fri 11, Mon 14.
  expect(addBusinessDays('2026-12-04', 5)).toBe('2026-12-14')
  expect(businessDaysAfter('2026-12-04', '2026-12-14')).toBe(5)
  expect(businessDaysAfter('2026-12-04', '2026-12-15')).toBe(6)
  expect(businessDaysAfter('2026-12-04', '2026-12-04')).toBe(0)
  expect(businessDaysAfter('2026-12-04', '2026-12-01')).toBe(0)
  // Across the year's end: 24 Dec 2026 (Thursday), 25 holiday, 1 Jan holiday.
  expect(addBusinessDays('2026-12-24', 5)).toBe('2027-01-04')
})
