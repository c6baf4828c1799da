import { addBusinessDays } from '#app/utils/business-days.ts'
import { spanishDay } from '#app/utils/spanish-dates.ts'
import type { ClaimKind, ClaimStatus, ReversalCause } from './schema.ts'

/**
 * The buyer's rights after a distance sale (Ley 1480 de 2011): withdrawal ("retracto", art. 47)
 * within 5 business days of delivery, refunded within 30 calendar days; payment reversal (art. 51,
 * Decreto 587 de 2016) asked within 5 business days of learning of its cause, which the issuer
 * settles within 15 business days. Days are Bogotá days; business days skip weekends and holidays.
 */
export const RETRACTO_BUSINESS_DAYS = 5
export const RETRACTO_REFUND_CALENDAR_DAYS = 30
export const REVERSAL_BUSINESS_DAYS = 5
export const REVERSAL_ANSWER_BUSINESS_DAYS = 15
export const CLAIM_TEXT_MAX = 500

export const CLAIM_KIND_LABELS: Record<ClaimKind, string> = {
  retracto: 'Derecho de retracto',
  reversion: 'Reversión del pago',
}

export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  pendiente: 'Pendiente',
  aceptada: 'Aceptada',
  rechazada: 'Rechazada',
}

export const REVERSAL_CAUSE_LABELS: Record<ReversalCause, string> = {
  fraude: 'Fraude: no hice esta compra',
  'no-solicitado': 'No solicité este producto',
  'no-recibido': 'No recibí el producto',
  'no-corresponde': 'El producto no corresponde a lo que pedí',
  defectuoso: 'El producto llegó defectuoso',
}

export const CLAIM_MESSAGES = {
  retractoRequested:
    'Recibimos tu solicitud de retracto. Te escribiremos para acordar la devolución del producto; el dinero se devuelve completo.',
  reversalRequested:
    'Recibimos tu solicitud de reversión del pago. Avisa también al banco o emisor de tu tarjeta; te escribiremos con la respuesta.',
  notDelivered: 'El derecho de retracto se puede ejercer cuando el pedido ya fue entregado.',
  personalUse:
    'Los productos de este pedido son de uso personal y no admiten derecho de retracto (Ley 1480 de 2011, art. 47). Si alguno llegó defectuoso, escríbenos: tienes la garantía legal.',
  personalUseItems: (titles: string[]) =>
    `No admiten retracto por ser de uso personal: ${titles.join(', ')}. La solicitud es por los demás productos.`,
  cancelled: 'Este pedido está cancelado.',
  retractoExpired: (lastDay: string) =>
    `El plazo para el retracto venció el ${spanishDay(lastDay)} (5 días hábiles desde la entrega).`,
  notOnline: 'La reversión del pago aplica a los pedidos pagados en línea.',
  notPaid: 'La reversión del pago aplica a un pago hecho: este pedido no tiene uno.',
  reversalExpired: (lastDay: string) =>
    `El plazo para pedir la reversión venció el ${spanishDay(lastDay)} (5 días hábiles desde que supiste del motivo).`,
  learnedOnInvalid: 'Escribe la fecha en que supiste del motivo: no antes del pedido ni después de hoy.',
  causeRequired: 'Elige el motivo de la reversión.',
  alreadyOpen: 'Este pedido ya tiene una solicitud en trámite. Te escribiremos con la respuesta.',
  tooLong: `Máximo ${CLAIM_TEXT_MAX} caracteres.`,
  // The desk's.
  notFound: 'Solicitud no encontrada.',
  alreadyDecided: 'Esta solicitud ya fue respondida.',
  reasonRequired: 'Escribe el motivo del rechazo: el cliente lo leerá.',
  refundRequired: 'Escribe cómo devolviste el dinero (por ejemplo, transferencia Nequi del 27/11).',
  accepted: 'Solicitud aceptada: el pedido quedó cancelado y sus unidades volvieron al inventario.',
  refused: 'Solicitud rechazada.',
} as const

/** The last Bogotá day a withdrawal may be asked for an order delivered on `deliveredDay`. */
export function retractoLastDay(deliveredDay: string): string {
  return addBusinessDays(deliveredDay, RETRACTO_BUSINESS_DAYS)
}

/** The last Bogotá day a reversal may be asked, from the day the buyer learned of its cause. */
export function reversalLastDay(learnedOn: string): string {
  return addBusinessDays(learnedOn, REVERSAL_BUSINESS_DAYS)
}

/** The last day of the shop's term: a withdrawal refunded in 30 calendar days, a reversal answered in 15 business days. */
export function claimDeadline(kind: ClaimKind, requestedDay: string): string {
  if (kind === 'reversion') return addBusinessDays(requestedDay, REVERSAL_ANSWER_BUSINESS_DAYS)
  const at = Date.parse(`${requestedDay}T00:00:00Z`) + RETRACTO_REFUND_CALENDAR_DAYS * 24 * 60 * 60 * 1000
  return new Date(at).toISOString().slice(0, 10)
}
