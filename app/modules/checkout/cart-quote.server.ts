import type { DbOrTx } from '#app/db/client.server.ts'
import { shippingFor, type ShippingRules } from '#app/modules/cart/shipping.ts'
import {
  pricingLinesOf,
  quotePromotions,
  type PromotionCustomer,
} from '#app/modules/promotions/promotions.server.ts'
import { CODE_MESSAGES } from '#app/modules/promotions/messages.ts'
import { discountRowsOf, subtotalOf } from '#app/modules/promotions/rules.ts'
import { cartQuoteKey, type CartQuote } from './cart-quote.ts'

/**
 * The promotions a cart gets now, for the cart and checkout pages: the same reads and rules the
 * order runs in its transaction (`quotePromotions`), with the shipping the page shows (the threshold
 * judged on the subtotal before promotions), so the total the shopper sees is the one placeOrder
 * charges. `shipping`: the shipping rules for the order's place (`rulesForPlace`) or the shop's, or
 * the shipping a page already worked out from them (the cart API's `envio`).
 */
export async function quoteCart(
  db: DbOrTx,
  input: {
    lines: readonly { sku: string; quantity: number }[]
    code: string | null
    shipping: ShippingRules | number
    /** Who is buying, once the form says it: held to per-customer limits as the order will be. */
    customer?: PromotionCustomer | null
    now?: Date
  },
): Promise<CartQuote & { subtotal: number; shipping: number; total: number }> {
  const lines = await pricingLinesOf(db, input.lines)
  const shipping =
    typeof input.shipping === 'number' ? input.shipping : shippingFor(subtotalOf(lines), input.shipping)
  const { pricing, code, codeRefusal } = await quotePromotions(db, {
    lines,
    shipping,
    code: input.code,
    customer: input.customer,
    now: input.now,
  })
  return {
    key: cartQuoteKey(input.lines, code, shipping),
    code,
    codeOutcome: code ? { applied: !codeRefusal, message: codeRefusal ?? CODE_MESSAGES.applied(code) } : null,
    rows: discountRowsOf(pricing.discounts),
    subtotal: pricing.subtotal,
    shipping: pricing.shipping,
    total: pricing.total,
  }
}

/** Only what a page shows of a quote (its figures stay on the server). */
export function cartQuoteOf({ key, code, codeOutcome, rows }: CartQuote): CartQuote {
  return { key, code, codeOutcome, rows }
}
