import { checkoutShippingQuote, type QuoteDeps } from '#app/modules/carriers/quote.server.ts'
import type { CheckoutTracking } from '#app/modules/marketing/events.server.ts'
import { startOnlinePayment, type PaymentDeps } from '#app/modules/payment/payment.server.ts'
import { CheckoutRefused, placeOrder, type CheckoutContext } from './checkout.server.ts'
import type { CheckoutForm } from './form.server.ts'
import { ID_MESSAGES } from './messages.ts'
import type { CustomerInput } from './validators.ts'
import type { ShippingPlace } from '#app/modules/cart/shipping.ts'
import { departmentNamed } from '#app/modules/places/departments.ts'
import { municipalitiesOf, municipalityCoded } from '#app/modules/places/places.server.ts'
import { orderResultPath } from '#app/utils/paths.ts'
import { isOnlinePaymentMethod } from '#app/modules/order/payment-methods.ts'
import type { OrderCampaign } from '#app/modules/order/place.server.ts'

export type CheckoutDeps = {
  checkout: CheckoutContext
  payments: PaymentDeps
  /** Where the payment provider sends the shopper back and notifies us (PUBLIC_URL). */
  publicUrl: string
  /** The carrier provider for live shipping quotes (absent or `carriers: null`: the flat cost). */
  quotes?: QuoteDeps
}

/**
 * The place a posted form names, as the checkout's validators read it: its municipality of its
 * department (or the department's only one); null when it names none.
 */
export function postedPlace(customer: CustomerInput): ShippingPlace | null {
  const department = departmentNamed(String(customer.department ?? '').trim())
  if (!department) return null
  const only = municipalitiesOf(department.code)
  const code = String(customer.municipality_code ?? '').trim() || (only.length === 1 ? only[0]!.code : '')
  const municipality = municipalityCoded(code)
  if (municipality?.departmentCode !== department.code) return null
  return { departmentCode: department.code, municipalityCode: municipality.code }
}

/**
 * The live shipping quote for a posted form's cart and place (null: the flat or zone cost stands).
 * Asked before the order's transaction, and shared with the form shown again without scripts.
 */
export async function quoteForForm(
  quotes: QuoteDeps | undefined,
  form: Pick<CheckoutForm, 'lines' | 'customer'>,
) {
  const place = postedPlace(form.customer)
  if (!quotes?.carriers || !place || !form.lines.length) return null
  return checkoutShippingQuote(quotes, { ...place, lines: form.lines })
}

/** Where the shopper goes next (the success page empties the cart: checkout-result.tsx). */
export type CheckoutOutcome = { redirectTo: string }

/**
 * The whole "Confirmar pedido": places the order (reserving its units), then sends the shopper to the
 * success page (cash on delivery, transfer) or to the payment provider. A refused cart or form throws
 * `CheckoutRefused`, a payment that cannot start a `Refusal` (502); the latter cancels the order it
 * was for, but only when this request created it (a twin of a double submit must not undo the order
 * the first one is paying for).
 */
export async function submitCheckout(
  deps: CheckoutDeps,
  form: CheckoutForm,
  clientAddress: string | null = null,
  tracking: CheckoutTracking | null = null,
  campaign: OrderCampaign | null = null,
): Promise<CheckoutOutcome> {
  if (form.badKey) throw new CheckoutRefused(ID_MESSAGES.badForm)
  // Asked before placeOrder's transaction: an HTTP call never holds the order's locks.
  const shippingQuote = await quoteForForm(deps.quotes, form)
  const { order, created } = await placeOrder(deps.checkout, {
    shippingQuote,
    lines: form.lines,
    expectedTotal: form.expectedTotal,
    customer: form.customer,
    checkoutKey: form.checkoutKey,
    clientAddress,
    tracking,
    campaign,
  })
  // Cash on delivery, and a transfer (its success page says where to send the money).
  if (!isOnlinePaymentMethod(order.paymentMethod)) {
    return { redirectTo: orderResultPath('success', order.id) }
  }
  const paymentUrl = await startOnlinePayment(deps.payments, order.id, deps.publicUrl, {
    cancelOnFailure: created,
  })
  return { redirectTo: paymentUrl }
}
