import { lineNetOf, type OrderDiscountRecord } from '#app/modules/order/discounts.ts'
import { discountRowsOf } from '#app/modules/promotions/rules.ts'
import type { DiscountRow } from './totals.tsx'

/** The word for a discount the order kept without its promotion's name (an order from before them). */
const UNNAMED = 'Descuento'

/** An order line as the order views show it: what promotions took off it, by name, and what it charges. */
export type DiscountedLine = { net: number; discounts: DiscountRow[] }

/**
 * An order's lines and discounts as its views (the result page, the buyer's page, the desk) show
 * them, worded in the loader: each line with its discounts by promotion ("Black Friday", "Cupón
 * (LAURA10)") and its net amount, and the order's discount rows for `Totals`, lines and shipping
 * together (`discountRowsOf`).
 */
export function discountedOrderView<
  Item extends { productSku: string; unitPrice: number; quantity: number; discount: number },
>(
  order: { items: readonly Item[]; discount: number },
  records: readonly OrderDiscountRecord[],
): { items: (Item & DiscountedLine)[]; discounts: DiscountRow[] } {
  const rows = discountRowsOf(records)
  return {
    items: order.items.map((item) => {
      const named = discountRowsOf(records.filter((record) => record.productSku === item.productSku))
      return {
        ...item,
        net: lineNetOf(item),
        discounts: named.length || !item.discount ? named : [{ name: UNNAMED, amount: item.discount }],
      }
    }),
    discounts: rows.length || !order.discount ? rows : [{ name: UNNAMED, amount: order.discount }],
  }
}
