import { hasNul } from '#app/utils/text.ts'
import { z } from 'zod'
import { STOCK_CHANNELS } from '#app/jobs/stock-channels.ts'

/** What the last stock push of a SKU to a channel came to, in the order the page shows them. */
export const SYNC_STATUSES = ['ok', 'failed', 'not-listed', 'skipped'] as const
export type SyncStatus = (typeof SYNC_STATUSES)[number]

export const SYNC_STATUS_LABELS: Record<SyncStatus, string> = {
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
  nothingToCheck: 'No hay productos en la tienda para revisar.',
  nothingComparable: (count: number) =>
    `Ninguno de los ${count} productos revisados tiene en el canal una cantidad para comparar.`,
  syncAllQueued: (channel: string, count: number) =>
    count === 1
      ? `Sincronización de 1 producto con ${channel} en cola.`
      : `Sincronización de ${count.toLocaleString('es-CO')} productos con ${channel} en cola.`,
  noProductsToSync: 'No hay productos en la tienda para sincronizar.',
} as const

const SKU_MAX = 64

/** The page's query string; anything unreadable falls back to the first channel, all results, page 1. */
export const ChannelsQuerySchema = z.object({
  canal: z.enum(STOCK_CHANNELS).catch('mercadolibre'),
  sku: z
    .string()
    .trim()
    .max(SKU_MAX)
    // PostgreSQL refuses a NUL in any text: such a search is no search.
    .refine((value) => !hasNul(value))
    .transform((value) => value.toUpperCase())
    .catch(''),
  estado: z.enum([...SYNC_STATUSES, 'todos']).catch('todos'),
})

export const ChannelActionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('reintentar'),
    canal: z.enum(STOCK_CHANNELS),
    sku: z.string().trim().min(1).max(SKU_MAX),
  }),
  z.object({
    intent: z.literal('diferencias'),
    canal: z.enum(STOCK_CHANNELS),
    /** "Revisar siguientes": the last SKU of the batch already checked (products go by SKU). */
    desde: z.string().trim().max(SKU_MAX).default(''),
  }),
  z.object({ intent: z.literal('sincronizar-todo'), canal: z.enum(STOCK_CHANNELS) }),
])
