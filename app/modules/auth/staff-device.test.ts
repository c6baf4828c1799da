import { expect, test } from 'vitest'
import { hasStaffCookie, STAFF_DEVICE_COOKIE } from './staff-device.ts'

test('the staff cookie counts whatever its value', () => {
  expect(hasStaffCookie(`x=1; ${STAFF_DEVICE_COOKIE}=1`)).toBe(true)
  expect(hasStaffCookie(`${STAFF_DEVICE_COOKIE}=%E0`)).toBe(true)
  expect(hasStaffCookie(`x${STAFF_DEVICE_COOKIE}=1`)).toBe(false)
  expect(hasStaffCookie(null)).toBe(false)
})
