export const CUSTOMER_FIELDS = [
  'name',
  'last_name',
  'identification_type',
  'identification_number',
  'phone',
  'email',
  'address',
  'department',
  'municipality_code',
] as const

export type CheckoutFormValues = Record<(typeof CUSTOMER_FIELDS)[number], string> & {
  payment_method: string
  /** "Código de descuento", as typed. */
  discount_code: string
  consent: boolean
}

/**
 * What the shopper typed in the checkout form, junk made empty: read by the server, and by the page
 * to show the form again as typed when its post got no answer.
 */
export function checkoutValuesOf(form: FormData): CheckoutFormValues {
  return {
    ...(Object.fromEntries(
      CUSTOMER_FIELDS.map((field) => [field, String(form.get(field) ?? '').slice(0, 300)]),
    ) as Record<(typeof CUSTOMER_FIELDS)[number], string>),
    payment_method: String(form.get('payment_method') ?? '').slice(0, 30),
    discount_code: String(form.get('discount_code') ?? '').slice(0, 300),
    consent: form.get('consent') === 'on',
  }
}
