import { PAYMENT_METHODS, type PaymentMethod } from '#app/modules/order/payment-methods.ts'

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
    payment_method: postedPaymentMethod(form.get('payment_method')),
    consent: form.get('consent') === 'on',
  }
}

/** The posted way to pay: one of ours, cash on delivery (the default) otherwise. */
function postedPaymentMethod(value: FormDataEntryValue | null): PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value)
    ? (value as PaymentMethod)
    : 'acordar'
}
