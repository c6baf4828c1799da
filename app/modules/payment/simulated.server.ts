import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
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
  }
}

export async function recordSimulatedPayment(
  db: DbOrTx,
  input: {
    orderId: string
    status: Extract<PaymentStatus, 'approved' | 'pending' | 'rejected'>
    amount: number
  },
) {
  const id = `${Date.now()}${Math.floor(Math.random() * 1000)}`
  await db.insert(simulatedPayments).values({ id, ...input })
  return { id, requestId: randomUUID() }
}
