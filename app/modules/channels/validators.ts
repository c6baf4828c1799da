import { z } from 'zod'

/** The channels the page knows, in the order it shows them (the job queue's STOCK_CHANNELS). */
export const CHANNEL_IDS = ['mercadolibre', 'shopify'] as const
export const SYNC_STATUS_IDS = ['ok', 'failed', 'not-listed', 'skipped'] as const

export const SYNC_STATUS_LABELS: Record<(typeof SYNC_STATUS_IDS)[number], string> = {
  ok: 'Sincronizado',
  failed: 'Falló',
  'not-listed': 'Sin publicación',
  skipped: 'Omitido',
}

export const CHANNEL_MESSAGES = {
  retryQueued: (channel: string, sku: string) => `Sincronización de ${sku} con ${channel} en cola.`,
  notConfigured: (channel: string) => `${channel} no está configurado: no hay nada que sincronizar.`,
  unknownProduct: (sku: string) => `No existe un producto con el SKU ${sku}.`,
  badRequest: 'La solicitud no es válida. Recarga la página e inténtalo de nuevo.',
  unexpected: 'No se pudo completar la acción. Inténtalo de nuevo.',
  channelUnreachable: (channel: string, reason: string) => `No se pudo leer ${channel}: ${reason}`,
  noDifferences: (count: number) =>
    `Sin diferencias: los ${count} SKU revisados tienen en el canal las mismas unidades disponibles que en la tienda.`,
  differencesFound: (differences: number, count: number) =>
    `${differences} de ${count} SKU revisados tienen otra cantidad en el canal.`,
  nothingToCheck: 'Todavía no hay SKU sincronizados con este canal para revisar.',
} as const

const SKU_MAX = 64

/** The page's query string; anything unreadable falls back to the first channel, all results, page 1. */
export const ChannelsQuerySchema = z.object({
  canal: z.enum(CHANNEL_IDS).catch('mercadolibre'),
  sku: z
    .string()
    .trim()
    .max(SKU_MAX)
    .transform((value) => value.toUpperCase())
    .catch(''),
  estado: z.enum([...SYNC_STATUS_IDS, 'todos']).catch('todos'),
})

export const ChannelActionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('reintentar'),
    canal: z.enum(CHANNEL_IDS),
    sku: z.string().trim().min(1).max(SKU_MAX),
  }),
  z.object({ intent: z.literal('diferencias'), canal: z.enum(CHANNEL_IDS) }),
])
