import { SALE_RULE } from '#app/modules/order/sales-report.ts'

/**
 * How the figures are counted, folded under the summary cards (closed until asked for): the page
 * opens on its figures, and whoever wonders what a card means finds the answer right below it. The
 * margins' rule only where they show (`costs`).
 */
export function SalesExplanation({ costs }: { costs: boolean }) {
  return (
    <details
      className="rounded-xl border border-brand-100 bg-white px-4 py-3 text-sm shadow-sm"
      data-testid="sales-explanation"
    >
      <summary className="cursor-pointer font-medium text-brand-700">Cómo se cuentan estas cifras</summary>
      <div className="mt-2 flex max-w-3xl flex-col gap-2 text-gray-700">
        <p data-testid="sales-rule">{SALE_RULE}</p>
        {costs ? (
          <p data-testid="sales-margin-rule">
            <strong>Margen bruto</strong>: ventas de los pedidos ya enviados menos el costo promedio que el
            inventario registró en sus salidas. Un pedido sin enviar aún no tiene salida: su{' '}
            <strong>margen estimado</strong> usa el costo promedio actual de cada producto, puede cambiar al
            enviarlo y no se suma al margen bruto.
          </p>
        ) : null}
      </div>
    </details>
  )
}
