import type { ReactNode } from 'react'
import type { ShownSalesReport as SalesReport } from '#app/modules/order/sales-report.server.ts'
import { formatCount } from '#app/utils/count.ts'
import { formatCOP } from '#app/utils/money.ts'

/** Margin as a share of what it was made on ("32,5 %"), or nothing without sales. */
function marginShare(margin: number, revenue: number): string | null {
  if (revenue === 0) return null
  return `${((margin / revenue) * 100).toFixed(1).replace('.', ',')} %`
}

function Card({
  id,
  label,
  value,
  hint,
  className = '',
}: {
  id: string
  label: string
  value: ReactNode
  hint?: ReactNode
  className?: string
}) {
  return (
    <div className={`min-w-0 rounded-xl border border-brand-100 bg-white p-3 shadow-sm sm:p-4 ${className}`}>
      <dt className="text-sm text-gray-600">
        {label}
        {hint ? <span className="block text-xs text-gray-500">{hint}</span> : null}
      </dt>
      <dd
        className="mt-1 text-base font-semibold text-brand-700 tabular-nums [overflow-wrap:anywhere] sm:text-xl"
        data-testid={`sales-${id}`}
      >
        {value}
      </dd>
    </div>
  )
}

/** The margins' two cards, when the loader sent their figures (a role that may see costs). */
function MarginCards({ totals }: { totals: SalesReport['totals'] }) {
  const { margin, estimatedMargin, estimatedRevenue, estimatedCost, unknownCostUnits } = totals
  if (
    margin === undefined ||
    estimatedMargin === undefined ||
    estimatedRevenue === undefined ||
    estimatedCost === undefined ||
    unknownCostUnits === undefined
  ) {
    return null
  }
  const marginPercent = marginShare(margin, totals.shippedRevenue)
  const estimatedPercent = marginShare(estimatedMargin, estimatedRevenue)
  return (
    <>
      <Card
        id="margin"
        label="Margen bruto"
        value={formatCOP(margin)}
        hint={`${formatCount(totals.shippedOrders)} pedido(s) enviado(s)${marginPercent ? ` · ${marginPercent}` : ''}`}
      />
      <Card
        id="estimated-margin"
        label="Margen estimado"
        value={
          estimatedRevenue || estimatedCost || !unknownCostUnits
            ? `${formatCOP(estimatedMargin)}${unknownCostUnits ? ' *' : ''}`
            : 'Sin costo conocido *'
        }
        hint={`${formatCount(totals.pendingOrders)} pedido(s) sin enviar${estimatedPercent ? ` · ${estimatedPercent}` : ''}`}
      />
    </>
  )
}

/**
 * The range's totals as cards (how they are counted is in `SalesExplanation`, below them); the
 * margins' only for a role that may see costs (the loader sent no others).
 */
export function SalesSummary({ report }: { report: SalesReport }) {
  const { totals, cancelled, unconfirmedOnline } = report
  const costs = totals.margin !== undefined
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3" data-testid="sales-summary">
        <Card id="orders" label="Pedidos" value={formatCount(totals.orders)} />
        <Card id="units" label="Unidades" value={formatCount(totals.units)} />
        <Card
          id="revenue"
          label="Ventas"
          value={formatCOP(totals.revenue)}
          hint="Productos, sin envío, ya con descuentos"
        />
        <Card
          id="ticket"
          label="Ticket promedio"
          value={formatCOP(totals.averageTicket)}
          hint="Ventas ÷ pedidos"
        />
        <MarginCards totals={totals} />
        <Card id="shipping" label="Envío cobrado" value={formatCOP(totals.shipping)} />
        <Card
          id="discount"
          label="Descuentos"
          value={formatCOP(totals.discount)}
          hint={`Promociones y códigos; ${formatCOP(totals.shippingDiscount)} en envío`}
        />
        <Card
          id="cancelled"
          label="Cancelados (no suman)"
          value={formatCount(cancelled.orders)}
          hint={`${formatCOP(cancelled.revenue)} en productos`}
        />
        <Card
          id="unconfirmed"
          // The tenth card: the whole row on wide screens' three columns (two on a phone); without
          // the margins' two it is the eighth, beside the seventh.
          className={costs ? 'lg:col-span-3' : 'lg:col-span-2'}
          label="Pagos sin confirmar"
          value={formatCount(unconfirmedOnline.orders)}
          hint={`${formatCOP(unconfirmedOnline.revenue)} en productos · no suman hasta pagarse`}
        />
      </dl>
      {totals.unknownCostUnits ? (
        // The asterisk's note stays in sight: it qualifies a figure on the card above.
        <p className="max-w-3xl text-xs text-gray-600" data-testid="sales-unknown-cost">
          * {formatCount(totals.unknownCostUnits)} unidad(es) sin enviar son de productos eliminados: su costo
          ya no se conoce, así que quedan fuera del margen estimado (no se estiman a costo 0).
        </p>
      ) : null}
    </>
  )
}
