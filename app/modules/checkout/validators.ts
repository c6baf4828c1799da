import { z } from 'zod'
import { PAYMENT_METHODS } from '#app/modules/order/schema.ts'
import {
  CUSTOMER_FIELD_LIMITS,
  IDENTIFICATION_TYPE_CODES,
  normalizeCustomerText,
  normalizeIdentification,
} from '#app/modules/order/customer-fields.ts'
import { cleanText } from '#app/utils/text.ts'
import { departmentNamed } from '#app/modules/places/departments.ts'
import { municipalitiesOf, placeOf } from '#app/modules/places/places.server.ts'
import { CHECKOUT_MESSAGES } from './messages.ts'
import { CODE_MAX_LENGTH, CODE_MESSAGES } from '#app/modules/promotions/messages.ts'

/** Trimmed, one line, cleaned as PostgreSQL takes it (`normalizeCustomerText`). */
const text = (max: number) =>
  z
    .string()
    .transform(normalizeCustomerText)
    .pipe(z.string().max(max, { message: `Máximo ${max} caracteres.` }))

/** Digits only, without the country code: Colombian numbers have 10 digits. */
export function normalizePhone(value: string): string {
  const digits = value.replace(/\D/g, '')
  return digits.length === 12 && digits.startsWith('57') ? digits.slice(2) : digits
}

/** A Colombian mobile or landline, normalized: the phones the checkout takes. */
export const isCheckoutPhone = (phone: string) => /^(3\d{9}|60\d{8})$/.test(phone)

/** Far above any real order; larger asks are refused as over stock before touching integers. */
export const MAX_LINE_QUANTITY = 10_000

/** A cart holds at most this many lines (the cart cookie's limit too). */
const MAX_POSTED_LINES = 100

const SkuSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((sku) => cleanText(sku) === sku)

/**
 * A cart line as the checkout received it. `quantity` is whatever number was sent (1.5, -2), or NaN
 * when it was no number at all ("abc", "1e3" as text): such a line is kept so the refusal can name
 * its product, instead of the cart reading as empty.
 */
export type PostedLine = { sku: string; quantity: number }

/**
 * The lines of a posted cart (the form's JSON, or the cookie's lines); null when it is not a list
 * of lines with product codes, which the checkout treats as no cart at all.
 */
export function postedLinesOf(value: unknown): PostedLine[] | null {
  if (!Array.isArray(value) || value.length > MAX_POSTED_LINES) return null
  const lines: PostedLine[] = []
  for (const item of value) {
    if (!item || typeof item !== 'object') return null
    const { sku, quantity } = item as Record<string, unknown>
    const parsed = SkuSchema.safeParse(sku)
    if (!parsed.success) return null
    lines.push({ sku: parsed.data, quantity: typeof quantity === 'number' ? quantity : Number.NaN })
  }
  return lines
}

/**
 * Whether a line's quantity can be ordered or at least judged by the spec's rules: a whole number
 * (0 has the spec's own message). Anything else (1.5, -2, text) is refused naming the product.
 */
export function isWholeQuantity(quantity: number): boolean {
  return Number.isInteger(quantity) && quantity >= 0
}

export const CustomerSchema = z.object({
  name: text(CUSTOMER_FIELD_LIMITS.name),
  last_name: text(CUSTOMER_FIELD_LIMITS.last_name).default(''),
  identification_type: z
    .string()
    .default('')
    .transform((value) => (value === '' ? 'CC' : value))
    .pipe(z.enum(IDENTIFICATION_TYPE_CODES, { message: 'Elige un tipo de documento de la lista.' })),
  identification_number: text(CUSTOMER_FIELD_LIMITS.identification_number).default(''),
  phone: text(CUSTOMER_FIELD_LIMITS.phone),
  email: text(CUSTOMER_FIELD_LIMITS.email).default(''),
  address: text(CUSTOMER_FIELD_LIMITS.address),
  city: text(CUSTOMER_FIELD_LIMITS.city).default(''),
  department: text(CUSTOMER_FIELD_LIMITS.department),
  /** The municipality's DANE code ("05001"): the checkout's select; the order's city is its name. */
  municipality_code: text(5).default(''),
  payment_method: z.enum(PAYMENT_METHODS).default('acordar'),
  /** "Código de descuento": judged by the promotions when the order is priced (quotePromotions). */
  discount_code: z.string().trim().max(CODE_MAX_LENGTH, { message: CODE_MESSAGES.tooLong }).default(''),
  consent: z.boolean(),
})
export type CustomerInput = z.input<typeof CustomerSchema>
/** A checked customer: where the order goes is a DIVIPOLA municipality of its department. */
export type Customer = z.output<typeof CustomerSchema> & { department_code: string }

