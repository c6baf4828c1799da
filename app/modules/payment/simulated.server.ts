import { randomInt, randomUUID } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import type { Payment, PaymentProvider, PaymentStatus } from './provider.ts'
import { simulatedPayments } from './schema.ts'

export const SIMULATED_PAYMENT_PATH = '/pago-simulado'

/**
 * Stands in for Mercado Pago when no access token is configured: its payment link is a local page
 * whose buttons record a payment here and send a signed webhook, so the flow runs offline.
 */
export function simulatedProvider(db: DbOrTx): PaymentProvider {
  return {
    name: 'simulado',
    async createPreference(input) {
      return { id: `sim-pref-${input.orderId}`, initPoint: `${SIMULATED_PAYMENT_PATH}/${input.orderId}` }
    },
    async getPayment(id): Promise<Payment> {
      const [row] = await db.select().from(simulatedPayments).where(eq(simulatedPayments.id, id))
      if (!row) return { id, status: 'not_found', externalReference: null, amount: 0 }
      return { id: row.id, status: row.status, externalReference: row.orderId, amount: row.amount }
    },
    async searchPayments(orderId): Promise<Payment[]> {
      const rows = await db
        .select()
        .from(simulatedPayments)
        .where(eq(simulatedPayments.orderId, orderId))
        .orderBy(desc(simulatedPayments.createdAt), desc(simulatedPayments.id))
      return rows.map((row) => ({
        id: row.id,
        status: row.status,
        externalReference: row.orderId,
        amount: row.amount,
      }))
    },
  }
}

/**
 * Records the outcome chosen on the simulated page. Idempotent for approvals: an order gets at most
 * one approved payment, so a double click on "Aprobar pago" returns the first one (`repeated`).
 */
export async function recordSimulatedPayment(
  db: DbOrTx,
  input: {
    orderId: string
    status: Extract<PaymentStatus, 'approved' | 'pending' | 'rejected'>
    amount: number
  },
): Promise<{ id: string; requestId: string; repeated: boolean }> {
  return db.transaction(async (tx) => {
    // The order's row lock makes two clicks take turns: the second sees the first one's approval.
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, input.orderId)).for('update')
    if (input.status === 'approved') {
      const [earlier] = await tx
        .select({ id: simulatedPayments.id })
        .from(simulatedPayments)
        .where(and(eq(simulatedPayments.orderId, input.orderId), eq(simulatedPayments.status, 'approved')))
        .limit(1)
      if (earlier) return { id: earlier.id, requestId: randomUUID(), repeated: true }
    }
    // Numeric like Mercado Pago's ids; random digits keep two payments of one millisecond apart.
    const id = `${Date.now()}${randomInt(100_000, 1_000_000)}`
    await tx.insert(simulatedPayments).values({ id, ...input })
    return { id, requestId: randomUUID(), repeated: false }
  })
}
