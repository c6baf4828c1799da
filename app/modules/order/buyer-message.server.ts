import { eq } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { shipments } from '#app/modules/carriers/schema.ts'
import { WhatsAppError, type WhatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { readBuyerMessage } from '#app/modules/messages/messages.server.ts'
import { BUYER_EVENT_LABELS, type BuyerEvent } from '#app/modules/messages/validators.ts'
import { normalizeWhatsappNumber } from '#app/utils/whatsapp.ts'
import { whatsappLink } from '#app/utils/whatsapp-link.ts'
import { getOrder, recordOrderEvent, type OrderWithItems } from './order.server.ts'
import { signedOrderPath } from './status-link.server.ts'
import { shippedMessage } from './whatsapp-confirmation.ts'

/**
 * Messages to the buyer on the order's events ("Mensajes y Notificaciones"): confirmed, shipped,
 * delivered and cancelled. The change enqueues the job in its own transaction when the owner turned
 * that message on; the job sends the WhatsApp template, or without WhatsApp configured leaves a
 * wa.me link with the text on the order's timeline for the owner to send by hand.
 */

/** Stands in for a shipment detail the owner did not write: WhatsApp refuses an empty parameter. */
export const UNKNOWN_SHIPMENT_DETAIL = 'por confirmar'

/** In the caller's transaction: one job for the buyer's message of `event`, when that message is on. */
export async function enqueueBuyerMessage(tx: Tx, jobs: JobQueue, orderId: string, event: BuyerEvent) {
  const message = await readBuyerMessage(tx, event)
  if (!message.enabled) return false
  await jobs.send(tx, 'order-buyer-message', { orderId, event })
  return true
}

export type BuyerMessageDeps = {
  db: DbOrTx
  whatsapp: WhatsAppClient | null
  storeName: string
  /** Canonical origin (no trailing slash): the buyer's order page is linked from it. */
  publicUrl: string
  /** Signs the buyer's order-page link (`orderLinkSecret`). */
  linkSecret: Buffer
}

/** The template's parameters ({{1}}, {{2}}…, as the page documents them) and the same message as text. */
export async function buyerMessageContent(
  deps: Pick<BuyerMessageDeps, 'db' | 'storeName' | 'publicUrl' | 'linkSecret'>,
  order: OrderWithItems,
  event: BuyerEvent,
): Promise<{ parameters: string[]; text: string }> {
  const name = order.customerName.trim() || 'cliente'
  const number = String(order.number)
  const store = deps.storeName
  const orderUrl = `${deps.publicUrl}${signedOrderPath(deps.linkSecret, order.number)}`
  switch (event) {
    case 'confirmed':
      return {
        parameters: [name, number, orderUrl],
        text: `Hola ${name}, tu pedido #${number} de ${store} está confirmado. Síguelo aquí: ${orderUrl}`,
      }
    case 'shipped': {
      // A guía bought through the shop may learn its tracking page after the order shipped.
      const [shipment] = await deps.db
        .select({ trackingUrl: shipments.trackingUrl })
        .from(shipments)
        .where(eq(shipments.orderId, order.id))
      const trackingUrl = order.trackingUrl || shipment?.trackingUrl || null
      return {
        parameters: [
          name,
          number,
          order.carrier || UNKNOWN_SHIPMENT_DETAIL,
          order.trackingNumber || UNKNOWN_SHIPMENT_DETAIL,
          trackingUrl || orderUrl,
        ],
        // Without amounts: the timeline's link is shown to whoever opens the desk.
        text: shippedMessage({ ...order, trackingUrl, paymentMethod: '', status: '' }, store, orderUrl),
      }
    }
    case 'completed':
      return {
        parameters: [name, number],
        text: `Hola ${name}, tu pedido #${number} de ${store} fue entregado. ¡Gracias por tu compra!`,
      }
    case 'cancelled':
      return {
        parameters: [name, number],
        text: `Hola ${name}, tu pedido #${number} de ${store} fue cancelado. Si tienes alguna pregunta, responde este mensaje.`,
      }
  }
}

type Outcome =
  | { kind: 'sent'; to: string; messageId: string; template: string }
  | { kind: 'failed'; to: string; error: string; code?: number; chatUrl: string }
  | { kind: 'skipped'; why: string; to?: string; chatUrl?: string }

/** Writes a buyer message's outcome on the order's timeline (the order module is its only writer). */
export async function recordBuyerMessage(db: DbOrTx, orderId: string, event: BuyerEvent, outcome: Outcome) {
  const label = `Mensaje al cliente «${BUYER_EVENT_LABELS[event]}»`
  switch (outcome.kind) {
    case 'sent':
      return recordOrderEvent(
        db,
        orderId,
        'buyer-message-sent',
        `${label} enviado por WhatsApp a ${outcome.to}.`,
        {
          event,
          to: outcome.to,
          template: outcome.template,
          messageId: outcome.messageId,
        },
      )
    case 'failed':
      return recordOrderEvent(
        db,
        orderId,
        'buyer-message-failed',
        `${label} a ${outcome.to} falló: ${outcome.error} Puedes enviarlo a mano.`,
        { event, to: outcome.to, code: outcome.code, chatUrl: outcome.chatUrl },
      )
    case 'skipped':
      return recordOrderEvent(db, orderId, 'buyer-message-skipped', `${label} sin enviar: ${outcome.why}`, {
        event,
        ...(outcome.to ? { to: outcome.to } : {}),
        ...(outcome.chatUrl ? { chatUrl: outcome.chatUrl } : {}),
      })
  }
}

/**
 * Job: the buyer's message of one order event, as the template saved now (name, language) with the
 * order as it is now. Skipped (and said on the timeline) when the message was turned off meanwhile
 * or the phone is no Colombian mobile; without WhatsApp configured, skipped with the wa.me link. A
 * retryable failure throws so the queue backs off; any other is recorded with the link too.
 */
export async function sendBuyerMessage(deps: BuyerMessageDeps, job: { orderId: string; event: BuyerEvent }) {
  const order = await getOrder(deps.db, job.orderId)
  if (!order) return { skipped: 'pedido inexistente' }
  const { event } = job
  const setting = await readBuyerMessage(deps.db, event)
  if (!setting.enabled) {
    await recordBuyerMessage(deps.db, order.id, event, {
      kind: 'skipped',
      why: 'se desactivó en Mensajes y Notificaciones.',
    })
    return { skipped: 'desactivado' }
  }
  const to = normalizeWhatsappNumber(order.customerPhone)
  if (!to) {
    await recordBuyerMessage(deps.db, order.id, event, {
      kind: 'skipped',
      why: `el teléfono ${order.customerPhone} no es un celular colombiano.`,
    })
    return { skipped: 'teléfono no válido' }
  }
  const content = await buyerMessageContent(deps, order, event)
  const chatUrl = whatsappLink(to, content.text)
  if (!deps.whatsapp) {
    await recordBuyerMessage(deps.db, order.id, event, {
      kind: 'skipped',
      why: 'WhatsApp no está configurado. Envíalo a mano con el enlace.',
      to,
      chatUrl,
    })
    return { skipped: 'sin configuración', chatUrl }
  }
  try {
    const { messageId } = await deps.whatsapp.sendTemplate(
      to,
      setting.template,
      setting.language,
      content.parameters,
    )
    await recordBuyerMessage(deps.db, order.id, event, {
      kind: 'sent',
      to,
      messageId,
      template: setting.template,
    })
    return { sent: messageId }
  } catch (error) {
    if (error instanceof WhatsAppError && !error.retryable) {
      await recordBuyerMessage(deps.db, order.id, event, {
        kind: 'failed',
        to,
        error: error.message.replace(/\.?$/, '.'),
        code: error.code,
        chatUrl,
      })
      return { failed: error.message }
    }
    throw error
  }
}
