import { expect, test } from 'vitest'
import { productPath, categoryPath } from './paths.ts'
import { SLUG_MAX_LENGTH, slugify, slugOf } from './slug.ts'

test('a slug is lower case, without accents, words joined by single hyphens', () => {
  expect(slugify('Collar Corazón Dorado 18K')).toBe('collar-corazon-dorado-18k')
  expect(slugify('  Aretes   Ñandú & Pingüino!! ')).toBe('aretes-nandu-pinguino')
  expect(slugify('Set — Pulsera/Anillo (2x1)')).toBe('set-pulsera-anillo-2x1')
  expect(slugify('---ya-normal---')).toBe('ya-normal')
  // Already a slug: unchanged (saving a form twice never moves the URL).
  expect(slugify(slugify('Dije Luna Azul'))).toBe('dije-luna-azul')
})

test('nothing readable gives no slug; a long name is cut at a word', () => {
  expect(slugify('💎✨')).toBe('')
  expect(slugify('')).toBe('')
  const long = slugify('Collar '.repeat(30))
  expect(long.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH)
  expect(long).toMatch(/^(collar-)*collar$/)
  expect(slugify('x'.repeat(200))).toBe('x'.repeat(SLUG_MAX_LENGTH))
})

test('a row’s slug is the one saved, else the one from its name', () => {
  expect(slugOf({ slug: null, name: 'Collar Luna' })).toBe('collar-luna')
  expect(slugOf({ slug: 'luna-de-plata', name: 'Collar Luna' })).toBe('luna-de-plata')
})

test('canonical paths put the slug beside the key, or the key alone without one', () => {
  expect(productPath({ sku: 'COL-ABC-12345678', slug: 'collar-luna' })).toBe(
    '/producto/COL-ABC-12345678/collar-luna',
  )
  expect(productPath({ sku: 'A&B', slug: '' })).toBe('/producto/A%26B')
  expect(categoryPath({ id: 'Categoria_1', slug: 'collares' })).toBe('/categoria/Categoria_1/collares')
  expect(categoryPath({ id: 'Categoria_1', slug: '' })).toBe('/categoria/Categoria_1')
})
