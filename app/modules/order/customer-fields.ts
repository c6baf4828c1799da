import { cleanText } from '#app/utils/text.ts'

/**
 * How long each of an order's customer fields may be: the checkout's form holds a shopper to them
 * and the import holds the original shop's orders to them, so every order row fits the same bounds.
 */
export const CUSTOMER_FIELD_LIMITS = {
  name: 80,
  last_name: 80,
  identification_number: 20,
  phone: 30,
  email: 120,
  address: 200,
  city: 80,
  department: 60,
} as const

/**
 * A customer field as an order keeps it: trimmed, on one line (WhatsApp templates refuse line
 * breaks), cleaned as PostgreSQL takes it. The checkout normalises a shopper's fields so, and the
 * import the original shop's.
 */
export function normalizeCustomerText(value: string): string {
  return cleanText(value).replace(/\s+/g, ' ').trim()
}

/** The identity documents DIAN's invoices and the carriers take, with the checkout's labels. */
export const IDENTIFICATION_TYPES = {
  CC: 'Cédula de ciudadanía',
  CE: 'Cédula de extranjería',
  NIT: 'NIT',
  PP: 'Pasaporte',
  TI: 'Tarjeta de identidad',
} as const
export type IdentificationType = keyof typeof IDENTIFICATION_TYPES
export const IDENTIFICATION_TYPE_CODES = Object.keys(IDENTIFICATION_TYPES) as [
  IdentificationType,
  ...IdentificationType[],
]

export function isIdentificationType(value: string): value is IdentificationType {
  return Object.hasOwn(IDENTIFICATION_TYPES, value)
}

/** DIAN's weights for a NIT's check digit, from the rightmost digit of the number. */
const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71]

/** The check digit ("dígito de verificación") DIAN gives a NIT's number (digits only, at most 15). */
export function nitCheckDigit(number: string): number {
  const digits = [...number].reverse()
  const sum = digits.reduce((total, digit, index) => total + Number(digit) * NIT_WEIGHTS[index]!, 0)
  const rest = sum % 11
  return rest < 2 ? rest : 11 - rest
}

/**
 * A document number as an order keeps it, or the Spanish reason it cannot be one. Dots, spaces and
 * hyphens people type are dropped; a NIT is written with its check digit last ("900123456-7") and
 * kept so, the check digit proven.
 */
export function normalizeIdentification(
  type: IdentificationType,
  raw: string,
): { ok: true; number: string } | { ok: false; message: string } {
  const compact = raw.replace(/[\s.\-–]/g, '').toUpperCase()
  switch (type) {
    case 'CC':
      return /^\d{3,10}$/.test(compact)
        ? { ok: true, number: compact }
        : { ok: false, message: 'La cédula de ciudadanía lleva solo números: entre 3 y 10 dígitos.' }
    case 'TI':
      return /^\d{10,11}$/.test(compact)
        ? { ok: true, number: compact }
        : { ok: false, message: 'La tarjeta de identidad lleva solo números: 10 u 11 dígitos.' }
    case 'CE':
      return /^[A-Z0-9]{3,15}$/.test(compact)
        ? { ok: true, number: compact }
        : { ok: false, message: 'La cédula de extranjería lleva entre 3 y 15 números o letras.' }
    case 'PP':
      return /^[A-Z0-9]{3,20}$/.test(compact)
        ? { ok: true, number: compact }
        : { ok: false, message: 'El pasaporte lleva entre 3 y 20 números o letras.' }
    case 'NIT': {
      if (!/^\d{6,16}$/.test(compact)) {
        return {
          ok: false,
          message: 'El NIT lleva solo números y su dígito de verificación al final, por ejemplo 900123456-7.',
        }
      }
      const number = compact.slice(0, -1)
      if (nitCheckDigit(number) !== Number(compact.slice(-1))) {
        return {
          ok: false,
          message: `El dígito de verificación no corresponde al NIT ${number}: revisa el número después del guion.`,
        }
      }
      return { ok: true, number: `${number}-${compact.slice(-1)}` }
    }
  }
}
