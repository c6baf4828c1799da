import type { ReactNode } from 'react'
import { PAYMENT_METHOD_LABELS } from '#app/modules/order/messages.ts'
import type { PaymentMethod } from '#app/modules/order/payment-methods.ts'
import { LineSummary, SummaryRow, Totals, type DiscountRow } from './totals.tsx'

/** An order line at its price (what promotions took off shows in the order's discount rows). */
export type OrderSummaryLine = {
  productSku: string
  title: string
  quantity: number
  unitPrice: number
}

export type OrderSummaryData = {
  number: number
  status: string
  paymentMethod: string
  items: OrderSummaryLine[]
  subtotal: number
  shippingCost: number
  /** The order's discount rows, lines and shipping together (`discountedOrderView`). */
  discounts?: readonly DiscountRow[]
  total: number
}

export function OrderSummary({
  order,
  statusLabel,
}: {
  order: OrderSummaryData
  /** Shown as "Estado" instead of the stored status (a payment being confirmed). */
  statusLabel?: string
}) {
  return (
    <section
      className="w-full max-w-md rounded-2xl bg-brand-50 p-4 text-left text-sm"
      aria-label="Resumen del pedido"
      data-testid="order-summary"
    >
      <p className="mb-2 font-semibold">
        Pedido N.º <span data-testid="order-number">{order.number}</span>
      </p>
      <OrderLines order={order} testIdPrefix="order">
        <SummaryRow label="Estado" testId="order-status">
          {statusLabel ?? order.status}
        </SummaryRow>
        <SummaryRow label="Pago">
          {PAYMENT_METHOD_LABELS[order.paymentMethod as PaymentMethod] ?? order.paymentMethod}
        </SummaryRow>
      </OrderLines>
    </section>
  )
}

/** An order's lines and totals (with any rows of the caller's under them): the result page's and the buyer's order page's. */
export function OrderLines({
  order,
  testIdPrefix,
  children,
}: {
  order: Pick<OrderSummaryData, 'items' | 'subtotal' | 'shippingCost' | 'discounts' | 'total'>
  testIdPrefix?: string
  children?: ReactNode
}) {
  return (
    <>
      {/* Each line at its price; what promotions took off shows once, in the rows below (as in the cart). */}
      <ul className="mb-2 flex flex-col gap-1">
        {order.items.map((item) => (
          <LineSummary
            key={item.productSku}
            title={item.title}
            quantity={item.quantity}
            unitPrice={item.unitPrice}
          />
        ))}
      </ul>
      <Totals
        subtotal={order.subtotal}
        shipping={order.shippingCost}
        discounts={order.discounts}
        total={order.total}
        testIdPrefix={testIdPrefix}
        className="flex flex-col gap-1 border-t border-brand-100 pt-2"
      >
        {children}
      </Totals>
    </>
  )
}
