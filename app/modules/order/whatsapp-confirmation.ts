import { formatCOP } from '#app/utils/money.ts'

type ConfirmableOrder = {
  number: number
  customerName: string
  customerPhone: string
  customerAddress: string
  customerCity: string
  customerDepartment: string
  /** What the order charges, net of its discounts. */
  total: number
  items: { title: string; quantity: number; unitPrice: number }[]
  /** What promotions took off, one row per promotion (lines and shipping together), by name. */
  discounts?: readonly { name: string; amount: number }[]
  carrier?: string | null
  trackingNumber?: string | null
  trackingUrl?: string | null
}

/** The guía and where to follow it, when the order has one. */
function shipmentLines(order: ConfirmableOrder): string[] {
  if (!order.trackingNumber) return []
  return [
    `Envío: ${order.carrier ? `${order.carrier}, ` : ''}guía ${order.trackingNumber}`,
    ...(order.trackingUrl ? [`Rastrea el envío: ${order.trackingUrl}`] : []),
  ]
}

/**
 * The message the shop sends to confirm a cash-on-delivery order; `statusUrl`, the buyer's signed
 * page of the order (state, guía, their rights), goes with it.
 */
export function confirmationMessage(order: ConfirmableOrder, storeName: string, statusUrl?: string): string {
  const place = [order.customerAddress, order.customerCity, order.customerDepartment]
    .filter(Boolean)
    .join(', ')
  return [
    `Hola ${order.customerName}, te escribimos de ${storeName} para confirmar tu pedido #${order.number}:`,
    ...order.items.map((item) => `- ${item.quantity} × ${item.title} (${formatCOP(item.unitPrice)} c/u)`),
    ...(order.discounts ?? []).map(
      (discount) => `Descuento ${discount.name}: ${formatCOP(-discount.amount)}`,
    ),
    `Total a pagar contra entrega: ${formatCOP(order.total)}`,
    `Dirección de entrega: ${place}`,
    ...shipmentLines(order),
    ...(statusUrl ? [`Sigue tu pedido aquí: ${statusUrl}`] : []),
    '¿Nos confirmas que los datos están bien para enviarlo?',
  ].join('\n')
}

/**
 * The message that tells the buyer the order left: the guía, the carrier's tracking page, the
 * buyer's page of the order, and for cash on delivery what to have ready.
 */
export function shippedMessage(
  order: ConfirmableOrder & { paymentMethod: string; status: string },
  storeName: string,
  statusUrl?: string,
): string {
  const collect = order.paymentMethod === 'acordar' && order.status === 'pendiente de pago'
  return [
    `Hola ${order.customerName}, tu pedido #${order.number} de ${storeName} ya va en camino.`,
    ...shipmentLines(order),
    ...(collect ? [`Total a pagar contra entrega: ${formatCOP(order.total)}`] : []),
    ...(statusUrl ? [`Sigue tu pedido aquí: ${statusUrl}`] : []),
  ].join('\n')
}

/** A chat with the customer (Colombian number: 57 + 10 digits) with this message already typed. */
function chatWithCustomer(phone: string, message: string): string {
  const digits = phone.replace(/\D/g, '')
  const national = digits.length === 12 && digits.startsWith('57') ? digits.slice(2) : digits
  return `https://wa.me/57${national}?text=${encodeURIComponent(message)}`
}

/** "Avisar el envío por WhatsApp": the chat with the shipped message typed. */
export function shippedChatUrl(
  order: ConfirmableOrder & { paymentMethod: string; status: string },
  storeName: string,
  statusUrl?: string,
): string {
  return chatWithCustomer(order.customerPhone, shippedMessage(order, storeName, statusUrl))
}

/** A chat with the customer (Colombian number: 57 + 10 digits) with the message already typed. */
export function confirmationChatUrl(order: ConfirmableOrder, storeName: string, statusUrl?: string): string {
  return chatWithCustomer(order.customerPhone, confirmationMessage(order, storeName, statusUrl))
}
