import { and, eq, inArray, isNull, lt, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { cancelOrder } from './cancel.server.ts'
import { ONLINE_PAYMENT_METHODS, orders } from './schema.ts'

/**
 * What the payment provider says of an order about to expire: `paid` (an approved payment was found
 * and settled it), `unpaid` (nothing approved: safe to cancel), `unknown` (the provider could not be
 * asked, or the payment needs a person: leave the order for now).
 */
export type PaymentCheck = (orderId: string) => Promise<'paid' | 'unpaid' | 'unknown'>

/**
 * The orders `where` picks that were placed more than `hours` before `now`: what an expiry job
 * cancels, each then checked again on its locked row by `cancelOrder`.
 */
export async function staleOrderIds(db: DbOrTx, where: SQL | undefined, hours: number, now: Date) {
  const cutoff = new Date(now.getTime() - hours * 3_600_000)
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(where, lt(orders.createdAt, cutoff)))
  return rows.map((row) => row.id)
}

/**
 * Cancels online-payment orders (Mercado Pago, Wompi) still unpaid after `maxAgeHours`, releasing
 * their units. The provider is asked first, so a payment whose notification got lost settles the order instead; when it
 * cannot be asked the order waits for the next run (never cancelled blind). Cash on delivery orders
 * are paid on delivery and never expire here; an order the desk already shipped is never expired
 * either (its units left with the courier; checked again on the locked row).
 */
export async function expireUnpaidOrders(
  db: DbOrTx,
  jobs: JobQueue,
  maxAgeHours: number,
  checkPayment: PaymentCheck,
  now = new Date(),
) {
  const stale = await staleOrderIds(
    db,
    and(
      eq(orders.status, 'pendiente de pago'),
      inArray(orders.paymentMethod, [...ONLINE_PAYMENT_METHODS]),
      isNull(orders.shippedAt),
    ),
    maxAgeHours,
    now,
  )
  const result = { cancelled: 0, paid: 0, skipped: 0 }
  const reason = `Cancelado: sin pago después de ${maxAgeHours} horas; unidades liberadas.`
  for (const id of stale) {
    const check = await checkPayment(id)
    if (check === 'paid') result.paid++
    else if (check === 'unknown') result.skipped++
    else if (await cancelOrder(db, jobs, id, reason, { onlyIfPending: true, unlessShipped: true }))
      result.cancelled++
  }
  return result
}
