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
