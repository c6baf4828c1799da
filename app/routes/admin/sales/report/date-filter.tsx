import { RangeFilter } from '#app/components/admin/range-filter.tsx'
import type { SalesFilters } from '#app/modules/order/sales-report.ts'
import { ADMIN_SALES_PATH, adminSalesCsvPath } from '#app/utils/admin-paths.ts'

/** The range to report on, and the CSV of that range once it has a report. */
export function DateFilter({ filters, csv }: { filters: SalesFilters; csv: boolean }) {
  return (
    <RangeFilter
      key={`${filters.from}|${filters.to}`}
      from={filters.from}
      to={filters.to}
      idPrefix="sales"
      label="Filtrar por fecha"
      thisMonth={ADMIN_SALES_PATH}
      csvHref={
        csv ? adminSalesCsvPath(new URLSearchParams({ desde: filters.from, hasta: filters.to })) : null
      }
      csvTestId="sales-csv"
    />
  )
}
