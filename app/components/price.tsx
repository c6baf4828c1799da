import { formatCOP } from '#app/utils/money.ts'

export function Price({
  price,
  finalPrice,
  discountPercent,
  size = 'md',
}: {
  price: number
  finalPrice: number
  discountPercent: number
  size?: 'md' | 'lg'
}) {
  const big = size === 'lg'
  if (discountPercent <= 0) {
    return <p className={big ? 'text-2xl font-semibold' : 'font-semibold'}>{formatCOP(price)}</p>
  }
  return (
    <div className="flex flex-wrap items-baseline gap-x-2">
      <p className={`${big ? 'text-2xl' : ''} font-semibold text-brand-700`}>{formatCOP(finalPrice)}</p>
      <p className="text-sm text-gray-500 line-through">
        <span className="sr-only">Antes </span>
        {formatCOP(price)}
      </p>
      {big ? <p className="text-sm font-medium text-red-600">{discountPercent}% de descuento</p> : null}
    </div>
  )
}

/** A running "lleve N pague M" on the product (an automatic promotion), as a badge. */
export function BuyPayBadge({
  buyPay,
  className = '',
}: {
  buyPay: { buy: number; pay: number } | null | undefined
  className?: string
}) {
  if (!buyPay) return null
  return (
    <span
      className={`rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white ${className}`}
      data-testid="buy-pay-badge"
    >
      Lleve {buyPay.buy} pague {buyPay.pay}
    </span>
  )
}
