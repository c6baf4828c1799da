import { Link } from 'react-router'
import { formatCount } from '#app/utils/count.ts'
import { formatCOP } from '#app/utils/money.ts'

/** One checkout not finished as the Marketing page shows it (built by its loader). */
export type AbandonedCheckout = {
  id: string
  name: string
  phone: string
  email: string
  items: { sku: string; name: string; quantity: number }[]
  total: number
  /** When the shopper last typed, in Bogotá time. */
  when: string
  /** "Escribir por WhatsApp": the shop's message with the link that refills the cart. */
  whatsapp: string
  linkOpened: boolean
  order: { number: number; total: number; href: string | null } | null
}

/**
 * "Pedidos sin terminar": shoppers who typed their phone at checkout, authorized the data policy
 * and left; the owner writes to them by WhatsApp with a link that puts the products back in their
 * cart. Recovered ones show the order that followed.
 */
export function AbandonedCheckouts({
  checkouts,
  includeRecent,
  abandonedAfterMinutes,
  keptDays,
}: {
  checkouts: AbandonedCheckout[]
  includeRecent: boolean
  abandonedAfterMinutes: number
  keptDays: number
}) {
  const recovered = checkouts.filter((checkout) => checkout.order).length
  return (
    <section
      aria-labelledby="abandoned-title"
      className="flex flex-col gap-3"
      data-testid="abandoned-checkouts"
    >
      <div>
        <h2 id="abandoned-title" className="text-xl font-semibold">
          Pedidos sin terminar
        </h2>
        <p className="text-sm text-gray-600">
          Quienes escribieron su teléfono en el formulario de pedido, autorizaron el tratamiento de sus datos
          y no terminaron. Escríbeles por WhatsApp: el mensaje lleva un enlace que vuelve a poner los
          productos en su carrito. Si después hacen un pedido con ese teléfono, aparece como recuperado. Se
          borran solos a los {keptDays} días.
        </p>
      </div>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span data-testid="abandoned-count">
          {formatCount(checkouts.length - recovered)} sin terminar
          {recovered ? ` · ${formatCount(recovered)} ${recovered === 1 ? 'recuperado' : 'recuperados'}` : ''}
        </span>
        {includeRecent ? (
          <Link to="?" className="text-brand-700 underline">
            Ocultar los de los últimos {abandonedAfterMinutes} minutos
          </Link>
        ) : (
          <Link to="?recientes=1" className="text-brand-700 underline">
            Ver también los de los últimos {abandonedAfterMinutes} minutos (puede que aún estén comprando)
          </Link>
        )}
      </p>
      {checkouts.length ? (
        <ul className="grid gap-3 lg:grid-cols-2">
          {checkouts.map((checkout) => (
            <li
              key={checkout.id}
              data-testid="abandoned-checkout"
              className="flex min-w-0 flex-col gap-2 rounded-xl border border-brand-100 bg-white p-4 text-sm shadow-sm"
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold">
                  {checkout.name || 'Sin nombre'} · <span className="tabular-nums">{checkout.phone}</span>
                </p>
                <p className="text-gray-600">{checkout.when}</p>
              </div>
              {checkout.email ? <p className="break-all text-gray-600">{checkout.email}</p> : null}
              <ul className="text-gray-800">
                {checkout.items.map((item) => (
                  <li key={item.sku}>
                    {item.quantity} × {item.name}
                  </li>
                ))}
              </ul>
              <p>
                Total aproximado, a precios de hoy:{' '}
                <span className="font-semibold" data-testid="abandoned-total">
                  {formatCOP(checkout.total)}
                </span>
              </p>
              {checkout.order ? (
                <p className="font-medium text-green-800" data-testid="abandoned-recovered">
                  Recuperado: pedido{' '}
                  {checkout.order.href ? (
                    <Link to={checkout.order.href} className="underline">
                      #{checkout.order.number}
                    </Link>
                  ) : (
                    `#${checkout.order.number}`
                  )}{' '}
                  por {formatCOP(checkout.order.total)}
                </p>
              ) : (
                <div className="flex flex-wrap items-center gap-3">
                  <a
                    href={checkout.whatsapp}
                    target="_blank"
                    rel="noreferrer"
                    className="rounded-full bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800"
                    data-testid="abandoned-whatsapp"
                  >
                    Escribir por WhatsApp
                  </a>
                  {checkout.linkOpened ? <span className="text-gray-600">Ya abrió el enlace</span> : null}
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-gray-600" data-testid="abandoned-none">
          No hay pedidos sin terminar{includeRecent ? '' : ` de hace más de ${abandonedAfterMinutes} minutos`}
          .
        </p>
      )}
    </section>
  )
}
