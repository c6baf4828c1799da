import { spanishDay } from './spanish-dates.ts'

/**
 * Bogotá calendar days. Colombia keeps UTC−5 all year (no daylight saving since 1993), so a fixed
 * offset is exact and needs no time-zone database (PGlite and Node agree without one).
 */
export const BOGOTA_OFFSET = '-05:00'
const BOGOTA_OFFSET_MS = 5 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

/** The instants a day range covers: from the start of `from` to the end of `to`, Bogotá days. */
export function bogotaDayRange({ from, to }: { from?: string; to?: string }): {
  start?: Date
  end?: Date
} {
  const start = from ? new Date(`${from}T00:00:00${BOGOTA_OFFSET}`) : undefined
  const end = to ? new Date(new Date(`${to}T00:00:00${BOGOTA_OFFSET}`).getTime() + DAY_MS) : undefined
  return { start, end }
}

/** The Bogotá day (YYYY-MM-DD) an instant falls on. */
export function bogotaDay(at: Date): string {
  return new Date(at.getTime() - BOGOTA_OFFSET_MS).toISOString().slice(0, 10)
}

/** "2026-11-23 18:05" in Bogotá time: sortable, and what a spreadsheet reads as a date. */
export function bogotaStamp(at: Date): string {
  return new Date(at.getTime() - BOGOTA_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ')
}

/** Every day from `from` to `to` (YYYY-MM-DD, inclusive), in order. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = []
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) {
    days.push(new Date(at).toISOString().slice(0, 10))
  }
  return days
}

/** Every month (YYYY-MM) the day range touches, in order. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = []
  let [year, month] = from.slice(0, 7).split('-').map(Number) as [number, number]
  const last = to.slice(0, 7)
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`
    if (key > last) break
    months.push(key)
    month += 1
    if (month > 12) {
      month = 1
      year += 1
    }
  }
  return months
}

/** "1 de diciembre de 2026 a las 8:05 a. m.": an instant as a shopper in Colombia reads it. */
export function bogotaMoment(at: Date): string {
  const [day, time] = bogotaStamp(at).split(' ') as [string, string]
  const [hours, minutes] = time.split(':').map(Number) as [number, number]
  const hour12 = hours % 12 === 0 ? 12 : hours % 12
  return `${spanishDay(day)} ${hour12 === 1 ? 'a la' : 'a las'} ${hour12}:${String(minutes).padStart(2, '0')} ${hours < 12 ? 'a. m.' : 'p. m.'}`
}
