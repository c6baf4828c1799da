import { describe, expect, test } from 'vitest'
import {
  CAMPAIGN_COOKIE,
  CAMPAIGN_FIELD_MAX_LENGTH,
  campaignCookieFor,
  campaignOfOrder,
  campaignTouchOf,
  readCampaignTouch,
  serializeCampaignTouch,
} from './campaign.ts'
import { CONSENT_COOKIE, CONSENT_POLICY_VERSION, serializeConsent } from './consent.ts'

const shop = (path: string) => new URL(path, 'https://tienda.example.co')
const consentCookie = (analytics: boolean) =>
  `${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent({ analytics, advertising: false, version: CONSENT_POLICY_VERSION }))}`
/** The value a Set-Cookie header gives the campaign cookie, as the next request sends it. */
const sentBack = (setCookie: string) => setCookie.split(';')[0]!

describe('the touch of a landing page', () => {
  test('the link’s utm fields and the referring site’s host', () => {
    expect(
      campaignTouchOf(
        shop('/producto/X?utm_source=Instagram&utm_medium=Social&utm_campaign=Navidad 2026'),
        'https://l.instagram.com/?u=https%3A%2F%2Ftienda.example.co',
      ),
    ).toEqual({
      source: 'instagram',
      medium: 'social',
      campaign: 'Navidad 2026',
      referrerHost: 'l.instagram.com',
    })
  })

  test('a link inside the shop (any www) or a non-web referrer is no touch: a direct visit', () => {
    const direct = { source: null, medium: null, campaign: null, referrerHost: null }
    expect(campaignTouchOf(shop('/'), 'https://www.tienda.example.co/categoria/1')).toEqual(direct)
    expect(campaignTouchOf(shop('/'), 'android-app://com.instagram.android')).toEqual(direct)
    expect(campaignTouchOf(shop('/'), 'no es una dirección')).toEqual(direct)
    expect(campaignTouchOf(shop('/'), undefined)).toEqual(direct)
  })

  test('values are trimmed, stripped of control characters and cut to the kept length', () => {
    const long = 'x'.repeat(500)
    const touch = campaignTouchOf(
      shop(`/?utm_source=%20fb%0A%00&utm_campaign=${long}&utm_medium=%20%20`),
      null,
    )
    expect(touch.source).toBe('fb')
    expect(touch.medium).toBeNull()
    expect(touch.campaign).toHaveLength(CAMPAIGN_FIELD_MAX_LENGTH)
  })
})

describe('the session cookie', () => {
  test('round trip, with separators and accents in the values', () => {
    const touch = {
      source: 'google',
      medium: 'cpc',
      campaign: 'Día de la madre | 20% & más',
      referrerHost: 'google.com',
    }
    const header = `${CAMPAIGN_COOKIE}=${encodeURIComponent(serializeCampaignTouch(touch))}`
    expect(readCampaignTouch(header)).toEqual(touch)
  })

  test('a direct visit is kept too (the first touch of the session was direct)', () => {
    const direct = { source: null, medium: null, campaign: null, referrerHost: null }
    expect(serializeCampaignTouch(direct)).toBe('directo')
    expect(readCampaignTouch(`${CAMPAIGN_COOKIE}=directo`)).toEqual(direct)
  })

  test('an unreadable or foreign cookie is no touch', () => {
    expect(readCampaignTouch(`${CAMPAIGN_COOKIE}=%E0`)).toBeNull()
    expect(readCampaignTouch(`${CAMPAIGN_COOKIE}=${encodeURIComponent('x=1&s=a')}`)).toBeNull()
    expect(readCampaignTouch('otra=1')).toBeNull()
  })
})

describe('when the touch is kept, and when it is forgotten', () => {
  const landing = shop('/?utm_source=whatsapp')

  test('the first page with analytics allowed keeps it, as a session cookie the scripts cannot read', () => {
    const header = campaignCookieFor(
      { allowsAnalytics: true, cookieHeader: consentCookie(true), landing, referrer: null },
      true,
    )!
    expect(header).toMatch(
      new RegExp(`^${CAMPAIGN_COOKIE}=s%3Dwhatsapp; Path=/; HttpOnly; SameSite=Lax; Secure$`),
    )
    expect(header).not.toMatch(/Max-Age|Expires/)
  })

  test('a later page of the session does not replace the first touch', () => {
    const kept = `${consentCookie(true)}; ${CAMPAIGN_COOKIE}=directo`
    expect(
      campaignCookieFor({ allowsAnalytics: true, cookieHeader: kept, landing, referrer: null }, false),
    ).toBeNull()
  })

  test('without analytics nothing is kept, and a kept touch is forgotten', () => {
    expect(
      campaignCookieFor({ allowsAnalytics: false, cookieHeader: '', landing, referrer: null }, false),
    ).toBeNull()
    const kept = `${consentCookie(false)}; ${CAMPAIGN_COOKIE}=s%3Dwhatsapp`
    expect(
      campaignCookieFor({ allowsAnalytics: false, cookieHeader: kept, landing, referrer: null }, false),
    ).toMatch(/^vitrina_campana=; Path=\/; Max-Age=0/)
  })

  test('an order keeps the touch only while the shopper allows analytics', () => {
    const set = campaignCookieFor(
      { allowsAnalytics: true, cookieHeader: '', landing, referrer: null },
      false,
    )!
    expect(campaignOfOrder(`${consentCookie(true)}; ${sentBack(set)}`)).toEqual({
      source: 'whatsapp',
      medium: null,
      campaign: null,
      referrerHost: null,
    })
    expect(campaignOfOrder(`${consentCookie(false)}; ${sentBack(set)}`)).toBeNull()
    expect(campaignOfOrder(sentBack(set))).toBeNull()
    // Allowed, but no touch was kept (e.g. the cookie was cleared): unknown, not direct.
    expect(campaignOfOrder(consentCookie(true))).toBeNull()
  })
})
