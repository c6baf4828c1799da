import type { DiscountedLine } from '#app/components/order-discounts.ts'
import type { DiscountRow } from '#app/components/totals.tsx'
import type { DeskOrder } from '#app/modules/order/desk.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Section } from './section.tsx'

/** The desk's order with each line's discounts and net amount, and its discount rows (`discountedOrderView`). */
export type DiscountedDeskOrder = Omit<DeskOrder, 'items'> & {
  items: (DeskOrder['items'][number] & DiscountedLine)[]
  discounts: DiscountRow[]
}

/** The lines of the order (what promotions took off each) and its totals. */
export function ItemsSection({ order }: { order: DiscountedDeskOrder }) {
  return (
    <Section title="Productos" testId="order-items">
      <ul className="divide-y divide-brand-100 text-sm">
        {order.items.map((item) => (
          <li
            key={item.productSku}
            className="flex flex-wrap justify-between gap-2 py-2"
            data-testid="order-item"
          >
            <span>
              <span className="font-medium">{item.title}</span>
              <span className="block text-xs text-gray-500">{item.productSku}</span>
              {item.discounts.map((discount, index) => (
                <span key={index} className="block text-xs text-green-800" data-testid="order-item-discount">
                  {discount.name} {formatCOP(-discount.amount)}
                </span>
              ))}
            </span>
            <span className="text-right">
              {item.quantity} × {formatCOP(item.unitPrice)}
              {item.discount ? (
                <>
                  <span className="block text-gray-500 line-through">
                    {formatCOP(item.quantity * item.unitPrice)}
                  </span>
                  <span className="block font-medium" data-testid="order-item-net">
                    {formatCOP(item.net)}
                  </span>
                </>
              ) : (
                <span className="block font-medium">{formatCOP(item.quantity * item.unitPrice)}</span>
              )}
            </span>
          </li>
        ))}
      </ul>
      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 border-t border-brand-100 pt-3 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right">{formatCOP(order.subtotal)}</dd>
        <dt>Envío</dt>
        <dd className="text-right">{formatCOP(order.shippingCost)}</dd>
        {order.discounts.map((discount, index) => (
          <div key={index} className="contents text-green-800">
            <dt>{discount.name}</dt>
            <dd className="text-right" data-testid="order-discount">
              {formatCOP(-discount.amount)}
            </dd>
          </div>
        ))}
        <dt className="font-semibold">Total</dt>
        <dd className="text-right font-semibold" data-testid="order-total">
          {formatCOP(order.total)}
        </dd>
      </dl>
    </Section>
  )
}
