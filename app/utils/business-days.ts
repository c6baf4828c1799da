import { getHolidaysForYear } from 'colombian-holidays'

/**
 * Colombian business days ("días hábiles"): Monday to Friday except the national holidays, as Ley 51
 * de 1983 moves them (to Monday) and Easter places them — from the `colombian-holidays` package, not
 * a list of ours. Days are Bogotá calendar days (YYYY-MM-DD, `bogotaDay`).
 */

const holidaysByYear = new Map<number, ReadonlySet<string>>()

function holidaysOf(year: number): ReadonlySet<string> {
  let holidays = holidaysByYear.get(year)
  if (!holidays) {
    holidays = new Set(getHolidaysForYear(year).map((holiday) => holiday.celebrationDate))
    holidaysByYear.set(year, holidays)
  }
  return holidays
}

const DAY_MS = 24 * 60 * 60 * 1000
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)

/** Whether a Bogotá day is a business day: not a Saturday, a Sunday or a national holiday. */
export function isBusinessDay(day: string): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay()
  return weekday !== 0 && weekday !== 6 && !holidaysOf(Number(day.slice(0, 4))).has(day)
}

/** The `count`-th business day after `day` (the day itself never counts): a legal term's last day. */
export function addBusinessDays(day: string, count: number): string {
  let current = day
  for (let left = count; left > 0;) {
    current = nextDay(current)
    if (isBusinessDay(current)) left -= 1
  }
  return current
}

/** How many business days come after `from` up to and including `to` (0 when `to` is not later). */
export function businessDaysAfter(from: string, to: string): number {
  let count = 0
  for (let current = nextDay(from); current <= to; current = nextDay(current)) {
    if (isBusinessDay(current)) count += 1
  }
  return count
}
