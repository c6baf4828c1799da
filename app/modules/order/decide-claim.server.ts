import { eq } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { cancelLockedOrder } from './cancel.server.ts'
import { CLAIM_KIND_LABELS, CLAIM_MESSAGES, CLAIM_TEXT_MAX } from './claims.ts'
import { lockOrder, recordOrderEvent } from './order.server.ts'
import type { OrderClaim } from './request-claim.server.ts'
import { isOnlinePaymentMethod, orderClaims } from './schema.ts'
import { orderNotFound } from './ship.server.ts'

const refused = (message: string, status = 409) => new Refusal(message, { status, standsAlone: true })

/** The claim, locked for the caller's transaction, still waiting for the shop's answer. */
async function lockPendingClaim(tx: Tx, claimId: number): Promise<OrderClaim> {
  const [claim] = await tx.select().from(orderClaims).where(eq(orderClaims.id, claimId)).for('update')
  if (!claim) throw refused(CLAIM_MESSAGES.notFound, 404)
  if (claim.status !== 'pendiente') throw refused(CLAIM_MESSAGES.alreadyDecided)
  return claim
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line.length > CLAIM_TEXT_MAX) throw refused(CLAIM_MESSAGES.tooLong, 400)
  return line
}

/**
 * The shop accepts a withdrawal or reversal: the order ends "cancelado" with its units back in
 * stock (a shipped order's as entries at their exit cost, as a refused delivery), the claim records
 * who and how the money went back, and an online withdrawal's refund is asked of its provider by a
 * job in the same transaction. Cash on delivery has no payment to refund through a provider, so the
 * owner writes how it went back (`refundNote`); a reversal is settled by the card's issuer.
 */
export async function acceptClaim(
  db: DbOrTx,
  jobs: JobQueue,
  input: { claimId: number; by: string; refundNote: string },
): Promise<void> {
  const refundNote = oneLine(input.refundNote)
  await db.transaction(async (tx) => {
    const claim = await lockPendingClaim(tx, input.claimId)
    const order = await lockOrder(tx, claim.orderId)
    if (!order) throw orderNotFound()
    const online = isOnlinePaymentMethod(order.paymentMethod) && Boolean(order.paymentId)
    if (!online && !refundNote) throw refused(CLAIM_MESSAGES.refundRequired, 400)
    const label = CLAIM_KIND_LABELS[claim.kind]
    if (order.status !== 'cancelado') {
      await cancelLockedOrder(tx, jobs, order, `${label}: solicitud aceptada.`, input.by, { asReturn: true })
    }
    await tx
      .update(orderClaims)
      .set({
        status: 'aceptada',
        decidedAt: new Date(),
        decidedBy: input.by,
        decisionNote: refundNote || null,
      })
      .where(eq(orderClaims.id, claim.id))
    const refund =
      claim.kind === 'reversion'
        ? 'El emisor del medio de pago hace la reversión.'
        : online
          ? 'Reembolso pedido a Mercado Pago.'
          : `Reembolso: ${refundNote}.`
    await recordOrderEvent(
      tx,
      order.id,
      'claim-accepted',
      `${label} aceptado. ${refund}`,
      { claimId: claim.id, refundNote },
      input.by,
    )
    if (claim.kind === 'retracto' && online) {
      await jobs.send(tx, 'order-refund', { orderId: order.id, claimId: claim.id })
    }
  })
}

/** The shop refuses a withdrawal or reversal, with the reason the buyer reads on the order's page. */
export async function refuseClaim(
  db: DbOrTx,
  input: { claimId: number; by: string; reason: string },
): Promise<void> {
  const reason = oneLine(input.reason).replace(/[.\s]+$/, '')
  if (!reason) throw refused(CLAIM_MESSAGES.reasonRequired, 400)
  await db.transaction(async (tx) => {
    const claim = await lockPendingClaim(tx, input.claimId)
    await tx
      .update(orderClaims)
      .set({ status: 'rechazada', decidedAt: new Date(), decidedBy: input.by, decisionNote: reason })
      .where(eq(orderClaims.id, claim.id))
    await recordOrderEvent(
      tx,
      claim.orderId,
      'claim-refused',
      `${CLAIM_KIND_LABELS[claim.kind]} rechazado: ${reason}.`,
      { claimId: claim.id },
      input.by,
    )
  })
}
