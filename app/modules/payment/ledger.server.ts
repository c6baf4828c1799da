import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { payments, type PaymentLedgerProvider } from './schema.ts'

/** One payment as the ledger keeps it (money in centavos). */
export type LedgerPayment = {
  provider: PaymentLedgerProvider
  providerPaymentId: string
  orderId: string
  method?: string | null
  status: string
  amount: number
  fee?: number | null
  recordedBy?: string | null
}

/**
 * Writes what a provider last said of one payment (or a transfer marked paid): a new row, or the
 * known one brought up to date. Called in the transaction that settles the order, so the ledger
 * and the order never disagree.
 */
export async function recordLedgerPayment(db: DbOrTx, payment: LedgerPayment) {
  const row = {
    provider: payment.provider,
    providerPaymentId: payment.providerPaymentId,
    orderId: payment.orderId,
    method: payment.method ?? null,
    status: payment.status,
    amount: Math.max(0, payment.amount),
    fee: payment.fee ?? null,
    recordedBy: payment.recordedBy ?? null,
  }
  await db
    .insert(payments)
    .values(row)
    .onConflictDoUpdate({
      target: [payments.provider, payments.providerPaymentId],
      set: {
        status: row.status,
        amount: row.amount,
        method: sql`coalesce(${row.method}, ${payments.method})`,
        fee: sql`coalesce(${row.fee}::integer, ${payments.fee})`,
        updatedAt: sql`now()`,
      },
    })
}
