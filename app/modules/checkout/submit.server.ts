import type { CheckoutTracking } from '#app/modules/marketing/events.server.ts'
import { startOnlinePayment, type PaymentDeps } from '#app/modules/payment/payment.server.ts'
import { CheckoutRefused, placeOrder, type CheckoutContext } from './checkout.server.ts'
import type { CheckoutForm } from './form.server.ts'
import { ID_MESSAGES } from './messages.ts'
import { orderResultPath } from '#app/utils/paths.ts'

export type CheckoutDeps = {
  checkout: CheckoutContext
  payments: PaymentDeps
  /** Where the payment provider sends the shopper back and notifies us (PUBLIC_URL). */
  publicUrl: string
}

/** Where the shopper goes next (the success page empties the cart: checkout-result.tsx). */
export type CheckoutOutcome = { redirectTo: string }

/**
 * The whole "Confirmar pedido": places the order (reserving its units), then sends the shopper to the
 * success page (cash on delivery) or to the payment provider. A refused cart or form throws
 * `CheckoutRefused`, a payment that cannot start a `Refusal` (502); the latter cancels the order it
 * was for, but only when this request created it (a twin of a double submit must not undo the order
 * the first one is paying for).
 */
export async function submitCheckout(
  deps: CheckoutDeps,
  form: CheckoutForm,
  clientAddress: string | null = null,
  tracking: CheckoutTracking | null = null,
): Promise<CheckoutOutcome> {
  if (form.badKey) throw new CheckoutRefused(ID_MESSAGES.badForm)
  const { order, created } = await placeOrder(deps.checkout, {
    lines: form.lines,
    customer: form.customer,
    checkoutKey: form.checkoutKey,
    clientAddress,
    tracking,
  })
  if (order.paymentMethod === 'acordar') {
    return { redirectTo: orderResultPath('success', order.id) }
  }
  const paymentUrl = await startOnlinePayment(deps.payments, order.id, deps.publicUrl, {
    cancelOnFailure: created,
  })
  return { redirectTo: paymentUrl }
}
