import { and, eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { cancelOrder } from './cancel.server.ts'
import { staleOrderIds } from './expire.server.ts'
import { holdingUnconfirmed } from './holding.ts'
import { orders } from './schema.ts'

/** When an unconfirmed cash-on-delivery order placed at `createdAt` gives its units back. */
export function confirmationDeadline(createdAt: Date, hours: number): Date {
  return new Date(createdAt.getTime() + hours * 3_600_000)
}

/**
 * Cancels cash-on-delivery orders nobody confirmed within `hours`, releasing their units: without
 * it anonymous orders could hold the last units of a product for ever. Confirmed or shipped
 * orders are never touched (checked again on the locked row: a confirmation may land meanwhile).
 */
export async function expireUnconfirmedCashOrders(
  db: DbOrTx,
  jobs: JobQueue,
  hours: number,
  now = new Date(),
) {
  const stale = await staleOrderIds(
    db,
    and(eq(orders.paymentMethod, 'acordar'), holdingUnconfirmed),
    hours,
    now,
  )
  const reason = `Cancelado: contra entrega sin confirmar después de ${hours} horas; unidades liberadas.`
  let cancelled = 0
  for (const id of stale) {
    if (await cancelOrder(db, jobs, id, reason, { onlyIfPending: true, unlessConfirmed: true })) cancelled++
  }
  return { cancelled }
}
