/**
 * The shopper's choice about analytics and advertising (Ley 1581 de 2012): asked on the first visit,
 * nothing is measured and no pixel loads before it, kept in a cookie readable by both the browser
 * (to decide what to load) and the server (to decide what to record or send).
 * Shared by client and server code: no secrets.
 */
import { cookieValue } from '#app/utils/cookies.ts'

/** Bump when the data policy changes what is collected: earlier choices are asked again. */
export const CONSENT_POLICY_VERSION = '2026-11-28'

export const CONSENT_COOKIE = 'vitrina_consent'

/** A year: long enough not to nag, short enough to ask again now and then. */
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60

export type Consent = {
  analytics: boolean
  advertising: boolean
  /** The CONSENT_POLICY_VERSION the shopper answered. */
  version: string
  /** Random id of the choice in the server's consent log, so a later change links to it. */
  id?: string
}

/**
 * `v=<version>|a=<0|1>|m=<0|1>` (and `|i=<id>` when logged): a = analytics, m = marketing
 * (advertising), i = the consent log's id.
 */
export function serializeConsent(consent: Consent): string {
  const fields = `v=${consent.version}|a=${consent.analytics ? 1 : 0}|m=${consent.advertising ? 1 : 0}`
  return consent.id ? `${fields}|i=${consent.id}` : fields
}

/** The current choice from a Cookie header (or `document.cookie`); null when none, outdated or unreadable. */
export function readConsent(cookieHeader: string | null | undefined): Consent | null {
  const raw = cookieValue(cookieHeader, CONSENT_COOKIE)
  if (!raw) return null
  const fields = new Map(
    raw.split('|').map((field) => [field.slice(0, field.indexOf('=')), field.slice(field.indexOf('=') + 1)]),
  )
  const version = fields.get('v')
  const analytics = fields.get('a')
  const advertising = fields.get('m')
  if (version !== CONSENT_POLICY_VERSION) return null
  if (!['0', '1'].includes(analytics ?? '') || !['0', '1'].includes(advertising ?? '')) return null
  const id = fields.get('i')
  return {
    version,
    analytics: analytics === '1',
    advertising: advertising === '1',
    ...(id && /^[\w-]{1,64}$/.test(id) ? { id } : {}),
  }
}

/**
 * The banner's form id (its server-drawn HTML, the banner script and app.css find it by it; the
 * footer's "Preferencias de privacidad" opens it).
 */
export const CONSENT_FORM_ID = 'consentimiento'

/** Dispatched on `window` (a CustomEvent with the new Consent as detail) when the shopper chooses. */
export const CONSENT_CHANGE_EVENT = 'vitrina:consent'

/** Whether the shopper's current choice (Cookie header or `document.cookie`) accepts advertising. */
export function allowsAdvertising(cookieHeader: string | null | undefined): boolean {
  return readConsent(cookieHeader)?.advertising === true
}

/**
 * Spec §5: routes starting with /admin are never counted, and the back office is never a place to
 * send a shopper back to. The one rule for every such check (tracker, banner script, beacons, the
 * consent form's return path): case-insensitive, as the router matches `/ADMIN/x` to the back
 * office too, and percent-decoded (`/%61dmin`).
 */
export function isAdminPath(path: string): boolean {
  let text = path.trim()
  try {
    text = decodeURIComponent(text)
  } catch {
    // Not decodable: judged as written.
  }
  return /^\/*admin(?:[/?#\\]|$)/i.test(text)
}
