import type { DbOrTx } from '#app/db/client.server.ts'
import type { WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { sendBusinessTemplate } from './business-notice.server.ts'
import { getOrder } from './order.server.ts'

export const NEW_ORDER_TEMPLATE = 'nuevo_pedido'

/**
 * Job: tells one business number of a new order with the "nuevo_pedido" template (customer name
 * and phone). Throws on a retryable failure so the queue backs off and tries again.
 */
export async function sendNewOrderNotice(
  deps: { db: DbOrTx; whatsapp: WhatsAppClient | null },
  job: { orderId: string; to: string },
) {
  const order = await getOrder(deps.db, job.orderId)
  if (!order) return { skipped: 'pedido inexistente' }
  // A payment that could not even start cancels its order at once: nothing for the business.
  if (order.status === 'cancelado') return { skipped: 'pedido cancelado' }
  const name = [order.customerName, order.customerLastName].filter(Boolean).join(' ')
  return sendBusinessTemplate(deps, {
    orderId: order.id,
    to: job.to,
    template: NEW_ORDER_TEMPLATE,
    parameters: [name, order.customerPhone],
    about: '',
  })
}
