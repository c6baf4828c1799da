import { redirect } from 'react-router'

/**
 * How long a move to a page's canonical URL may be kept: browsers ask again every time (a slug the
 * owner changes back must not loop through an old redirect kept in someone's browser), shared
 * caches for a few seconds. The page cache never keeps it (only 200 answers are kept).
 */
export const CANONICAL_REDIRECT_CACHE_CONTROL = 'public, max-age=0, s-maxage=10'

/**
 * Product and category pages are keyed by SKU or id; the slug beside it is for people. A request
 * whose slug is missing or not the current one (an old link, a renamed product, a typo) is moved
 * for good (301) to the canonical URL, its query kept (a campaign's `utm_*`).
 */
export function redirectToCanonical(
  requested: string | undefined,
  current: string,
  canonicalPath: string,
  url: URL,
) {
  if ((requested ?? '') === current) return
  throw redirect(`${canonicalPath}${url.search}`, {
    status: 301,
    headers: { 'Cache-Control': CANONICAL_REDIRECT_CACHE_CONTROL },
  })
}
