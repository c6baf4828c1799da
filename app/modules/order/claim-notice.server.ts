import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { spanishDay } from '#app/utils/spanish-dates.ts'
import { sendBusinessTemplate } from './business-notice.server.ts'
import { CLAIM_KIND_LABELS } from './claims.ts'
import { getOrder } from './order.server.ts'
import { orderClaims } from './schema.ts'

/** The WhatsApp template that tells the owner of a buyer's request: order number, request, deadline. */
export const CLAIM_NOTICE_TEMPLATE = 'solicitud_cliente'

/**
 * Job: tells one business number of a withdrawal or reversal request at once, with the
 * "solicitud_cliente" template. Throws on a retryable failure so the queue backs off and tries again.
 */
export async function sendClaimNotice(
  deps: { db: DbOrTx; whatsapp: WhatsAppClient | null },
  job: { claimId: number; to: string },
) {
  const [claim] = await deps.db.select().from(orderClaims).where(eq(orderClaims.id, job.claimId))
  const order = claim && (await getOrder(deps.db, claim.orderId))
  if (!claim || !order) return { skipped: 'solicitud inexistente' }
  const label = CLAIM_KIND_LABELS[claim.kind]
  return sendBusinessTemplate(deps, {
    orderId: order.id,
    to: job.to,
    template: CLAIM_NOTICE_TEMPLATE,
    parameters: [String(order.number), label, spanishDay(claim.deadline)],
    about: ` de la solicitud (${label})`,
  })
}
