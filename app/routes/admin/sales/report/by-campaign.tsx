import type { ShownSalesReport as SalesReport } from '#app/modules/order/sales-report.server.ts'
import { campaignDetail, campaignOrigin } from '#app/modules/order/sales-report.ts'
import { FiguresTable } from './figures-table.tsx'

/**
 * Where the orders came from: the campaign link (utm_source, utm_medium, utm_campaign) or the site
 * that sent the shopper, as first seen in their visit. Only shoppers who allowed analytics are
 * known; the others are one row of their own, never guessed.
 */
export function SalesByCampaign({ report, costs }: { report: SalesReport; costs: boolean }) {
  if (!report.campaigns.length) return null
  return (
    <section aria-labelledby="sales-campaigns" className="space-y-2">
      <h2 id="sales-campaigns" className="text-lg font-semibold">
        Por campaña
      </h2>
      <p className="text-sm text-gray-600">
        De dónde llegó quien compró, en la primera página de su visita: los enlaces con utm_source, utm_medium
        y utm_campaign (por ejemplo, los de tus anuncios o tu perfil de Instagram) o el sitio que lo trajo.
        Solo se sabe de quienes aceptaron la analítica.
      </p>
      <FiguresTable
        id="campaigns"
        caption="Ventas por campaña"
        firstColumn="Origen"
        costs={costs}
        rows={report.campaigns.map((row) => ({
          key: [row.known ? 1 : 0, row.source, row.medium, row.campaign, row.referrerHost].join('|'),
          label: campaignOrigin(row),
          detail: campaignDetail(row) || undefined,
          figures: row,
        }))}
      />
    </section>
  )
}
