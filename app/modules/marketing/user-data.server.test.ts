import { describe, expect, it } from 'vitest'
import {
  metaUserData,
  normalizeEmail,
  normalizeName,
  normalizePhone,
  normalizeZip,
  sha256Hex,
} from './user-data.server.ts'

// Each hash below was computed outside this code: `printf '%s' <value> | sha256sum`.
const HASHES = {
  'ana.perez@example.com': '3c6c5c25f4b64020ae299c05c0e540df807d9aed7457b04b118cc234a6a58c6a',
  '573001234567': '173afe355201e7ed8e349c576f30ebd4be4314b65e1d87196ae5f75b21518172',
  josé: 'd994e1d001886fe5b45b1267bd1fa2b752ac50742579bd3dad7b2a2aa0ed6866',
  ñúñez: 'ef0f32687101005211851ff737c53e065194a7c1d853ca0c52d7415db5abd3e3',
  bogotádc: 'f8222b03fb0d0bbad8417386c4a60f6723b080b07fe31b47321bbb3de3a75dbb',
  antioquia: 'c1371876585da80aba8c42d103b3e08576546b4b5761b755e63dc8439f4ee833',
  co: 'c330ec504d82c24fcd10be978fa74b8a3185a8df719604a85443bb9ca279f5a2',
  medellín: 'd3ae9917abd39047a2a40e49648e930020b73a315952d0d14c1ed4f3ab57b6e4',
  '050021': 'c40981ca68ea41c8a169800e03b23481524ac58027fe2b625b02e479fa4200f2',
}

describe('normalisation (Meta customer information parameters)', () => {
  it('trims and lower-cases e-mails, refusing what is not one', () => {
    expect(normalizeEmail('  Ana.Perez@Example.COM ')).toBe('ana.perez@example.com')
    expect(normalizeEmail('')).toBeNull()
    expect(normalizeEmail('ana')).toBeNull()
  })

  it('keeps digits only and adds 57 to 10-digit Colombian numbers', () => {
    expect(normalizePhone('300 123 4567')).toBe('573001234567')
    expect(normalizePhone('(300) 123-4567')).toBe('573001234567')
    expect(normalizePhone('+57 300 123 4567')).toBe('573001234567')
    expect(normalizePhone('0057 3001234567')).toBe('573001234567')
    expect(normalizePhone('604 444 5566')).toBe('576044445566')
    expect(normalizePhone('12')).toBeNull()
    expect(normalizePhone(undefined)).toBeNull()
  })

  it('lower-cases names and places without spaces or punctuation, keeping accents (NFC)', () => {
    expect(normalizeName(' José ')).toBe('josé')
    // The same name typed with a combining accent ends the same.
    expect(normalizeName('Jose\u0301')).toBe('josé')
    expect(normalizeName('Ñúñez')).toBe('ñúñez')
    expect(normalizeName('Bogotá D.C.')).toBe('bogotádc')
    expect(normalizeName("María-José O'Neil")).toBe('maríajoséoneil')
    expect(normalizeName(' .- ')).toBeNull()
    expect(normalizeZip(' 050-021 ')).toBe('050021')
  })
})

describe('hashing', () => {
  it('gives SHA-256 hex of the UTF-8 text', () => {
    for (const [value, hash] of Object.entries(HASHES)) expect(sha256Hex(value)).toBe(hash)
  })

  it('hashes contact details, adds country co, and leaves the browser identifiers as they are', () => {
    const userData = metaUserData(
      {
        email: ' Ana.Perez@Example.com',
        phone: '300 123 4567',
        firstName: 'José',
        lastName: 'Ñúñez',
        city: 'Medellín',
        department: 'Antioquia',
        zip: '050021',
        externalId: '573001234567',
      },
      {
        clientIpAddress: '203.0.113.7',
        clientUserAgent: 'Mozilla/5.0',
        fbp: 'fb.1.1700000000000.123456789',
        fbc: 'fb.1.1700000000000.IwAR2xYz',
      },
    )
    expect(userData).toEqual({
      em: [HASHES['ana.perez@example.com']],
      ph: [HASHES['573001234567']],
      fn: [HASHES.josé],
      ln: [HASHES.ñúñez],
      ct: [HASHES.medellín],
      st: [HASHES.antioquia],
      zp: [HASHES['050021']],
      country: [HASHES.co],
      external_id: [HASHES['573001234567']],
      client_ip_address: '203.0.113.7',
      client_user_agent: 'Mozilla/5.0',
      fbp: 'fb.1.1700000000000.123456789',
      fbc: 'fb.1.1700000000000.IwAR2xYz',
    })
  })

  it('leaves out what is missing', () => {
    expect(metaUserData({ phone: '3001234567', city: 'Bogotá D.C.' })).toEqual({
      ph: [HASHES['573001234567']],
      ct: [HASHES.bogotádc],
      country: [HASHES.co],
    })
  })
})
