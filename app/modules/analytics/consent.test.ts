import { describe, expect, test } from 'vitest'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, isAdminPath, readConsent } from './consent.ts'
import { TRACK, TRACKED_ELEMENTS } from './track-names.ts'
import { OTHER_PAGE, pageNameOf } from './tracking.ts'
import { cookieValue } from '#app/utils/cookies.ts'

describe('cookieValue, readConsent', () => {
  test('a malformed consent cookie is no answer, never an error', () => {
    for (const raw of ['%E0', '%', 'v%3D%ZZ', '%E0%A4%A'])
      expect(() => readConsent(`otra=1; ${CONSENT_COOKIE}=${raw}`)).not.toThrow()
    expect(readConsent(`${CONSENT_COOKIE}=%E0`)).toBeNull()
    expect(cookieValue(`${CONSENT_COOKIE}=%E0`, CONSENT_COOKIE)).toBeUndefined()
  })

  test('reads a cookie among others, decoded', () => {
    const value = encodeURIComponent(`v=${CONSENT_POLICY_VERSION}|a=1|m=0`)
    expect(cookieValue(`a=1; ${CONSENT_COOKIE}=${value}; b=2`, CONSENT_COOKIE)).toBe(
      `v=${CONSENT_POLICY_VERSION}|a=1|m=0`,
    )
    expect(readConsent(`a=1; ${CONSENT_COOKIE}=${value}`)).toMatchObject({ analytics: true })
    expect(cookieValue('a=1', CONSENT_COOKIE)).toBeUndefined()
    expect(cookieValue(null, CONSENT_COOKIE)).toBeUndefined()
  })
})

describe('isAdminPath: one rule, any case', () => {
  test.each([
    '/admin',
    '/admin/',
    '/ADMIN/x',
    '/Admin?x=1',
    'admin/reportes',
    '/%61dmin/productos',
    '//admin',
  ])('%s is the back office', (path) => expect(isAdminPath(path)).toBe(true))
  test.each(['/', '/administracion-de-joyas', '/producto/admin', '/%E0'])('%s is not', (path) =>
    expect(isAdminPath(path)).toBe(false),
  )
})

describe('pageNameOf: page names by route pattern', () => {
  test.each([
    ['/', '/'],
    ['/carrito', '/carrito'],
    ['/carrito/', '/carrito'],
    ['/CARRITO', '/carrito'],
    ['/buscar', '/buscar'],
    ['/finalizar-pedido/success', '/finalizar-pedido/success'],
    ['/politica-de-datos', '/politica-de-datos'],
    ['/pago-simulado/8f1c-22', '/pago-simulado/:id'],
    ['/producto/COL-ORO-001', '/producto/COL-ORO-001'],
    // The slug beside the SKU is for people: the page is the product's.
    ['/producto/COL-ORO-001/collar-de-oro', '/producto/COL-ORO-001'],
    ['/producto/COL%20ORO', '/producto/COL ORO'],
    ['/producto/:sku', '/producto/:sku'],
    ['/categoria/Categoria_17/Collares', '/categoria/Categoria_17'],
    ['/categoria/Categoria_17', '/categoria/Categoria_17'],
    ['/no-existe', OTHER_PAGE],
    ['/producto/a/b/c', OTHER_PAGE],
    [OTHER_PAGE, OTHER_PAGE],
    ['/%E0', OTHER_PAGE],
  ])('%s → %s', (path, name) => {
    expect(pageNameOf(path)?.name).toBe(name)
    // Idempotent: the server reads the names the browser made.
    expect(pageNameOf(name)?.name).toBe(name)
  })

  test('the back office has no page name', () => {
    expect(pageNameOf('/admin/productos')).toBeNull()
    expect(pageNameOf('/ADMIN')).toBeNull()
  })
})

test('every data-track name is checked against TRACK', async () => {
  const { readFile, readdir } = await import('node:fs/promises')
  const files = (await readdir('app', { recursive: true })).filter(
    (file) => /\.tsx?$/.test(file) && !file.includes('.test.'),
  )
  const literal: string[] = []
  for (const file of files) {
    const text = await readFile(`app/${file}`, 'utf8')
    for (const [attribute] of text.matchAll(/data-track=[^\n]*/g))
      if (!/^data-track=\{'[a-z-]+' satisfies TrackedElement\}/.test(attribute))
        literal.push(`${file}: ${attribute}`)
  }
  expect(
    literal,
    "write data-track={'name' satisfies TrackedElement} so the server accepts the name",
  ).toEqual([])
  expect(TRACKED_ELEMENTS).toContain(TRACK.addToCart)
  expect(new Set(TRACKED_ELEMENTS).size).toBe(TRACKED_ELEMENTS.length)
})
