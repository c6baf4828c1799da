import { NO_SERVER_MESSAGE } from '#app/utils/action-answer.ts'

/** Spec §5 texts shown when an online payment cannot start. */
export const PAYMENT_MESSAGES = {
  noServer: NO_SERVER_MESSAGE,
  noPaymentUrl: 'No se pudo obtener la URL de pago.',
  paymentError: (error: string) => `Hubo un error al procesar el pago. ${error}`,
} as const

/** The payment simulator's page, when its form names no outcome it offers. */
export const SIMULATOR_MESSAGES = {
  badChoice: 'Elige si el pago se aprueba, queda pendiente o se rechaza.',
  badWompiLink:
    'El enlace de pago no es válido: su firma de integridad no corresponde al monto y la referencia.',
} as const
