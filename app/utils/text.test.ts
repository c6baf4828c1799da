import { describe, expect, test } from 'vitest'
import { cleanText, containsPattern, normalizeSearchText } from './text.ts'

test('cleanText drops NUL bytes and replaces lone surrogates, keeping everything else', () => {
  expect(cleanText('a\0b\0')).toBe('ab')
  expect(cleanText('x\ud800y')).toBe('x\ufffdy')
  expect(cleanText('x\udc00')).toBe('x\ufffd')
  expect(cleanText('\udc00\ud800')).toBe('\ufffd\ufffd')
  // A whole pair is one character (an emoji), not two halves.
  expect(cleanText('Aretes 💎 ñandú')).toBe('Aretes 💎 ñandú')
  expect(cleanText('línea\nsiguiente')).toBe('línea\nsiguiente')
})

describe('search normalisation', () => {
  test('drops accents and case', () => {
    expect(normalizeSearchText('  Corazón ÁRBOL Ñandú ')).toBe('corazon arbol nandu')
  })

  test('drops NUL, which PostgreSQL refuses in a query (found by the fuzz suite)', () => {
    expect(normalizeSearchText('co\u0000ra\u0000')).toBe('cora')
    expect(normalizeSearchText('\u0000')).toBe('')
  })
})

test('containsPattern: a LIKE "contains" in which %, _ and backslash are plain characters', () => {
  expect(containsPattern('luna')).toBe('%luna%')
  expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%')
})
