import { z } from 'zod'
import { PAYMENT_METHODS } from '#app/modules/order/schema.ts'
import { CUSTOMER_FIELD_LIMITS, normalizeCustomerText } from '#app/modules/order/customer-fields.ts'
import { PAYMENT_MESSAGES } from '#app/modules/payment/messages.ts'
import { cleanText } from '#app/utils/text.ts'
import { departmentNamed } from '#app/modules/places/departments.ts'

/** Spec §5 and §8 texts, exactly. */
export const CHECKOUT_MESSAGES = {
  emptyCart: 'Debe tener al menos un producto',
  required: 'Por favor complete todos los campos.',
  overStock: 'Hay productos con cantidades superiores al stock.',
  zeroQuantity: 'Hay productos con cantidad igual a 0. Por favor, revisa tu carrito.',
  ...PAYMENT_MESSAGES,
  success: 'Pedido realizado con éxito.',
  // Ours, where the spec is silent.
  phone: 'Ingresa un teléfono válido de 10 dígitos, por ejemplo 3001234567.',
  email: 'Ingresa un correo electrónico válido.',
  department: 'Selecciona un departamento de la lista.',
  consent: 'Debes aceptar la política de tratamiento de datos personales para continuar.',
  unavailable: 'Algunos productos de tu carrito ya no están disponibles. Revisa tu carrito.',
  onlineUnavailable: 'El pago en línea no está disponible en este momento. Elige pago contra entrega.',
  badQuantity: (product: string) => `La cantidad de ${product} debe ser un número entero de 1 en adelante.`,
} as const

/** Answers to ids that are not ours (spec-silent texts). */
export const ID_MESSAGES = {
  orderNotFound: 'Pedido no encontrado.',
  badOrder: 'El pedido no es válido.',
  badForm: 'El formulario no es válido. Recarga la página e inténtalo de nuevo.',
} as const

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
  identification_number: text(CUSTOMER_FIELD_LIMITS.identification_number).default(''),
  phone: text(CUSTOMER_FIELD_LIMITS.phone),
  email: text(CUSTOMER_FIELD_LIMITS.email).default(''),
  address: text(CUSTOMER_FIELD_LIMITS.address),
  city: text(CUSTOMER_FIELD_LIMITS.city).default(''),
  department: text(CUSTOMER_FIELD_LIMITS.department),
  payment_method: z.enum(PAYMENT_METHODS).default('acordar'),
  consent: z.boolean(),
})
export type CustomerInput = z.input<typeof CustomerSchema>
export type Customer = z.output<typeof CustomerSchema>

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
  const customer = parsed.data
  const missing = (['name', 'address', 'department', 'phone'] as const).filter((field) => !customer[field])
  for (const field of missing) errors.fields[field] = 'Este campo es obligatorio.'
  if (missing.length) errors.form.push(CHECKOUT_MESSAGES.required)
  if (customer.phone && !/^(3\d{9}|60\d{8})$/.test(normalizePhone(customer.phone))) {
    errors.fields.phone = CHECKOUT_MESSAGES.phone
  }
  if (customer.email && !z.email().safeParse(customer.email).success)
    errors.fields.email = CHECKOUT_MESSAGES.email
  if (customer.department && !departmentNamed(customer.department)) {
    errors.fields.department = CHECKOUT_MESSAGES.department
  }
  if (!customer.consent) errors.fields.consent = CHECKOUT_MESSAGES.consent
  if (lines.some((line) => line.quantity <= 0)) errors.form.push(CHECKOUT_MESSAGES.zeroQuantity)
  for (const product of badQuantities) errors.form.push(CHECKOUT_MESSAGES.badQuantity(product))
  if (errors.form.length || Object.keys(errors.fields).length) return { ok: false, errors }
  return { ok: true, customer: { ...customer, phone: normalizePhone(customer.phone) } }
}
