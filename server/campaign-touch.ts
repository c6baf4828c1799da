import type express from 'express'
import { campaignCookieFor } from '#app/modules/analytics/campaign.ts'
import { isAdminPath, readConsent } from '#app/modules/analytics/consent.ts'
import { appRequestUrl } from './security.ts'

/** Addresses that are no storefront page: files (`.xml`, `.data`, assets), the API, sign-in. */
const NOT_A_PAGE = /^\/(?:api|media|assets|login-admin|logout|dev-idp)(?:\/|$)|\.[a-z0-9]+$/i

/** A page the browser opens as a document (a link followed, an address typed), not a fetch. */
function opensAPage(req: express.Request): boolean {
  const destination = req.get('Sec-Fetch-Dest')
  return destination ? destination === 'document' : (req.get('Accept') ?? '').includes('text/html')
}

/**
 * The first storefront page a shopper who allows analytics opens in a browsing session keeps where
 * they came from (`analytics/campaign.ts`), for the order they may place. Here, before the page
 * cache, because a cached page is the same for everyone and never reaches the routes.
 */
export function rememberCampaignTouch(publicUrl: string): express.RequestHandler {
  return (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && !NOT_A_PAGE.test(req.path) && opensAPage(req)) {
      const url = appRequestUrl(req)
      if (url && !isAdminPath(url.pathname)) {
        const cookie = campaignCookieFor(
          {
            allowsAnalytics: readConsent(req.headers.cookie)?.analytics === true,
            cookieHeader: req.headers.cookie,
            landing: url,
            referrer: req.get('Referer'),
          },
          publicUrl.startsWith('https:'),
        )
        if (cookie) res.append('Set-Cookie', cookie)
      }
    }
    next()
  }
}
