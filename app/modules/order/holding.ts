import { and, eq, isNull } from 'drizzle-orm'
import { orders } from './schema.ts'

/**
 * An open order nobody has paid or confirmed that still holds its units: what the hold limits count
 * (both payment methods) and what the expiry jobs release. One rule, written once for SQL and once
 * for a row already read; keep the two in step.
 */
export const holdingUnconfirmed = and(
  eq(orders.status, 'pendiente de pago'),
  eq(orders.reservationHeld, true),
  isNull(orders.confirmedAt),
  isNull(orders.shippedAt),
)!

export function isHoldingUnconfirmed(order: {
  status: string
  reservationHeld: boolean
  confirmedAt: Date | null
  shippedAt: Date | null
}) {
  return (
    order.status === 'pendiente de pago' && order.reservationHeld && !order.confirmedAt && !order.shippedAt
  )
}
