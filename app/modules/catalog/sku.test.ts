import { expect, test } from 'vitest'
import { generateSku } from './sku.ts'

test('name prefix, category prefix and 8 random upper-case characters (spec §9)', () => {
  expect(generateSku('Collar Luna', 'Categoria_1700000000000')).toMatch(/^COL-CAT-[A-Z0-9]{8}$/)
})

test('GEN when there is no category; accents dropped', () => {
  expect(generateSku('Árbol de la vida', undefined)).toMatch(/^ARB-GEN-[A-Z0-9]{8}$/)
})

test('is random in its tail', () => {
  const skus = new Set(Array.from({ length: 50 }, () => generateSku('Anillo', 'Categoria_1')))
  expect(skus.size).toBe(50)
})
