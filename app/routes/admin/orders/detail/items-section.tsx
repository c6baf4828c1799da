import { formatCOP } from '#app/utils/money.ts'
import type { DeskOrderView } from './desk-view.ts'
import { Section } from './section.tsx'

type Line = DeskOrderView['items'][number]
type PricedLine = Line & Required<Pick<Line, 'unitPrice' | 'discount' | 'net' | 'discounts'>>

const priced = (item: Line): item is PricedLine =>
  item.unitPrice !== undefined &&
  item.discount !== undefined &&
  item.net !== undefined &&
  item.discounts !== undefined

/**
 * The lines of the order (what promotions took off each) and its totals; for a role that may not
 * see money (the loader sent none), each line's quantity alone.
 */
export function ItemsSection({ order }: { order: DeskOrderView }) {
  const { subtotal, shippingCost, total, discounts } = order
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
              {item.discounts?.map((discount, index) => (
                <span key={index} className="block text-xs text-green-800" data-testid="order-item-discount">
                  {discount.name} {formatCOP(-discount.amount)}
                </span>
              ))}
            </span>
            {priced(item) ? (
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
            ) : (
              <span className="text-right font-medium" data-testid="order-item-quantity">
                {`${item.quantity} ${item.quantity === 1 ? 'unidad' : 'unidades'}`}
              </span>
            )}
          </li>
        ))}
      </ul>
      {subtotal !== undefined && shippingCost !== undefined && total !== undefined ? (
        <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 border-t border-brand-100 pt-3 text-sm">
          <dt>Subtotal</dt>
          <dd className="text-right">{formatCOP(subtotal)}</dd>
          <dt>Envío</dt>
          <dd className="text-right">{formatCOP(shippingCost)}</dd>
          {discounts?.map((discount, index) => (
            <div key={index} className="contents text-green-800">
              <dt>{discount.name}</dt>
              <dd className="text-right" data-testid="order-discount">
                {formatCOP(-discount.amount)}
              </dd>
            </div>
          ))}
          <dt className="font-semibold">Total</dt>
          <dd className="text-right font-semibold" data-testid="order-total">
            {formatCOP(total)}
          </dd>
        </dl>
      ) : null}
    </Section>
  )
}