export type CheckoutErrors = {
  form: string[]
  fields: Partial<Record<keyof Customer, string>>
  /** The order cannot be placed here as it is, but can be talked over by WhatsApp (a hold limit). */
  offerWhatsapp?: boolean
}

/**
 * Checks a checkout in the spec's order: an empty cart, then the required fields, then zero
 * quantities, then quantities that are no whole number (`badQuantities`: the names of their
 * products, whose lines are not in `lines`). Stock is checked when units are reserved.
 */
export function validateCheckout(
  lines: { sku: string; quantity: number }[],
  raw: CustomerInput,
  badQuantities: string[] = [],
): { ok: true; customer: Customer } | { ok: false; errors: CheckoutErrors } {
  const errors: CheckoutErrors = { form: [], fields: {} }
  if (!lines.length && !badQuantities.length)
    return { ok: false, errors: { form: [CHECKOUT_MESSAGES.emptyCart], fields: {} } }
  const parsed = CustomerSchema.safeParse(raw)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof Customer
      errors.fields[field] ??= issue.message
    }
    errors.form.push(CHECKOUT_MESSAGES.required)
    return { ok: false, errors }
  }
  const department = departmentNamed(parsed.data.department)
  // A department with one municipality (Bogotá D.C.) needs no choice.
  const onlyMunicipality = department ? municipalitiesOf(department.code) : []
  const customer =
    !parsed.data.municipality_code && onlyMunicipality.length === 1
      ? { ...parsed.data, municipality_code: onlyMunicipality[0]!.code }
      : parsed.data
  // The municipality is asked once the department is known (the select lists that department's).
  const required = ['name', 'address', 'department', 'phone'] as const
  const missing = [
    ...required.filter((field) => !customer[field]),
    ...(department && !customer.municipality_code ? (['municipality_code'] as const) : []),
  ]
  for (const field of missing) errors.fields[field] = 'Este campo es obligatorio.'
  if (missing.length) errors.form.push(CHECKOUT_MESSAGES.required)
  const place =
    department && customer.municipality_code ? placeOf(department.name, customer.municipality_code) : null
  if (department && customer.municipality_code && !place) {
    errors.fields.municipality_code = CHECKOUT_MESSAGES.municipality(department.name)
  }
  const identification = customer.identification_number
    ? normalizeIdentification(customer.identification_type, customer.identification_number)
    : ({ ok: true, number: '' } as const)
  if (!identification.ok) errors.fields.identification_number = identification.message
  if (customer.phone && !isCheckoutPhone(normalizePhone(customer.phone))) {
    errors.fields.phone = CHECKOUT_MESSAGES.phone
  }
  if (customer.email && !z.email().safeParse(customer.email).success)
    errors.fields.email = CHECKOUT_MESSAGES.email
  if (customer.department && !department) errors.fields.department = CHECKOUT_MESSAGES.department
  if (!customer.consent) errors.fields.consent = CHECKOUT_MESSAGES.consent
  if (lines.some((line) => line.quantity <= 0)) errors.form.push(CHECKOUT_MESSAGES.zeroQuantity)
  for (const product of badQuantities) errors.form.push(CHECKOUT_MESSAGES.badQuantity(product))
  if (errors.form.length || Object.keys(errors.fields).length || !place || !identification.ok) {
    return { ok: false, errors }
  }
  return {
    ok: true,
    customer: {
      ...customer,
      phone: normalizePhone(customer.phone),
      identification_number: identification.number,
      // The city is the municipality's name (spec's optional "city"); the codes travel beside it.
      city: place.municipality.name,
      department_code: place.department.code,
    },
  }
}
