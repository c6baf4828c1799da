/**
 * Storage locations (spec §3, §9): P(asillo)-C-A-E-X-Y-Z, each letter followed by its number, e.g.
 * "P1-C1-A1-E1-X1-Y1-Z1", which is also where an entry goes unless the admin types another.
 */
export const DEFAULT_LOCATION = 'P1-C1-A1-E1-X1-Y1-Z1'

const LOCATION_CODE = /^P\d+-C\d+-A\d+-E\d+-X\d+-Y\d+-Z\d+$/

/** A typed code as stored: without surrounding spaces, letters in upper case ("p1-c2…" is P1-C2…). */
export function normalizeLocationCode(input: string): string {
  return input.trim().toUpperCase()
}

/** Whether an already normalized code follows the format. */
export function isLocationCode(code: string): boolean {
  return LOCATION_CODE.test(code)
}
