import { z } from 'zod'
import { bogotaDay } from '#app/utils/bogota-days.ts'

/**
 * The "Ventas" report's filters and texts, shared by its page and its CSV. Which orders count
 * (SALE_RULE): an order not cancelled that is either cash on delivery or paid, on the Bogotá day it
 * was placed; Mercado Pago orders still waiting for their payment and cancelled orders are counted
 * apart.
 */
export const SALES_REPORT_MESSAGES = {
  rangeReversed: 'La fecha "Desde" no puede ser posterior a la fecha "Hasta". Corrige el filtro.',
  rangeTooLong: (days: number) =>
    `El rango de fechas no puede pasar de ${days} días. Elige un periodo más corto.`,
} as const

/** What counts as a sale, as the page says it (the SQL is `isSaleSql` in sales-report.server.ts). */
export const SALE_RULE =
  'Cuentan como ventas los pedidos no cancelados que son contra entrega o ya están pagados (pagados o completados), en el día en que se hicieron (hora de Bogotá). Los pagos en línea (Mercado Pago) aún sin confirmar no suman: se muestran aparte hasta que se paguen o venzan, igual que los pedidos cancelados. Los montos son de los productos, ya restados los descuentos de promociones y códigos (que se suman aparte); el envío cobrado, también con su descuento, se muestra aparte.'

/** Longest range the report answers (two years and a day: a leap year pair fits). */
export const SALES_MAX_RANGE_DAYS = 731
/** Up to this many days the report draws one bar per day; longer ranges are drawn by month. */
export const SALES_DAILY_CHART_MAX_DAYS = 92
/** How many best-selling products the report lists. */
export const BEST_SELLERS_LIMIT = 10

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`)
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value)
  })
  .optional()
  .catch(undefined)

export type SalesFilters = { from: string; to: string }

/**
 * `desde` and `hasta` (YYYY-MM-DD, Bogotá days, inclusive) from the address. A missing or unreadable
 * `desde` is the first day of the current month; a missing `hasta` is today: the report opens on the
 * month so far.
 */
export function salesFiltersFrom(params: URLSearchParams, now = new Date()): SalesFilters {
  const today = bogotaDay(now)
  const from = day.parse(params.get('desde') ?? undefined) ?? `${today.slice(0, 7)}-01`
  const to = day.parse(params.get('hasta') ?? undefined) ?? today
  return { from, to }
}

/** Days from `from` to `to`, both included. */
export function rangeDays({ from, to }: SalesFilters): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1
}

/** Why the range cannot be reported (reversed or too long), or null. */
export function salesRangeMessage(filters: SalesFilters): string | null {
  if (filters.from > filters.to) return SALES_REPORT_MESSAGES.rangeReversed
  if (rangeDays(filters) > SALES_MAX_RANGE_DAYS)
    return SALES_REPORT_MESSAGES.rangeTooLong(SALES_MAX_RANGE_DAYS)
  return null
}

/**
 * Where a group of orders came from (their shopper's first touch in the session). `known` false:
 * the shopper did not allow analytics, or the order is older than campaign attribution.
 */
export type SalesCampaign = {
  known: boolean
  source: string | null
  medium: string | null
  campaign: string | null
  referrerHost: string | null
}

/** How "Ventas" names a campaign row: the link's source, else the site that sent the shopper. */
export function campaignOrigin(row: SalesCampaign): string {
  if (!row.known) return 'Sin datos (no aceptó la analítica)'
  if (row.source) return row.source
  if (row.referrerHost) return `Enlace desde ${row.referrerHost}`
  return 'Directo (sin enlace de otro sitio)'
}

/** The row's medium and campaign, as one line ("social · navidad"); empty when it has neither. */
export function campaignDetail(row: SalesCampaign): string {
  const parts = [row.medium, row.campaign ? `«${row.campaign}»` : null]
  if (row.source && row.referrerHost) parts.push(`desde ${row.referrerHost}`)
  return parts.filter(Boolean).join(' · ')
}
