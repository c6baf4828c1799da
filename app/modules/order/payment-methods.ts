/** The order's ways to pay: plain data, safe for the browser's bundle (no schema imports). */

/**
 * How an order is paid: on delivery (`acordar`), online on a provider's page (Mercado Pago, Wompi),
 * or by a transfer or Bre-B payment the owner confirms at the desk.
 */
export const PAYMENT_METHODS = ['acordar', 'mercadopago', 'wompi', 'transferencia'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

/** Paid on a provider's page, which tells the shop of each payment (webhooks, events). */
export const ONLINE_PAYMENT_METHODS = ['mercadopago', 'wompi'] as const
export type OnlinePaymentMethod = (typeof ONLINE_PAYMENT_METHODS)[number]

export function isOnlinePaymentMethod(method: string): method is OnlinePaymentMethod {
  return (ONLINE_PAYMENT_METHODS as readonly string[]).includes(method)
}

/**
 * Paid before it ships: the order waits "pendiente de pago" with its reservation until the money
 * arrives, and expires when it does not. Only cash on delivery is paid at the door.
 */
export function isPaidBeforeShipping(method: PaymentMethod): boolean {
  return method !== 'acordar'
}
