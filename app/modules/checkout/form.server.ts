import { CartLinesSchema, type CustomerInput } from './validators.ts'

export const CUSTOMER_FIELDS = [
  'name',
  'last_name',
  'identification_number',
  'phone',
  'email',
  'address',
  'city',
  'department',
] as const

export type CheckoutFormValues = Record<(typeof CUSTOMER_FIELDS)[number], string> & {
  payment_method: string
  consent: boolean
}

/** Reads the checkout form; the cart travels as JSON in a hidden field. Junk becomes empty. */
export function readCheckoutForm(form: FormData) {
  const values = {
    ...(Object.fromEntries(
      CUSTOMER_FIELDS.map((field) => [field, String(form.get(field) ?? '').slice(0, 300)]),
    ) as Record<(typeof CUSTOMER_FIELDS)[number], string>),
    payment_method: form.get('payment_method') === 'mercadopago' ? 'mercadopago' : 'acordar',
    consent: form.get('consent') === 'on',
  } satisfies CheckoutFormValues
  let lines: { sku: string; quantity: number }[] = []
  try {
    const parsed = CartLinesSchema.safeParse(JSON.parse(String(form.get('cart') ?? '[]')))
    if (parsed.success) lines = parsed.data
  } catch {
    lines = []
  }
  const checkoutKey = String(form.get('checkout_key') ?? '').slice(0, 64)
  return { values, lines, customer: values as CustomerInput, checkoutKey }
}
