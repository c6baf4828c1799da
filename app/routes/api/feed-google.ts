import { catalogFeedXml, feedShopOf } from '#app/modules/feeds/feeds.server.ts'
import { FEED_CONTENT_TYPE } from '#app/modules/feeds/feeds.ts'
import { SHARED_CACHE_CONTROL } from '#app/modules/page-cache/page-cache.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/feed-google'

/**
 * /catalogo/google.xml: the retail catalogue for Google Merchant Center (free listings and Shopping
 * ads), fetched on a schedule. Reads no input; cached like a storefront page.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  const xml = await catalogFeedXml({ reads, shop: feedShopOf(env) }, 'google')
  return new Response(xml, {
    headers: { 'Content-Type': FEED_CONTENT_TYPE, 'Cache-Control': SHARED_CACHE_CONTROL },
  })
}
