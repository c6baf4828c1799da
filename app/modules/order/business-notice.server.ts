import type { DbOrTx } from '#app/db/client.server.ts'
import { WhatsAppError, type WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { recordOrderEvent } from './order.server.ts'

/**
 * Sends one WhatsApp template about an order to one business number and writes the outcome on the
 * order's timeline: skipped without WhatsApp configured, sent, or failed for good. A retryable
 * failure is thrown so the job's queue backs off and tries again. `about` names what the notice is
 * of, after "Aviso por WhatsApp" (empty for a new order).
 */
export async function sendBusinessTemplate(
  deps: { db: DbOrTx; whatsapp: WhatsAppClient | null },
  notice: {
    orderId: string
    to: string
    template: string
    parameters: string[]
    about: string
    /** The template's language code (Spanish unless the owner saved another). */
    language?: string
  },
) {
  const { orderId, to, about } = notice
  if (!deps.whatsapp) {
    await recordOrderEvent(
      deps.db,
      orderId,
      'notice-skipped',
      `Aviso por WhatsApp${about} a ${to} omitido: WhatsApp no está configurado.`,
    )
    return { skipped: 'sin configuración' }
  }
  try {
    const { messageId } = await deps.whatsapp.sendTemplate(
      to,
      notice.template,
      notice.language ?? 'es',
      notice.parameters,
    )
    await recordOrderEvent(deps.db, orderId, 'notice-sent', `Aviso por WhatsApp${about} enviado a ${to}.`, {
      messageId,
    })
    return { sent: messageId }
  } catch (error) {
    if (error instanceof WhatsAppError && !error.retryable) {
      await recordOrderEvent(
        deps.db,
        orderId,
        'notice-failed',
        `Aviso por WhatsApp${about} a ${to} falló: ${error.message}`,
        { code: error.code },
      )
      return { failed: error.message }
    }
    throw error
  }
}
