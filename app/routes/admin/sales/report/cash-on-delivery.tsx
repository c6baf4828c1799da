import type { SalesReport } from '#app/modules/order/sales-report.server.ts'
import { formatCount } from '#app/utils/count.ts'

/** How the range's cash-on-delivery orders ended, and the share delivered of those that did. */
export function CashOnDelivery({ cod }: { cod: SalesReport['cashOnDelivery'] }) {
  const closedCod = cod.delivered + cod.cancelled + cod.refused
  return (
    <section
      aria-labelledby="cod-title"
      className="rounded-lg border border-gray-200 bg-white p-4"
      data-testid="sales-cod"
    >
      <h2 id="cod-title" className="mb-1 text-sm font-semibold text-ink">
        Contra entrega: entregados vs. cancelados
      </h2>
      <p className="mb-3 text-xs text-gray-600">
        Pedidos contra entrega hechos en estas fechas, según cómo terminaron.
      </p>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        {[
          { id: 'delivered', label: 'Entregados (completados)', value: cod.delivered },
          { id: 'cancelled', label: 'Cancelados antes de enviar', value: cod.cancelled },
          { id: 'refused', label: 'Rechazados en la entrega', value: cod.refused },
          { id: 'open', label: 'En curso', value: cod.open },
        ].map((item) => (
          <div key={item.id}>
            <dt className="text-gray-600">{item.label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`sales-cod-${item.id}`}>
              {formatCount(item.value)}
            </dd>
          </div>
        ))}
      </dl>
      {closedCod ? (
        <p className="mt-3 text-sm" data-testid="sales-cod-rate">
          Se entregó el {((cod.delivered / closedCod) * 100).toFixed(0)} % de los que ya terminaron.
        </p>
      ) : null}
    </section>
  )
}
