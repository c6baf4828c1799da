import type { OnlinePaymentMethod } from '#app/modules/order/schema.ts'
import { centavosToWholePesos } from '#app/utils/money.ts'

/**
 * What the checkout needs from an online payment provider: Mercado Pago and Wompi implement it, and
 * so do their local simulations (no keys configured).
 */

export const PAYMENT_STATUSES = [
  'approved',
  'authorized',
  'in_process',
  'pending',
  'rejected',
  'cancelled',
  'refunded',
  'charged_back',
  'in_mediation',
] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

export type PreferenceInput = {
  orderId: string
  orderNumber: number
  items: { sku: string; title: string; quantity: number; unitPrice: number; pictureUrl?: string }[]
  /** Centavos; sent as its own line when not zero. */
  shippingCost: number
  payer: {
    name: string
    surname: string
    email: string
    phone: string
    identification: string
    /** CC, CE, NIT, PP or TI (the checkout's "Tipo de documento"); null when none was given. */
    identificationType?: string | null
  }
  backUrls: { success: string; pending: string; failure: string }
  /** Where a provider with one way back (Wompi) returns the shopper, to be told how it went. */
  returnUrl: string
  notificationUrl: string
  /** After this the link no longer takes payments (the order expires and frees its units). */
  expiresAt?: Date
}

export type Preference = { id: string; initPoint: string }

/** A refund the provider made (or found already made for the same idempotency key). */
export type Refund = {
  id: string
  /** The provider's word for it: Mercado Pago answers approved, in_process or rejected. */
  status: string
  /** Centavos. */
  amount: number
}

export type Payment = {
  id: string
  status: PaymentStatus | string
  externalReference: string | null
  /** Centavos. */
  amount: number
  /** The provider's word for how it was paid (CARD, PSE, NEQUI, credit_card, account_money…). */
  method?: string | null
  /** Centavos the provider kept, where it reports it. */
  fee?: number | null
}

/** `network`: no answer; `rejected`: the provider said no; `invalid-response`: no usable link. */
export class PaymentProviderError extends Error {
  constructor(
    readonly kind: 'network' | 'rejected' | 'invalid-response',
    message: string,
    readonly status?: number,
  ) {
    super(message)
  }
}

export interface PaymentProvider {
  readonly name: 'mercadopago' | 'wompi' | 'simulado' | 'wompi-simulado' | 'ninguno'
  /** How the order's timeline names it: "Pago iniciado en {label}", "Reembolso hecho en {label}". */
  readonly label: string
  createPreference(input: PreferenceInput): Promise<Preference>
  getPayment(id: string): Promise<Payment>
  /** Every payment made for one order (its external_reference), newest first. */
  searchPayments(externalReference: string): Promise<Payment[]>
  /**
   * Refunds the whole payment. The same idempotency key again gives the same refund, never a second
   * one; a payment the provider cannot refund (not approved, already refunded, too old) is
   * `rejected`.
   */
  refundPayment(paymentId: string, idempotencyKey: string): Promise<Refund>
}

/**
 * A shop without online payments (no Mercado Pago, simulator not allowed): nothing can be paid, and
 * the unpaid-order check finds no payment.
 */
export const noOnlinePayments: PaymentProvider = {
  name: 'ninguno',
  label: 'el proveedor de pagos',
  async createPreference() {
    throw new PaymentProviderError('rejected', 'Esta tienda no recibe pagos en línea.')
  },
  async getPayment(id) {
    return { id, status: 'not_found', externalReference: null, amount: 0 }
  },
  async searchPayments() {
    return []
  },
  async refundPayment() {
    throw new PaymentProviderError(
      'rejected',
      'Esta tienda no recibe pagos en línea: no hay pago que reembolsar.',
    )
  },
}

/** Each online method's provider: the configured one, its simulation, or `noOnlinePayments`. */
export type PaymentProviders = Record<OnlinePaymentMethod, PaymentProvider>

/**
 * The amount an online payment charges: whole pesos per line, as Mercado Pago's preference sends
 * them; Wompi's checkout charges the same, so both settle against one figure.
 */
export function chargedAmount(order: {
  items: readonly { unitPrice: number; quantity: number }[]
  shippingCost: number
}): number {
  const pesos =
    order.items.reduce((sum, item) => sum + centavosToWholePesos(item.unitPrice) * item.quantity, 0) +
    centavosToWholePesos(order.shippingCost)
  return pesos * 100
}
