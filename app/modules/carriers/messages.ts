/**
 * What the desk says about guías bought through the carrier provider. Shared by the server and the
 * desk's page, so this file imports nothing server-only.
 */
export const BUY_LABEL_INTENT = 'guia-generar'
export const TRACK_SHIPMENT_INTENT = 'guia-seguimiento'

export const SHIPMENT_MESSAGES = {
  queued: 'Generando la guía con la transportadora; recarga la página en unos segundos.',
  trackQueued: 'Consultando el seguimiento con la transportadora; recarga la página en unos segundos.',
  notFound: 'Ese pedido ya no existe.',
  notConfigured:
    'Las guías con transportadora no están configuradas (ENVIA_TOKEN); marca el envío a mano con su número de guía.',
  closed: 'Un pedido cancelado o completado no lleva guía.',
  alreadyShipped: 'Este pedido ya está marcado como enviado.',
  nothingHeld: 'Este pedido no tiene unidades apartadas para enviar.',
  noMunicipality: 'Falta el municipio (DANE) del pedido: elígelo arriba y genera la guía.',
  inProgress: 'La guía de este pedido ya se está generando.',
  alreadyBought: 'Este pedido ya tiene guía.',
  noShipment: 'Este pedido no tiene guía con transportadora.',
  noLabel: 'La guía de este pedido no tiene etiqueta para imprimir.',
} as const

/** The carrier states as the desk and the buyer read them. */
export const SHIPMENT_STATUS_LABELS: Record<string, string> = {
  requested: 'Generando la guía',
  retrying: 'En espera: la transportadora no respondió',
  failed: 'No generada',
  skipped: 'Omitida',
  created: 'Guía generada',
  picked_up: 'Recogido por la transportadora',
  in_transit: 'En camino',
  out_for_delivery: 'En reparto',
  delivered: 'Entregado',
  returned: 'Devuelto al remitente',
  exception: 'Novedad en la entrega',
  cancelled: 'Guía anulada',
}
