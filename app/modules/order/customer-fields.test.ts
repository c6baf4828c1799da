import { expect, test } from 'vitest'
import { nitCheckDigit, normalizeIdentification } from './customer-fields.ts'

test("a NIT's check digit is DIAN's modulo 11", () => {
  expect(nitCheckDigit('800197268')).toBe(4) // DIAN
  expect(nitCheckDigit('890903938')).toBe(8) // Bancolombia
  expect(nitCheckDigit('860034313')).toBe(7) // Davivienda
  expect(nitCheckDigit('899999068')).toBe(1) // Ecopetrol
})

test('a NIT is kept with its check digit after a hyphen, and refused when the digit is wrong', () => {
  expect(normalizeIdentification('NIT', '800.197.268-4')).toEqual({ ok: true, number: '800197268-4' })
  expect(normalizeIdentification('NIT', '8001972684')).toEqual({ ok: true, number: '800197268-4' })
  expect(normalizeIdentification('NIT', '800197268-5')).toEqual({
    ok: false,
    message: 'El dígito de verificación no corresponde al NIT 800197268: revisa el número después del guion.',
  })
  expect(normalizeIdentification('NIT', 'ABC')).toMatchObject({ ok: false })
})

test('a cédula and a tarjeta de identidad are digits only; a passport may carry letters', () => {
  expect(normalizeIdentification('CC', '1.020.304.050')).toEqual({ ok: true, number: '1020304050' })
  expect(normalizeIdentification('CC', '10203A')).toEqual({
    ok: false,
    message: 'La cédula de ciudadanía lleva solo números: entre 3 y 10 dígitos.',
  })
  expect(normalizeIdentification('CC', '12345678901')).toMatchObject({ ok: false })
  expect(normalizeIdentification('TI', '1001234567')).toEqual({ ok: true, number: '1001234567' })
  expect(normalizeIdentification('TI', '12345')).toMatchObject({ ok: false })
  expect(normalizeIdentification('PP', 'ab 123456')).toEqual({ ok: true, number: 'AB123456' })
  expect(normalizeIdentification('CE', '123-456')).toEqual({ ok: true, number: '123456' })
  expect(normalizeIdentification('PP', 'AB#1')).toMatchObject({ ok: false })
})
