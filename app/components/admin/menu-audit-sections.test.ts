import { expect, test } from 'vitest'
import { ADMIN_MENU } from './menu.ts'
import { sectionOf } from '#app/modules/audit/audit.server.ts'

test('every menu entry with pages of its own names its section in the audit log', () => {
  for (const { to, label } of ADMIN_MENU) {
    if (!to || to === '/admin') continue
    expect(sectionOf(to), to).toBe(label)
    expect(sectionOf(`${to}/algo`), to).toBe(label)
  }
  expect(sectionOf('/admin')).toBe('Inicio')
})
