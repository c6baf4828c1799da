import type { PaymentMethod } from '#app/modules/order/schema.ts'

/** How the checkout offers each way to pay (the desk's names are PAYMENT_METHOD_LABELS). */
export const CHECKOUT_PAYMENT_LABELS: Record<PaymentMethod, string> = {
  acordar: 'Pago contra entrega',
  mercadopago: 'Pago en línea con Mercado Pago (tarjeta, PSE)',
  wompi: 'PSE, Nequi, Botón Bancolombia o tarjeta con Wompi',
  transferencia: 'Transferencia o Bre-B (te mostramos a dónde pagar al confirmar)',
}

/** How the footer and the data policy name each way to pay, in a sentence. */
const IN_A_SENTENCE: Record<PaymentMethod, string> = {
  acordar: 'contra entrega',
  mercadopago: 'en línea con Mercado Pago (tarjeta, PSE)',
  wompi: 'con Wompi (PSE, Nequi, Bancolombia, tarjeta)',
  transferencia: 'por transferencia (también Bre-B)',
}

/** "contra entrega, en línea con Mercado Pago (tarjeta, PSE) o por transferencia (también Bre-B)". */
export function paymentMethodsText(methods: readonly PaymentMethod[]): string {
  const words = methods.map((method) => IN_A_SENTENCE[method])
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} o ${words.at(-1)}` : (words[0] ?? '')
}
