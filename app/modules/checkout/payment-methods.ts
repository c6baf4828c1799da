import type { PaymentMethod } from '#app/modules/order/schema.ts'

/** How the checkout offers each way to pay (the desk's names are PAYMENT_METHOD_LABELS). */
export const CHECKOUT_PAYMENT_LABELS: Record<PaymentMethod, string> = {
  acordar: 'Pago contra entrega',
  mercadopago: 'Pago en línea con Mercado Pago (tarjeta, PSE)',
  wompi: 'PSE, Nequi, Botón Bancolombia o tarjeta con Wompi',
  transferencia: 'Transferencia o Bre-B (te mostramos la llave al confirmar)',
}
