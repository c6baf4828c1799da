import { formatCOP } from '#app/utils/money.ts'

type ConfirmableOrder = {
  number: number
  customerName: string
  customerPhone: string
  customerAddress: string
  customerCity: string
  customerDepartment: string
  total: number
  items: { title: string; quantity: number; unitPrice: number }[]
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
    `Total a pagar contra entrega: ${formatCOP(order.total)}`,
    `Dirección de entrega: ${place}`,
    ...(statusUrl ? [`Sigue tu pedido aquí: ${statusUrl}`] : []),
    '¿Nos confirmas que los datos están bien para enviarlo?',
  ].join('\n')
}

/** A chat with the customer (Colombian number: 57 + 10 digits) with the message already typed. */
export function confirmationChatUrl(order: ConfirmableOrder, storeName: string, statusUrl?: string): string {
  const digits = order.customerPhone.replace(/\D/g, '')
  const national = digits.length === 12 && digits.startsWith('57') ? digits.slice(2) : digits
  return `https://wa.me/57${national}?text=${encodeURIComponent(confirmationMessage(order, storeName, statusUrl))}`
}
