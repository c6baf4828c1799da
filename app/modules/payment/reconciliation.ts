import { z } from 'zod'
import { salesFiltersFrom, salesRangeMessage, type SalesFilters } from '#app/modules/order/sales-report.ts'
// Types only: the page's bundle must not carry the database schema.
import type { PaymentLedgerProvider } from './schema.ts'

/**
 * "Pagos", the payments ledger as the back office reads it: its filters, words and flags, shared by
 * the page, its CSV and the module (reconciliation.server.ts) so all three say the same.
 */

export const PAYMENT_PROVIDER_FILTERS = [
  'todos',
  'mercadopago',
  'wompi',
  'transferencia',
] as const satisfies readonly ('todos' | PaymentLedgerProvider)[]
export type PaymentProviderFilter = (typeof PAYMENT_PROVIDER_FILTERS)[number]

export type PaymentFilters = SalesFilters & { provider: PaymentProviderFilter }

/** The ones whose refunds the shop can start: the others' money goes back by hand. */
export const REFUNDABLE_PROVIDERS = ['mercadopago', 'wompi'] as const
export type RefundableProvider = (typeof REFUNDABLE_PROVIDERS)[number]

export const PAYMENT_PROVIDER_LABELS: Record<PaymentLedgerProvider, string> = {
  mercadopago: 'Mercado Pago',
  wompi: 'Wompi',
  transferencia: 'Transferencia',
}

const providerFilter = z.enum(PAYMENT_PROVIDER_FILTERS).catch('todos')

/**
 * `desde`, `hasta` (Bogotá days, as the "Ventas" report reads them: unreadable ones fall back to
 * the month so far) and `proveedor` (anything unknown is every provider) from the address.
 */
export function paymentFiltersFrom(params: URLSearchParams, now = new Date()): PaymentFilters {
  return { ...salesFiltersFrom(params, now), provider: providerFilter.parse(params.get('proveedor')) }
}

/** Why the range cannot be listed (reversed or too long, as for "Ventas"), or null. */
export const paymentRangeMessage = (filters: PaymentFilters) => salesRangeMessage(filters)

/** The address's query for these filters (the default provider left out). */
export function paymentFiltersQuery(filters: PaymentFilters): URLSearchParams {
  const query = new URLSearchParams({ desde: filters.from, hasta: filters.to })
  if (filters.provider !== 'todos') query.set('proveedor', filters.provider)
  return query
}

/** Our payment status words (`PaymentStatus`) as the page says them; others are shown as they come. */
export const PAYMENT_STATUS_LABELS: Record<string, string> = {
  approved: 'Aprobado',
  authorized: 'Autorizado',
  in_process: 'En proceso',
  pending: 'Pendiente',
  rejected: 'Rechazado',
  cancelled: 'Anulado',
  refunded: 'Reembolsado',
  charged_back: 'Contracargo',
  in_mediation: 'En disputa',
}
export const paymentStatusLabel = (status: string) => PAYMENT_STATUS_LABELS[status] ?? status

/** The providers' words for how a payment was made (Wompi's in capitals, Mercado Pago's in snake case). */
const METHOD_LABELS: Record<string, string> = {
  CARD: 'Tarjeta',
  PSE: 'PSE',
  NEQUI: 'Nequi',
  BANCOLOMBIA_TRANSFER: 'Botón Bancolombia',
  BANCOLOMBIA_QR: 'QR Bancolombia',
  BANCOLOMBIA_COLLECT: 'Corresponsal Bancolombia',
  DAVIPLATA: 'Daviplata',
  credit_card: 'Tarjeta de crédito',
  debit_card: 'Tarjeta débito',
  prepaid_card: 'Tarjeta prepago',
  account_money: 'Dinero en cuenta',
  bank_transfer: 'Transferencia bancaria',
  ticket: 'Efectivo',
  atm: 'Cajero',
  transferencia: 'Transferencia',
}
export const paymentMethodLabel = (method: string | null) =>
  method === null || method === '' ? '—' : (METHOD_LABELS[method] ?? method)

/**
 * Why a payment needs a person: a second approved payment of the same order (every one after the
 * payment the order follows), or an approved payment of a cancelled order.
 */
export type PaymentFlag = 'paid-twice' | 'paid-after-cancel'

export const PAYMENT_FLAG_MESSAGES: Record<PaymentFlag, string> = {
  'paid-twice': 'Pagado dos veces: revisa el reembolso',
  'paid-after-cancel': 'Pedido cancelado con un pago aprobado: revisa el reembolso',
}

/** The refund started from "Pagos": `requested` until the job hears from the provider. */
export const REFUND_STATUS_LABELS: Record<string, string> = {
  requested: 'Reembolso pedido',
  in_process: 'Reembolso en proceso',
  approved: 'Reembolso hecho',
  rejected: 'Reembolso rechazado',
  failed: 'Reembolso no hecho',
}
export const refundStatusLabel = (status: string) => REFUND_STATUS_LABELS[status] ?? `Reembolso: ${status}`

export const PAYMENTS_MESSAGES = {
  empty: 'No hay pagos en estas fechas.',
  refundFailed: 'No se pudo pedir el reembolso. Intenta de nuevo.',
  badRefund: 'Elige un pago de Mercado Pago o Wompi para reembolsar.',
  notFound: 'No encontramos ese pago. Recarga la página.',
  notApproved: 'Solo se reembolsa un pago aprobado.',
  notFlagged:
    'Este pago no está marcado para reembolso: es el pago del pedido. Si hay que devolverlo, hazlo desde el pedido.',
  byHand: 'Los pagos por transferencia se devuelven por transferencia, por fuera de la tienda.',
  alreadyStarted: (status: string) => `Este pago ya tiene un reembolso (${refundStatusLabel(status)}).`,
  started: (provider: string, amount: string, orderNumber: number) =>
    `Reembolso pedido a ${provider}: ${amount} del pedido #${orderNumber}. El resultado quedará en el pedido.`,
  requestedEvent: (provider: string, amount: string, paymentId: string) =>
    `Reembolso pedido a ${provider}: ${amount} (pago ${paymentId}).`,
} as const

/** "Reembolsar": which ledger row, as the page posts it. */
export const PaymentRefundSchema = z.object({
  intent: z.literal('reembolsar'),
  provider: z.enum(REFUNDABLE_PROVIDERS),
  paymentId: z.string().trim().min(1).max(200),
})
