/**
 * The outside sales channels whose stock mirrors the shop's available units (spec §7), with the
 * names the owner knows them by. Jobs sit below the modules, so the list lives here and the
 * channels module, the queue and the dead-letter list all read it. No server imports: the admin
 * page's validators use it in the browser too.
 */
export const STOCK_CHANNELS = ['mercadolibre', 'shopify'] as const
export type StockChannel = (typeof STOCK_CHANNELS)[number]

export const STOCK_CHANNEL_NAMES: Record<StockChannel, string> = {
  mercadolibre: 'MercadoLibre',
  shopify: 'Shopify',
}

export const isStockChannel = (value: unknown): value is StockChannel =>
  (STOCK_CHANNELS as readonly unknown[]).includes(value)

/** The singleton key that makes stock-sync jobs of one channel and SKU coalesce. */
export const stockSyncKey = (channel: StockChannel, sku: string) => `${channel}:${sku}`
