/** Where Mercado Pago sends the shopper back, and where it notifies us. */
export const RESULT_PATHS = {
  success: '/finalizar-pedido/success',
  pending: '/finalizar-pedido/pending',
  failure: '/finalizar-pedido/failure',
} as const

export const WEBHOOK_PATH = '/api/webhooks/mercadopago'
