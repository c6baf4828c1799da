import { readCartCookie } from '#app/modules/cart/cart-cookie.ts'
import { isUuid } from '#app/utils/ids.ts'
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

/**
 * Reads the checkout form; the cart travels as JSON in a hidden field. Junk becomes empty. When the
 * field is empty (the form was sent before the page hydrated, or without JavaScript) the cart comes
 * from its cookie mirror (`cartFromCookie`). `badKey`: no checkout key, or one that is not one we
 * made; every form we render carries one, so a post without it is no form of ours (and twice sent,
 * it would make two orders).
 */
export function readCheckoutForm(form: FormData, cookieHeader?: string | null) {
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
  let cartFromCookie = false
  if (!lines.length) {
    const parsed = CartLinesSchema.safeParse(readCartCookie(cookieHeader))
    if (parsed.success && parsed.data.length) {
      lines = parsed.data
      cartFromCookie = true
    }
  }
  const rawKey = String(form.get('checkout_key') ?? '').trim()
  const badKey = !isUuid(rawKey)
  const checkoutKey = badKey ? undefined : rawKey
  return { values, lines, customer: values as CustomerInput, checkoutKey, badKey, cartFromCookie }
}

export type CheckoutForm = ReturnType<typeof readCheckoutForm>
