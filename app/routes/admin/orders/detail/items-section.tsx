import type { DeskOrder } from '#app/modules/order/desk.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Section } from './section.tsx'

/** The lines of the order and its totals. */
export function ItemsSection({ order }: { order: DeskOrder }) {
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
            </span>
            <span className="text-right">
              {item.quantity} × {formatCOP(item.unitPrice)}
              <span className="block font-medium">{formatCOP(item.quantity * item.unitPrice)}</span>
            </span>
          </li>
        ))}
      </ul>
      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 border-t border-brand-100 pt-3 text-sm">
        <dt>Subtotal</dt>
        <dd className="text-right">{formatCOP(order.subtotal)}</dd>
        <dt>Envío</dt>
        <dd className="text-right">{formatCOP(order.shippingCost)}</dd>
        <dt className="font-semibold">Total</dt>
        <dd className="text-right font-semibold" data-testid="order-total">
          {formatCOP(order.total)}
        </dd>
      </dl>
    </Section>
  )
}
