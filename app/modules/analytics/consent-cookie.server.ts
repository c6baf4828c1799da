import { CONSENT_COOKIE, CONSENT_MAX_AGE_SECONDS, serializeConsent, type Consent } from './consent.ts'

/**
 * The consent cookie: readable by the page's script (it decides what to load), SameSite=Lax, for a
 * year; Secure when the shop is served over https.
 */
export function consentCookieHeader(consent: Consent, request: Request, publicUrl?: string): string {
  const secure = (publicUrl ?? request.url).startsWith('https:')
  return [
    `${CONSENT_COOKIE}=${encodeURIComponent(serializeConsent(consent))}`,
    'Path=/',
    `Max-Age=${CONSENT_MAX_AGE_SECONDS}`,
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ')
}
