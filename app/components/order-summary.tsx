import type { ReactNode } from 'react'
import { PAYMENT_METHOD_LABELS } from '#app/modules/order/messages.ts'
import type { PaymentMethod } from '#app/modules/order/payment-methods.ts'
import { formatCOP } from '#app/utils/money.ts'
import { LineSummary, SummaryRow, Totals, type DiscountRow } from './totals.tsx'

/** An order line; `net` and `discounts` (from `discountedOrderView`) when promotions took something off it. */
export type OrderSummaryLine = {
  productSku: string
  title: string
  quantity: number
  unitPrice: number
  net?: number
  discounts?: readonly DiscountRow[]
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
      <ul className="mb-2 flex flex-col gap-1">
        {order.items.map((item) =>
          item.discounts?.length ? (
            <DiscountedLineSummary key={item.productSku} item={item} testIdPrefix={testIdPrefix} />
          ) : (
            <LineSummary
              key={item.productSku}
              title={item.title}
              quantity={item.quantity}
              unitPrice={item.unitPrice}
            />
          ),
        )}
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

/** A line promotions took something off: its amount, each discount under it by name, and what it charges. */
function DiscountedLineSummary({ item, testIdPrefix }: { item: OrderSummaryLine; testIdPrefix?: string }) {
  const testId = (name: string) => (testIdPrefix ? `${testIdPrefix}-${name}` : undefined)
  const gross = item.unitPrice * item.quantity
  return (
    <li className="flex flex-col">
      <span className="flex justify-between gap-2">
        <span>
          {item.title} × {item.quantity}
        </span>
        <span>{formatCOP(gross)}</span>
      </span>
      {item.discounts?.map((discount, index) => (
        <span key={index} className="flex justify-between gap-2 pl-3 text-green-800">
          <span>{discount.name}</span>
          <span data-testid={testId('line-discount')}>{formatCOP(-discount.amount)}</span>
        </span>
      ))}
      <span className="flex justify-between gap-2 pl-3 font-medium">
        <span>Con descuento</span>
        <span data-testid={testId('line-net')}>{formatCOP(item.net ?? gross)}</span>
      </span>
    </li>
  )
}
