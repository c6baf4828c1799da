import type { DbOrTx } from '#app/db/client.server.ts'
import type { WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { readNewOrderTemplate, readNotifyNumbers } from '#app/modules/messages/messages.server.ts'
import { DEFAULT_NEW_ORDER_TEMPLATE } from '#app/modules/messages/validators.ts'
import { sendBusinessTemplate } from './business-notice.server.ts'
import { getOrder } from './order.server.ts'

/** The new-order template until the owner saves another in "Mensajes y Notificaciones". */
export const NEW_ORDER_TEMPLATE = DEFAULT_NEW_ORDER_TEMPLATE

/**
 * The business numbers told of a new order or a buyer's request, as saved in "Mensajes y
 * Notificaciones" (read in the caller's transaction); `defaults` (WHATSAPP_NOTIFY_NUMBERS) until
 * the owner saves the list.
 */
export function notifyNumbersOf(db: DbOrTx, defaults: readonly string[]): Promise<string[]> {
  return readNotifyNumbers(db, defaults)
}

/**
 * Job: tells one business number of a new order with the new-order template as saved now
 * ("nuevo_pedido" in Spanish until changed; customer name and phone). Throws on a retryable failure
 * so the queue backs off and tries again.
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
  const { template, language } = await readNewOrderTemplate(deps.db)
  return sendBusinessTemplate(deps, {
    orderId: order.id,
    to: job.to,
    template,
    language,
    parameters: [name, order.customerPhone],
    about: '',
  })
}
