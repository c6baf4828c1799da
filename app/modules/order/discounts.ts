/**
 * What promotions took off a placed order, as the order keeps it (`orders.discount`,
 * `order_items.discount`, `order_discounts`): pure, for every reader that shows or sends the
 * order's money. Centavos.
 */

/** One discount a promotion or code gave the order: a line's (`productSku`) or the shipping's (null). */
export type OrderDiscountRecord = {
  promotionId: number
  name: string
  code: string | null
  productSku: string | null
  amount: number
}

/** What a line charges: its units at their unit price, less what promotions took off it. */
export function lineNetOf(item: { unitPrice: number; quantity: number; discount: number }): number {
  return item.unitPrice * item.quantity - item.discount
}

/** What promotions took off the shipping: the order's discount less its lines'. */
export function shippingDiscountOf(order: {
  discount: number
  items: readonly { discount: number }[]
}): number {
  const lines = order.items.reduce((sum, item) => sum + item.discount, 0)
  return Math.max(0, order.discount - lines)
}

/** The shipping the order charges, after promotions. */
export function netShippingOf(order: {
  shippingCost: number
  discount: number
  items: readonly { discount: number }[]
}): number {
  return order.shippingCost - shippingDiscountOf(order)
}
