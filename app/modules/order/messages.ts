import type { PaymentMethod } from './schema.ts'

/** How the shop names each payment method (desk, packing slips, sales report). */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  acordar: 'Contra entrega',
  mercadopago: 'Mercado Pago',
  wompi: 'Wompi',
  transferencia: 'Transferencia / Bre-B',
}

/** The order desk's Spanish texts (the spec gives only the confirm and the status names). */
export const ORDER_DESK_MESSAGES = {
  notFound: 'Pedido no encontrado.',
  /** The browser's confirm before every status change (spec §4). */
  confirmChange: (state: string) => `Va a cambiar el estado del pedido a: ${state}`,
  shipped: 'Pedido marcado como enviado.',
  paid: 'Pedido marcado como pagado.',
  cancelled: 'Pedido cancelado.',
  completed: 'Pedido completado.',
  confirmed: 'Pedido confirmado con el cliente.',
  alreadyShipped: 'El pedido ya fue enviado.',
  completeUnpaid:
    'Este pedido se paga antes del envío y aún no está pagado: márcalo como pagado antes de completarlo.',
  closedNoShip: 'Un pedido cancelado o completado no se puede enviar.',
  nothingHeld: 'El pedido no tiene unidades apartadas para enviar.',
  alreadyCancelled: 'El pedido ya está cancelado.',
  notCashOnDelivery: 'Solo los pedidos contra entrega se confirman por WhatsApp.',
  alreadyConfirmed: 'El pedido ya está confirmado.',
  closedNoConfirm: 'Un pedido cancelado, completado o enviado ya no se confirma.',
  reasonRequired: 'Escribe el motivo de la cancelación.',
  tooLong: (max: number) => `Máximo ${max} caracteres.`,
  unknownAction: 'Acción no reconocida.',
  failed: 'No se pudo actualizar el pedido. Intenta nuevamente.',
} as const

/** Reasons offered when cancelling; any other text may be typed. */
export const CANCEL_REASONS = [
  'rechazado en la entrega',
  'el cliente no responde',
  'el cliente canceló',
  'datos de entrega incorrectos',
] as const

/** Longest cancellation reason, carrier and tracking number the desk keeps. */
export const CANCEL_REASON_MAX = 200
export const SHIPMENT_TEXT_MAX = 80
