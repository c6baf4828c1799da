/** The order desk's invoice texts and its button's intent (shared by the page and the server). */

/** The "Emitir factura" button's intent. */
export const ISSUE_INVOICE_INTENT = 'factura-emitir'

export const INVOICE_DESK_MESSAGES = {
  queued: 'Factura en proceso: aparecerá aquí en unos segundos.',
  requested: 'Factura electrónica pedida desde el pedido.',
  alreadyIssued: 'El pedido ya tiene su factura electrónica.',
  cancelled: 'Un pedido cancelado no se factura.',
  notFound: 'Pedido no encontrado.',
  noFile: 'Ese pedido no tiene una factura electrónica emitida.',
  noDownload: 'La facturación no está configurada: el archivo no se puede descargar.',
  downloadFailed: (reason: string) => `No se pudo descargar el archivo de la factura: ${reason}`,
} as const
