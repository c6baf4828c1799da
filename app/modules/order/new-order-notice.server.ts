import type { DbOrTx } from '#app/db/client.server.ts'
import { WhatsAppError, type WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { getOrder, recordOrderEvent } from './order.server.ts'

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
  if (!deps.whatsapp) {
    await recordOrderEvent(
      deps.db,
      order.id,
      'notice-skipped',
      `Aviso por WhatsApp a ${job.to} omitido: WhatsApp no está configurado.`,
    )
    return { skipped: 'sin configuración' }
  }
  const name = [order.customerName, order.customerLastName].filter(Boolean).join(' ')
  try {
    const { messageId } = await deps.whatsapp.sendTemplate(job.to, NEW_ORDER_TEMPLATE, 'es', [
      name,
      order.customerPhone,
    ])
    await recordOrderEvent(deps.db, order.id, 'notice-sent', `Aviso por WhatsApp enviado a ${job.to}.`, {
      messageId,
    })
    return { sent: messageId }
  } catch (error) {
    if (error instanceof WhatsAppError && !error.retryable) {
      await recordOrderEvent(
        deps.db,
        order.id,
        'notice-failed',
        `Aviso por WhatsApp a ${job.to} falló: ${error.message}`,
        {
          code: error.code,
        },
      )
      return { failed: error.message }
    }
    throw error
  }
}
