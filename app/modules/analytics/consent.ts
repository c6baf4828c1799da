/**
 * The shopper's choice about analytics and advertising (Ley 1581 de 2012): asked on the first visit,
 * nothing is measured and no pixel loads before it, kept in a cookie readable by both the browser
 * (to decide what to load) and the server (to decide what to record or send).
 * Shared by client and server code: no imports, no secrets.
 */

/** Bump when the data policy changes what is collected: earlier choices are asked again. */
export const CONSENT_POLICY_VERSION = '2026-11-24'

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

/** The current choice from a Cookie header (or `document.cookie`); null when none or outdated. */
export function readConsent(cookieHeader: string | null | undefined): Consent | null {
  if (!cookieHeader) return null
  const raw = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONSENT_COOKIE}=`))
    ?.slice(CONSENT_COOKIE.length + 1)
  if (!raw) return null
  const fields = new Map(
    decodeURIComponent(raw)
      .split('|')
      .map((field) => [field.slice(0, field.indexOf('=')), field.slice(field.indexOf('=') + 1)]),
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
 * A browser that has signed in to the back office carries this cookie (set at sign-in, kept after
 * sign-out) so the owner's and admins' own visits are never measured or sent to Meta. The server
 * checks the admin session as well; this cookie lets the browser skip loading trackers at all.
 */
export const STAFF_DEVICE_COOKIE = 'vitrina_staff'

/** Dispatched on `window` (a CustomEvent with the new Consent as detail) when the shopper chooses. */
export const CONSENT_CHANGE_EVENT = 'vitrina:consent'
