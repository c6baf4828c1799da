import { expect, test } from 'vitest'
import { safeReturnTo } from './messages.ts'

test('only paths of the admin area are kept after sign-in', () => {
  expect(safeReturnTo('/admin/productos?desde=24')).toBe('/admin/productos?desde=24')
  expect(safeReturnTo('/admin')).toBe('/admin')
  for (const bad of [
    '//evil.example/admin',
    'https://evil.example',
    '/adminx',
    '/admin\\evil',
    '/tienda',
    null,
  ]) {
    expect(safeReturnTo(bad)).toBe('/admin')
  }
})

test('characters that cannot go in a Location header fall back to /admin', () => {
  expect(safeReturnTo('/admin/\r\nSet-Cookie: x=1')).toBe('/admin')
  expect(safeReturnTo('/admin/producto ñ')).toBe('/admin')
})
