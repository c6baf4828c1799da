import { Form } from 'react-router'
import { BarList } from '#app/components/admin/charts.tsx'
import { inputClass, labelClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { monthOf, monthReport, monthsWithData } from '#app/modules/analytics/analytics.server.ts'
import { REPORT_ROWS, ReportQuerySchema } from '#app/modules/analytics/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { monthLabel } from '#app/utils/spanish-dates.ts'
import type { Route } from './+types/reports'

/** /admin/reportes: clicks per element, and visits and average time per page, of one month. */

export const meta: Route.MetaFunction = () => [{ title: 'Reportes | Administración' }]

export async function loader({ url, context }: Route.LoaderArgs) {
  const { mes } = ReportQuerySchema.parse(Object.fromEntries(url.searchParams))
  const { db } = servicesOf(context).database
  const current = monthOf()
  const month = mes ?? current
  const [months, report] = await Promise.all([monthsWithData(db), monthReport(db, month)])
  const choices = [...new Set([current, month, ...months])].sort().reverse()
  return { ...report, months: choices }
}

const count = formatCount

/** Seconds as "1 min 05 s" (or "42 s"). */
export function duration(seconds: number): string {
  const whole = Math.round(seconds)
  if (whole < 60) return `${whole} s`
  const minutes = Math.floor(whole / 60)
  return `${count(minutes)} min ${String(whole % 60).padStart(2, '0')} s`
}

/**
 * The label of a page in the bar list: a product's or category's name where the page has one (its
 * path is in the table below), else the path. Two pages of the same name add their path, so each
 * bar reads as its own.
 */
export function pageLabels(pages: readonly { pageName: string; title?: string }[]): string[] {
  const seen = new Map<string, number>()
  for (const page of pages) {
    const label = page.title ?? page.pageName
    seen.set(label, (seen.get(label) ?? 0) + 1)
  }
  return pages.map((page) => {
    if (page.title === undefined) return page.pageName
    return seen.get(page.title)! > 1 ? `${page.title} (${page.pageName})` : page.title
  })
}

const cellClass = 'px-3 py-2'
const numberCellClass = `${cellClass} text-right tabular-nums`

export default function Reports({ loaderData }: Route.ComponentProps) {
  const { month, months, clicks, pages, moreClicks, morePages } = loaderData
  const totalClicks = clicks.reduce((sum, row) => sum + row.clickCount, 0)
  const totalVisits = pages.reduce((sum, row) => sum + row.visits, 0)
  const labels = pageLabels(pages)
  return (
    <section aria-labelledby="reports-title" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="reports-title" className="text-2xl font-semibold">
            Reportes
          </h1>
          <p className="text-sm text-gray-600">
            Clics y visitas de la tienda en {monthLabel(month)}, solo de quienes aceptaron la analítica (sin
            contar las visitas de los administradores).
          </p>
        </div>
        <Form method="get" className="flex items-end gap-2">
          <label className="flex flex-col gap-1">
            <span className={labelClass}>Mes</span>
            <select name="mes" defaultValue={month} className={inputClass} data-testid="report-month">
              {months.map((choice) => (
                <option key={choice} value={choice}>
                  {monthLabel(choice)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={secondaryButtonClass}>
            Ver
          </button>
        </Form>
      </div>

      <dl className="grid grid-cols-2 gap-3 sm:max-w-md">
        <div className="rounded-lg border border-gray-200 bg-white p-3">
          <dt className="text-xs text-gray-600">Clics</dt>
          <dd className="text-xl font-semibold tabular-nums">{count(totalClicks)}</dd>
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-3">
          <dt className="text-xs text-gray-600">Visitas</dt>
          <dd className="text-xl font-semibold tabular-nums">{count(totalVisits)}</dd>
        </div>
      </dl>

      <div className="grid gap-5 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-3" data-testid="click-report">
          <BarList
            title="Clics por elemento"
            items={clicks.map((row) => ({ label: row.elementName, value: row.clickCount }))}
            formatValue={count}
            emptyText="Sin clics registrados este mes."
          />
          {clicks.length > 0 && (
            <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
              <table className="w-full text-sm">
                <caption className="sr-only">Clics por elemento en {monthLabel(month)}</caption>
                <thead className="bg-gray-50 text-left text-xs text-gray-600">
                  <tr>
                    <th scope="col" className={cellClass}>
                      Elemento
                    </th>
                    <th scope="col" className={`${cellClass} text-right`}>
                      Clics
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-100">
                  {clicks.map((row) => (
                    <tr key={row.elementName}>
                      <th scope="row" className={`${cellClass} text-left font-normal break-all`}>
                        {row.elementName}
                      </th>
                      <td className={numberCellClass}>{count(row.clickCount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <MoreRowsNote more={moreClicks} what={`los ${REPORT_ROWS} elementos`} />
        </div>

        <div className="flex min-w-0 flex-col gap-3" data-testid="page-report">
          <BarList
            title="Visitas por página"
            items={pages.map((row, index) => ({
              label: labels[index]!,
              value: row.visits,
              detail: `prom. ${duration(row.averageSeconds)}`,
            }))}
            formatValue={count}
            emptyText="Sin visitas registradas este mes."
          />
          {pages.length > 0 && (
            <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
              <table className="w-full text-sm">
                <caption className="sr-only">
                  Visitas y tiempo promedio por página en {monthLabel(month)}
                </caption>
                <thead className="bg-gray-50 text-left text-xs text-gray-600">
                  <tr>
                    <th scope="col" className={cellClass}>
                      Página
                    </th>
                    <th scope="col" className={`${cellClass} text-right`}>
                      Visitas
                    </th>
                    <th scope="col" className={`${cellClass} text-right`}>
                      Tiempo promedio
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-100">
                  {pages.map((row) => (
                    <tr key={row.pageName} data-testid="page-row" data-page={row.pageName}>
                      <th scope="row" className={`${cellClass} text-left font-normal`}>
                        {row.title === undefined ? (
                          <span className="break-all">{row.pageName}</span>
                        ) : (
                          // The name to read, and the path (SKU or id) under it, smaller.
                          <>
                            <span className="block [overflow-wrap:anywhere]" data-testid="page-title">
                              {row.title}
                            </span>
                            <PageKey pageName={row.pageName} />
                          </>
                        )}
                      </th>
                      <td className={numberCellClass}>{count(row.visits)}</td>
                      <td className={`${numberCellClass} whitespace-nowrap`}>
                        {duration(row.averageSeconds)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <MoreRowsNote more={morePages} what={`las ${REPORT_ROWS} páginas`} />
        </div>
      </div>
    </section>
  )
}

/**
 * A page's path in small type under its name: it may wrap after "/producto/" or "/categoria/", never
 * inside the SKU or id (read and typed whole).
 */
function PageKey({ pageName }: { pageName: string }) {
  const cut = pageName.lastIndexOf('/') + 1
  return (
    <span className="block text-xs text-gray-600" data-testid="page-key">
      {pageName.slice(0, cut)}
      <wbr />
      <span className="whitespace-nowrap">{pageName.slice(cut)}</span>
    </span>
  )
}

/** Under a list cut at REPORT_ROWS: how many smaller rows are not shown. */
function MoreRowsNote({ more, what }: { more: number; what: string }) {
  if (more <= 0) return null
  return (
    <p className="text-xs text-gray-600" data-testid="report-more">
      {`Se muestran ${what} con más actividad; hay ${count(more)} más con menos.`}
    </p>
  )
}
