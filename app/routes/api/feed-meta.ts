import { catalogFeedXml, feedShopOf } from '#app/modules/feeds/feeds.server.ts'
import { FEED_CONTENT_TYPE } from '#app/modules/feeds/feeds.ts'
import { SHARED_CACHE_CONTROL } from '#app/modules/page-cache/page-cache.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/feed-meta'

/**
 * /catalogo/meta.xml: the retail catalogue for Meta's catalogs (Facebook and Instagram shops, the
 * WhatsApp catalogue), fetched on a schedule. Reads no input; cached like a storefront page.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  const xml = await catalogFeedXml({ reads, shop: feedShopOf(env) }, 'meta')
  return new Response(xml, {
    headers: { 'Content-Type': FEED_CONTENT_TYPE, 'Cache-Control': SHARED_CACHE_CONTROL },
  })
}
