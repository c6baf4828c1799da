/**
 * Campaign attribution (issue 27): where a shopper came from — the link's `utm_source`,
 * `utm_medium` and `utm_campaign`, and the site that sent them (the referrer's host) — taken from
 * the first page of their browsing session and kept with the order they place, so "Ventas" can split
 * revenue by it. Only with the shopper's analytics consent (Ley 1581): without it nothing is read or
 * kept. The touch travels in a session cookie (gone when the browser closes), set by the server.
 */
import { cookieValue } from '#app/utils/cookies.ts'
import { readConsent } from './consent.ts'

export const CAMPAIGN_COOKIE = 'vitrina_campana'

/** Longest value kept of each field: a campaign name is a label, not a document. */
export const CAMPAIGN_FIELD_MAX_LENGTH = 80

/** The first touch of a session. Every field null: a direct visit (typed, bookmarked, an app). */
export type CampaignTouch = {
  source: string | null
  medium: string | null
  campaign: string | null
  /** The host of the site that linked to the shop (`l.instagram.com`), never its path. */
  referrerHost: string | null
}

const DIRECT: CampaignTouch = { source: null, medium: null, campaign: null, referrerHost: null }

/** Trimmed, without control characters, cut to the kept length; null when nothing is left. */
function cleanField(value: string | null | undefined, { lowerCase = false } = {}): string | null {
  if (!value) return null
  const cleaned = value
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, CAMPAIGN_FIELD_MAX_LENGTH)
    .trim()
  if (!cleaned) return null
  // Source and medium group the report: "Instagram" and "instagram" are one source.
  return lowerCase ? cleaned.toLowerCase() : cleaned
}

/** The referrer's host when it is another site (a link inside the shop is no touch). */
function externalHost(referrer: string | null | undefined, shopHost: string): string | null {
  if (!referrer) return null
  let url: URL
  try {
    url = new URL(referrer)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const host = url.hostname.toLowerCase().replace(/^www\./, '')
  if (!host || host === shopHost.toLowerCase().replace(/^www\./, '')) return null
  return cleanField(host)
}

/** The touch of a landing page's address and its referrer (`document.referrer`, the Referer header). */
export function campaignTouchOf(landing: URL, referrer: string | null | undefined): CampaignTouch {
  const query = landing.searchParams
  return {
    source: cleanField(query.get('utm_source'), { lowerCase: true }),
    medium: cleanField(query.get('utm_medium'), { lowerCase: true }),
    campaign: cleanField(query.get('utm_campaign')),
    referrerHost: externalHost(referrer, landing.hostname),
  }
}

const FIELD_KEYS = { source: 's', medium: 'm', campaign: 'c', referrerHost: 'r' } as const

export function serializeCampaignTouch(touch: CampaignTouch): string {
  const params = new URLSearchParams()
  for (const [field, key] of Object.entries(FIELD_KEYS)) {
    const value = touch[field as keyof CampaignTouch]
    if (value) params.set(key, value)
  }
  // A direct visit is still a recorded first touch: the cookie is never empty.
  return params.size ? params.toString() : 'directo'
}

/** The session's touch from a Cookie header; null when none was kept (or it is unreadable). */
export function readCampaignTouch(cookieHeader: string | null | undefined): CampaignTouch | null {
  const raw = cookieValue(cookieHeader, CAMPAIGN_COOKIE)
  if (!raw) return null
  if (raw === 'directo') return DIRECT
  const params = new URLSearchParams(raw)
  if (![...params.keys()].every((key) => Object.values(FIELD_KEYS).includes(key as never))) return null
  return {
    source: cleanField(params.get(FIELD_KEYS.source), { lowerCase: true }),
    medium: cleanField(params.get(FIELD_KEYS.medium), { lowerCase: true }),
    campaign: cleanField(params.get(FIELD_KEYS.campaign)),
    referrerHost: cleanField(params.get(FIELD_KEYS.referrerHost)),
  }
}

/** The session cookie (no Max-Age: it ends with the browser session); the page's scripts never read it. */
export function campaignCookieHeader(touch: CampaignTouch, secure: boolean): string {
  return [
    `${CAMPAIGN_COOKIE}=${encodeURIComponent(serializeCampaignTouch(touch))}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ')
}

export const CLEAR_CAMPAIGN_COOKIE = `${CAMPAIGN_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`

/**
 * What a page request, or a consent answer, does to the session's touch: while the shopper allows
 * analytics, the first one of the session keeps its touch (the landing page and its referrer); a
 * kept touch is forgotten once they do not allow it (any more). Null: leave the cookie as it is.
 */
export function campaignCookieFor(
  visit: {
    /** Whether the shopper allows analytics: the consent cookie's answer, or the one just given. */
    allowsAnalytics: boolean
    cookieHeader: string | null | undefined
    landing: URL
    referrer: string | null | undefined
  },
  secure: boolean,
): string | null {
  const kept = cookieValue(visit.cookieHeader, CAMPAIGN_COOKIE) !== undefined
  if (!visit.allowsAnalytics) return kept ? CLEAR_CAMPAIGN_COOKIE : null
  if (kept) return null
  return campaignCookieHeader(campaignTouchOf(visit.landing, visit.referrer), secure)
}

/** The touch an order keeps: the session's, while the shopper allows analytics; else unknown. */
export function campaignOfOrder(cookieHeader: string | null | undefined): CampaignTouch | null {
  if (readConsent(cookieHeader)?.analytics !== true) return null
  return readCampaignTouch(cookieHeader)
}
