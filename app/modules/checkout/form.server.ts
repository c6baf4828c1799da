import { readCartCookie } from '#app/modules/cart/cart-cookie.ts'
import { isUuid } from '#app/utils/ids.ts'
import { PAYMENT_METHODS, type PaymentMethod } from '#app/modules/order/payment-methods.ts'
import { checkoutValuesOf } from './form-values.ts'
import { postedLinesOf, type CustomerInput, type PostedLine } from './validators.ts'

/**
 * Reads the checkout form; the cart travels as JSON in a hidden field. Junk becomes empty. When the
 * field is empty the cart comes from its cookie, which the hidden field copies anyway. `badKey`: no checkout key, or one that is not one we
 * made; every form we render carries one, so a post without it is no form of ours (and twice sent,
 * it would make two orders).
 */
export function readCheckoutForm(form: FormData, cookieHeader?: string | null) {
  const posted = checkoutValuesOf(form)
  // A way to pay that is none of ours reads as cash on delivery (the checkout then judges it).
  const values = { ...posted, payment_method: postedPaymentMethod(posted.payment_method) }
  let lines: PostedLine[]
  try {
    lines = postedLinesOf(JSON.parse(String(form.get('cart') ?? '[]'))) ?? []
  } catch {
    lines = []
  }
  // Only a cart that did not come with the form is read from the cookie: a posted line with a bad
  // quantity is refused as such, never swapped for the cookie's.
  if (!lines.length) lines = postedLinesOf(readCartCookie(cookieHeader)) ?? []
  const rawKey = String(form.get('checkout_key') ?? '').trim()
  const badKey = !isUuid(rawKey)
  const checkoutKey = badKey ? undefined : rawKey
  // The total the page showed (its summary, priced by the server): the order must charge exactly it.
  const pricedTotal = Number(String(form.get('priced_total') ?? '').trim() || Number.NaN)
  const expectedTotal = Number.isSafeInteger(pricedTotal) && pricedTotal >= 0 ? pricedTotal : undefined
  return { values, lines, customer: values as CustomerInput, checkoutKey, badKey, expectedTotal }
}

export type CheckoutForm = ReturnType<typeof readCheckoutForm>

function postedPaymentMethod(value: string): PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value) ? (value as PaymentMethod) : 'acordar'
}
