import { data } from 'react-router'
import { primaryButtonClass } from '#app/components/admin/form-message.tsx'
import { formatOrderDate, PAYMENT_METHOD_LABELS } from '#app/components/admin/order-bits.tsx'
import { adminCan, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { getPackingSlips } from '#app/modules/order/desk.server.ts'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import { formatCOP } from '#app/utils/money.ts'
import type { Route } from './+types/slips'

/** /admin/pedidos/guia/{id} (one order) and /admin/pedidos/guias?id=…&id=… (a selection), to print. */

export const meta: Route.MetaFunction = () => [{ title: 'Guías de despacho | Administración' }]

const MAX_SLIPS = 100
const NO_SELECTION = 'Selecciona al menos un pedido para imprimir sus guías.'

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const requested = params.id !== undefined ? [params.id] : url.searchParams.getAll('id')
  const ids = [...new Set(requested.filter(isUuid))].slice(0, MAX_SLIPS)
  if (params.id === undefined && !requested.length) throw data({ message: NO_SELECTION }, { status: 400 })
  const found = await getPackingSlips(servicesOf(context).database.db, ids)
  if (!found.length) throw data({ message: ORDER_DESK_MESSAGES.notFound }, { status: 404 })
  // Bodega prints slips without money figures (issue 27), but with what the courier collects on
  // cash on delivery: the one amount the package must travel with. The order's total stays here.
  const money = adminCan(signedInAdminOf(context), 'money')
  const slips = found.map(({ total, ...slip }) => ({ ...slip, ...(money ? { total } : {}) }))
  return { slips }
}

export default function PackingSlips({ loaderData }: Route.ComponentProps) {
  const { slips } = loaderData
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <h1 className="text-2xl font-semibold">
          {slips.length === 1 ? 'Guía de despacho' : `Guías de despacho (${slips.length})`}
        </h1>
        <button type="button" className={primaryButtonClass} onClick={() => window.print()}>
          Imprimir
        </button>
      </div>
      {slips.map((slip) => (
        <section
          key={slip.id}
          data-testid="packing-slip"
          aria-label={`Guía del pedido #${slip.number}`}
          className="break-after-page rounded-xl border border-gray-300 bg-white p-4 text-sm text-black print:rounded-none print:border-0 print:p-0"
        >
          <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-gray-300 pb-2">
            <h2 className="text-xl font-bold">Pedido #{slip.number}</h2>
            <p>
              {formatOrderDate(slip.createdAt)} · {PAYMENT_METHOD_LABELS[slip.paymentMethod]}
            </p>
          </header>
          <div className="grid gap-3 py-3 sm:grid-cols-2 print:grid-cols-2">
            <div>
              <h3 className="text-xs font-semibold text-gray-600 uppercase">Entregar a</h3>
              <p className="text-base font-semibold">{slip.customerName}</p>
              <p>Tel. {slip.customerPhone}</p>
              <p>{slip.customerAddress}</p>
              {slip.place.municipalityCode ? (
                <p data-testid="slip-place">
                  {slip.place.municipalityName}, {slip.place.departmentName}{' '}
                  <span className="text-xs">(DANE {slip.place.municipalityCode})</span>
                </p>
              ) : (
                <p data-testid="slip-place">
                  {[slip.customerCity, slip.customerDepartment].filter(Boolean).join(', ')}
                </p>
              )}
            </div>
            <div className="rounded-lg border-2 border-black p-3 text-center">
              <h3 className="text-xs font-semibold uppercase">Valor a cobrar</h3>
              <p className="text-2xl font-bold" data-testid="slip-collect">
                {formatCOP(slip.toCollect)}
              </p>
              {slip.cancelled ? (
                <p className="text-base font-bold" data-testid="slip-cancelled">
                  Pedido cancelado: no despachar.
                </p>
              ) : slip.toCollect === 0 ? (
                <p className="text-xs">Pedido pagado: no cobrar.</p>
              ) : null}
              {slip.trackingNumber ? (
                <p className="mt-1 text-xs">
                  {slip.carrier ? `${slip.carrier} · ` : ''}Guía {slip.trackingNumber}
                </p>
              ) : null}
            </div>
          </div>
          <table className="w-full border-collapse text-left">
            <thead>
              <tr className="border-b border-gray-400 text-xs uppercase">
                <th scope="col" className="py-1 pr-2">
                  Cant.
                </th>
                <th scope="col" className="py-1 pr-2">
                  Producto
                </th>
                <th scope="col" className="py-1">
                  {slip.locationsFrom === 'shipment' ? 'Despachado de (unidades)' : 'Ubicaciones (stock)'}
                </th>
              </tr>
            </thead>
            <tbody>
              {slip.items.map((item) => (
                <tr key={item.sku} className="border-b border-gray-200 align-top" data-testid="slip-item">
                  <td className="py-1.5 pr-2 text-base font-bold">{item.quantity}</td>
                  <td className="py-1.5 pr-2">
                    {item.title}
                    <span className="block text-xs text-gray-600">{item.sku}</span>
                  </td>
                  <td className="py-1.5 font-mono text-xs" data-testid="slip-locations">
                    {item.locations.length
                      ? item.locations.map((location) => (
                          <span key={location.code} className="block whitespace-nowrap">
                            {location.code} ({location.units})
                          </span>
                        ))
                      : slip.locationsFrom === 'shipment'
                        ? 'Sin salida registrada'
                        : 'Sin ubicación con stock'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  )
}
