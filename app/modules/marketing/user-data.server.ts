import { createHash } from 'node:crypto'

/**
 * Meta's customer information parameters (integrations.md): contact details are normalised, then
 * sent as SHA-256 hex; the browser identifiers (IP, user agent, _fbp, _fbc) go as they are.
 *
 * Accents: Meta asks for lower-case text "encoded in UTF-8" when it has special characters, so
 * names, cities and departments keep their letters (é, ñ, ü) in Unicode NFC form and only lose
 * spaces, punctuation and symbols: "José Ñúñez" → "joséñúñez", "Bogotá D.C." → "bogotádc".
 */

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex')
}

/** `em`: trimmed and lower-cased; null when it is not an address. */
export function normalizeEmail(value: string | null | undefined): string | null {
  const email = (value ?? '').trim().toLowerCase()
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null
}

/**
 * `ph`: digits only, with the country code. A 10-digit Colombian number (mobile 3…, landline 60…)
 * gets 57 in front; one already written with 57 (or +57, 0057) keeps it. Leading zeros go.
 */
export function normalizePhone(value: string | null | undefined): string | null {
  const digits = (value ?? '').replace(/\D/g, '').replace(/^0+/, '')
  if (digits.length === 10 && /^(3|60)/.test(digits)) return `57${digits}`
  if (digits.length < 7 || digits.length > 15) return null
  return digits
}

/** `fn`, `ln`, `ct`, `st`: lower case, letters and digits only (accents kept, UTF-8 NFC). */
export function normalizeName(value: string | null | undefined): string | null {
  const text = (value ?? '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '')
  return text || null
}

/** `zp`: lower case, no spaces or dashes. */
export function normalizeZip(value: string | null | undefined): string | null {
  const zip = (value ?? '').toLowerCase().replace(/[^a-z0-9]/g, '')
  return zip || null
}

/** Contact details of a customer, as the order keeps them. */
export type CustomerDetails = {
  email?: string | null
  phone?: string | null
  firstName?: string | null
  lastName?: string | null
  city?: string | null
  department?: string | null
  zip?: string | null
  /** Our own stable id for the person (hashed too). */
  externalId?: string | null
}

/** What the browser sent with the request: never hashed (Meta's rules). */
export type BrowserIdentifiers = {
  clientIpAddress?: string | null
  clientUserAgent?: string | null
  fbp?: string | null
  fbc?: string | null
}

/** `user_data` of one server event, as the Graph API takes it. */
export type MetaUserData = {
  em?: string[]
  ph?: string[]
  fn?: string[]
  ln?: string[]
  ct?: string[]
  st?: string[]
  zp?: string[]
  country?: string[]
  external_id?: string[]
  client_ip_address?: string
  client_user_agent?: string
  fbp?: string
  fbc?: string
}

/** The shop sells in Colombia only: every event's country. */
export const COUNTRY = 'co'

/** Normalises and hashes the customer's details and adds the browser's identifiers untouched. */
export function metaUserData(customer: CustomerDetails, browser: BrowserIdentifiers = {}): MetaUserData {
  const hashed = (value: string | null) => (value ? [sha256Hex(value)] : undefined)
  const userData: MetaUserData = {
    em: hashed(normalizeEmail(customer.email)),
    ph: hashed(normalizePhone(customer.phone)),
    fn: hashed(normalizeName(customer.firstName)),
    ln: hashed(normalizeName(customer.lastName)),
    ct: hashed(normalizeName(customer.city)),
    st: hashed(normalizeName(customer.department)),
    zp: hashed(normalizeZip(customer.zip)),
    country: hashed(COUNTRY),
    external_id: hashed(customer.externalId?.trim() || null),
    client_ip_address: browser.clientIpAddress || undefined,
    client_user_agent: browser.clientUserAgent || undefined,
    fbp: browser.fbp || undefined,
    fbc: browser.fbc || undefined,
  }
  return Object.fromEntries(
    Object.entries(userData).filter(([, value]) => value !== undefined),
  ) as MetaUserData
}
