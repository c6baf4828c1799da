import type { ReactNode } from 'react'
import { formatCOP } from '#app/utils/money.ts'

export function SummaryRow({
  label,
  children,
  testId,
  className = '',
}: {
  label: string
  children: ReactNode
  testId?: string
  className?: string
}) {
  return (
    <div className={`flex justify-between gap-2 ${className}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  )
}

/** One line of an order in a summary list: "{title} × {quantity}" and what it comes to. */
export function LineSummary({
  title,
  quantity,
  unitPrice,
}: {
  title: string
  quantity: number
  unitPrice: number
}) {
  return (
    <li className="flex justify-between gap-2">
      <span>
        {title} × {quantity}
      </span>
      <span>{formatCOP(unitPrice * quantity)}</span>
    </li>
  )
}

/** A discount as a summary shows it: the promotion's or code's name and what it took off. */
export type DiscountRow = { name: string; amount: number }

/**
 * Subtotal, shipping ("Gratis" when 0), each discount on its own row with its name, and total,
 * plus any further rows given as children.
 */
export function Totals({
  subtotal,
  shipping,
  discounts = [],
  total,
  pending = false,
  testIdPrefix,
  className = 'flex flex-col gap-1',
  totalClassName = 'font-semibold',
  children,
}: {
  subtotal: number
  shipping: number
  /** One row each, "−$ 8.000,00" beside its name (`{prefix}-discount`). */
  discounts?: readonly DiscountRow[]
  total: number
  /** The discounts are being worked out: "Calculando…" instead of the rows and the total. */
  pending?: boolean
  /** `cart` gives cart-subtotal, cart-shipping, cart-discount (each) and cart-total. */
  testIdPrefix?: string
  className?: string
  totalClassName?: string
  children?: ReactNode
}) {
  const testId = (name: string) => (testIdPrefix ? `${testIdPrefix}-${name}` : undefined)
  return (
    <dl className={className}>
      <SummaryRow label="Subtotal" testId={testId('subtotal')}>
        {formatCOP(subtotal)}
      </SummaryRow>
      <SummaryRow label="Envío" testId={testId('shipping')}>
        {shipping === 0 ? 'Gratis' : formatCOP(shipping)}
      </SummaryRow>
      {(pending ? [] : discounts).map((discount, index) => (
        <SummaryRow key={index} label={discount.name} testId={testId('discount')} className="text-green-800">
          {formatCOP(-discount.amount)}
        </SummaryRow>
      ))}
      <SummaryRow label="Total" testId={testId('total')} className={totalClassName}>
        {pending ? 'Calculando…' : formatCOP(total)}
      </SummaryRow>
      {children}
    </dl>
  )
}
