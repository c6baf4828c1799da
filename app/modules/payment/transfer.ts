import { bogotaDay, bogotaStamp } from '#app/utils/bogota-days.ts'
import { spanishDay } from '#app/utils/spanish-dates.ts'

/**
 * Transfer and Bre-B payments as the buyer and the desk read them: the texts and the receipt's
 * rules, shared by the pages (browser) and the module that checks and stores receipts (server).
 */

/** The form's `intent` for a receipt upload (the success page and the buyer's page). */
export const UPLOAD_RECEIPT_INTENT = 'comprobante'
/** The receipt's file field. */
export const RECEIPT_FIELD = 'comprobante'

/** A phone's screenshot or a bank's PDF fits; a bigger file is rarely a receipt. */
export const MAX_RECEIPT_BYTES = 5 * 1024 * 1024

/** What the file picker offers (the server checks the bytes, never this). */
export const RECEIPT_ACCEPT = 'image/jpeg,image/png,image/webp,application/pdf'

export const TRANSFER_MESSAGES = {
  heading: 'Paga por transferencia o Bre-B',
  reference: (number: number) => `Referencia: pedido #${number}`,
  deadline: (deadline: string) =>
    `Tienes hasta el ${deadline} para pagar; después el pedido se cancela y sus productos vuelven a la tienda.`,
  noDestination:
    'Escríbenos por WhatsApp y te diremos a qué cuenta transferir; después sube aquí tu comprobante.',
  uploadHint:
    'Sube una foto o captura del comprobante (JPG, PNG o WebP) o el PDF de tu banco, de hasta 5 MB.',
  received:
    'Recibimos tu comprobante: tu pedido sigue reservado mientras confirmamos el pago, aunque pase el plazo.',
  receiptEventMessage: 'Comprobante de pago recibido.',
  confirmedEventMessage: 'Transferencia recibida: marcado como pagado.',
  noFile: 'Elige el archivo de tu comprobante de pago.',
  empty: 'El archivo del comprobante está vacío.',
  tooLarge:
    'El comprobante supera el tamaño máximo de 5 MB. Sube una captura de pantalla o un PDF más liviano.',
  notReceipt: 'El comprobante debe ser una imagen JPG, PNG o WebP, o un PDF.',
  orderNotFound: 'Pedido no encontrado.',
  notTransfer: 'Este pedido no se paga por transferencia.',
  notPending: 'Este pedido ya no espera un pago: no hace falta subir un comprobante.',
  unexpected: 'No se pudo guardar tu comprobante. Intenta nuevamente.',
  noReceipt: 'Este pedido no tiene comprobante de pago.',
} as const

/** "28 de noviembre de 2026 a las 18:05" (Bogotá time), the same on the server and the browser. */
export function transferDeadlineText(deadline: string | Date): string {
  const at = new Date(deadline)
  return `${spanishDay(bogotaDay(at))} a las ${bogotaStamp(at).slice(11)}`
}
