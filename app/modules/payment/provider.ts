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
  /** `discount`: what promotions took off the whole line (centavos). */
  items: {
    sku: string
    title: string
    quantity: number
    unitPrice: number
    discount: number
    pictureUrl?: string
  }[]
  /** Centavos, before promotions; sent as its own line, net of `shippingDiscount`, when not zero. */
  shippingCost: number
  /** What promotions took off the shipping, centavos. */
  shippingDiscount: number
  /** What the order charges (`orders.total`): the lines and shipping less every discount, centavos. */
  total: number
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
 * The amount an online payment charges, in centavos: the order's total (net of its discounts) in
 * whole pesos, as Mercado Pago takes COP; Wompi's checkout charges the same, so both settle
 * against one figure, and `chargedLines` adds up to exactly it.
 */
export function chargedAmount(order: { total: number }): number {
  return centavosToWholePesos(order.total) * 100
}

/** One line of what a payment charges, in whole pesos (Mercado Pago's preference items). */
export type ChargedLine = {
  id: string
  title: string
  quantity: number
  /** Whole pesos, more than 0. */
  unitPesos: number
  pictureUrl?: string
}

/**
 * The order as lines in whole pesos adding up to exactly `chargedAmount`, none negative: a line at
 * a whole-peso price with nothing taken off goes as its units; a discounted line (or one whose
 * price has centavos) as one item of its net amount, "Collar Luna × 2"; the shipping at its net
 * cost, left out when free. The centavos rounding leaves go to the lines closest to the next peso.
 */
export function chargedLines(
  order: Pick<PreferenceInput, 'items' | 'shippingCost' | 'shippingDiscount' | 'total'>,
): ChargedLine[] {
  const exact: (ChargedLine & { index: number })[] = []
  const rounded: { line: Omit<ChargedLine, 'unitPesos'>; centavos: number; index: number }[] = []
  order.items.forEach((item, index) => {
    const picture = item.pictureUrl ? { pictureUrl: item.pictureUrl } : {}
    if (item.discount === 0 && item.unitPrice % 100 === 0) {
      const unitPesos = item.unitPrice / 100
      exact.push({ id: item.sku, title: item.title, quantity: item.quantity, unitPesos, ...picture, index })
      return
    }
    const title = item.quantity > 1 ? `${item.title} × ${item.quantity}` : item.title
    const centavos = item.unitPrice * item.quantity - item.discount
    rounded.push({ line: { id: item.sku, title, quantity: 1, ...picture }, centavos, index })
  })
  const shipping = order.shippingCost - order.shippingDiscount
  if (shipping > 0) {
    rounded.push({
      line: { id: 'envio', title: 'Envío', quantity: 1 },
      centavos: shipping,
      index: order.items.length,
    })
  }
  // What the exact lines leave, shared in whole pesos: each its floor, the pesos left by largest remainder.
  const exactPesos = exact.reduce((sum, line) => sum + line.unitPesos * line.quantity, 0)
  const pesos = rounded.map((entry) => Math.floor(entry.centavos / 100))
  let left = chargedAmount(order) / 100 - exactPesos - pesos.reduce((sum, value) => sum + value, 0)
  const byRemainder = rounded
    .map((entry, position) => ({ position, remainder: entry.centavos % 100 }))
    .sort((a, b) => b.remainder - a.remainder || a.position - b.position)
  for (const { position } of byRemainder) {
    if (left <= 0) break
    pesos[position]! += 1
    left -= 1
  }
  return [
    ...exact,
    ...rounded.map((entry, position) => ({ ...entry.line, unitPesos: pesos[position]!, index: entry.index })),
  ]
    .filter((line) => line.unitPesos > 0)
    .sort((a, b) => a.index - b.index)
    .map(({ index: _index, ...line }) => line)
}
