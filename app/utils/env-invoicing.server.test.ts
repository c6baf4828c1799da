import { expect, test } from 'vitest'
import { invoicingIsOn, parseEnv } from './env.server.ts'

/** Factus's configuration (env.server.ts): all of it or none, in any environment. */

const FACTUS = {
  FACTUS_CLIENT_ID: '9dbe0b45-0000-4000-8000-000000000001',
  FACTUS_CLIENT_SECRET: 'secreto-del-cliente',
  FACTUS_USERNAME: 'api@tienda.example.co',
  FACTUS_PASSWORD: 'contraseña',
  FACTUS_NUMBERING_RANGE_ID: '8',
}

const PRODUCTION = {
  APP_ENV: 'production',
  SESSION_SECRET: 's'.repeat(32),
  PUBLIC_URL: 'https://tienda.example',
  GOOGLE_CLIENT_ID: 'id',
  GOOGLE_CLIENT_SECRET: 'secreto',
  ADMIN_EMAILS: 'a@x.co',
}

test('without Factus settings the shop starts without invoices, aimed at the production API', () => {
  const env = parseEnv({})
  expect(invoicingIsOn(env)).toBe(false)
  expect(env.FACTUS_API_URL).toBe('https://api.factus.com.co')
  expect(() => parseEnv(PRODUCTION)).not.toThrow()
})

test('all of it: the ranges are numbers, the credit notes’ range optional, the sandbox a URL away', () => {
  const env = parseEnv({ ...FACTUS, FACTUS_API_URL: 'https://api-sandbox.factus.com.co' })
  expect(invoicingIsOn(env)).toBe(true)
  expect(env.FACTUS_NUMBERING_RANGE_ID).toBe(8)
  expect(env.FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID).toBeUndefined()
  expect(env.FACTUS_API_URL).toBe('https://api-sandbox.factus.com.co')
  expect(
    parseEnv({ ...FACTUS, FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID: '9' }).FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID,
  ).toBe(9)
  expect(() => parseEnv({ ...PRODUCTION, ...FACTUS })).not.toThrow()
})

test('half a configuration stops start-up with a Spanish message naming what is missing', () => {
  const { FACTUS_PASSWORD: _password, FACTUS_NUMBERING_RANGE_ID: _range, ...half } = FACTUS
  expect(() => parseEnv(half)).toThrow(
    'Configuración incompleta de la facturación electrónica (Factus):\n' +
      '  - FACTUS_PASSWORD es obligatorio para emitir facturas electrónicas con Factus\n' +
      '  - FACTUS_NUMBERING_RANGE_ID es obligatorio para emitir facturas electrónicas con Factus',
  )
  // Any one of them turns it on, the credit notes' range included; in production too.
  expect(() => parseEnv({ FACTUS_CREDIT_NOTE_NUMBERING_RANGE_ID: '9' })).toThrow(
    /FACTUS_CLIENT_ID es obligatorio/,
  )
  expect(() => parseEnv({ ...PRODUCTION, FACTUS_USERNAME: 'api@tienda.example.co' })).toThrow(
    /FACTUS_CLIENT_SECRET es obligatorio/,
  )
  // The API URL alone has a default and turns nothing on.
  expect(() => parseEnv({ FACTUS_API_URL: 'http://127.0.0.1:9' })).not.toThrow()
})

test('bad values name the variable', () => {
  expect(() => parseEnv({ ...FACTUS, FACTUS_NUMBERING_RANGE_ID: 'SETP' })).toThrow(
    /FACTUS_NUMBERING_RANGE_ID: debe ser el número \(id\) del rango de numeración en Factus/,
  )
  expect(() => parseEnv({ ...FACTUS, FACTUS_API_URL: 'api.factus.com.co' })).toThrow(/FACTUS_API_URL/)
})
