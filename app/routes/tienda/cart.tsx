import { Minus, Plus, Trash } from '#app/components/icons.tsx'
import { useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { ProductImage } from '#app/components/product-image.tsx'
import { Totals } from '#app/components/totals.tsx'
import { usePricedCart } from '#app/components/use-cart-products.ts'
import { cart, useCartLines } from '#app/modules/cart/cart-store.ts'
import { CART_MESSAGES, type CartLine } from '#app/modules/cart/cart.ts'
import type { ProductCard } from '#app/modules/catalog/catalog.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { seo } from '#app/utils/seo.ts'
import { toast } from '#app/components/toast.tsx'
import { readStoreShipping } from '#app/modules/settings/settings.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/cart'
import { CHECKOUT_PATH, productPath } from '#app/utils/paths.ts'
import type { TrackedElement } from '#app/modules/analytics/track-names.ts'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...seo(matches, {
    title: 'Carrito',
    description: 'Revisa los productos de tu carrito, el envío y el total antes de finalizar tu pedido.',
  }),
  { name: 'robots', content: 'noindex' },
]

/**
 * The shipping rules as saved now, read at each visit (the layout's data is not reloaded when the
 * shopper moves around the shop): the cart shows what the order will charge.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  return { shipping: await readStoreShipping(reads.db, env) }
}

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const lines = useCartLines()
  const navigate = useNavigate()
  const { priced, totals, loaded } = usePricedCart(lines, loaderData.shipping)

  if (!lines.length) {
    return (
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        <h1 className="text-2xl font-semibold">Tu carrito está vacío</h1>
        <Link to="/" className="rounded-full bg-brand-600 px-5 py-2 font-medium text-white">
          Seguir comprando
        </Link>
      </div>
    )
  }

  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
      <section aria-labelledby="carrito">
        <h1 id="carrito" className="mb-4 text-2xl font-semibold">
          Carrito
        </h1>
        {!loaded && !priced.length ? <p>Cargando…</p> : null}
        <ul className="divide-y divide-brand-100" data-testid="cart-lines">
          {priced.map(({ line, product }) => (
            <CartRow key={line.sku} line={line} product={product} />
          ))}
        </ul>
      </section>
      <aside className="h-fit rounded-2xl bg-brand-50 p-4" aria-label="Resumen">
        <Totals
          subtotal={totals.subtotal}
          shipping={totals.shipping}
          total={totals.total}
          testIdPrefix="cart"
          className="flex flex-col gap-2"
          totalClassName="border-t border-brand-100 pt-2 text-lg font-semibold"
        />
        <button
          type="button"
          className="mt-4 w-full rounded-full bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
          data-track={'finalizar-pedido' satisfies TrackedElement}
          onClick={() => {
            if (lines.some((line) => line.quantity <= 0)) toast.error(CART_MESSAGES.zeroQuantity)
            else navigate(CHECKOUT_PATH)
          }}
        >
          Finalizar pedido
        </button>
      </aside>
    </div>
  )
}

function CartRow({ line, product }: { line: CartLine; product: ProductCard }) {
  const [draft, setDraft] = useState(String(line.quantity))
  useEffect(() => setDraft(String(line.quantity)), [line.quantity])
  const commit = (value: number) => {
    if (value === line.quantity) return setDraft(String(line.quantity))
    if (!cart.setQuantity(product, value)) setDraft(String(line.quantity))
  }
  return (
    <li className="flex gap-3 py-4" data-testid="cart-line" data-sku={line.sku}>
      <Link
        to={productPath(product.sku)}
        aria-label={product.name}
        className="size-20 shrink-0 overflow-hidden rounded-xl bg-brand-50"
      >
        <ProductImage image={product.image} sizes="80px" className="h-full w-full object-cover" />
      </Link>
      <div className="flex flex-1 flex-col gap-2">
        <div className="flex items-start justify-between gap-2">
          <p className="font-medium">{product.name}</p>
          <button
            type="button"
            aria-label={`Eliminar ${product.name}`}
            className="rounded-full p-1 text-gray-500 hover:bg-red-50 hover:text-red-600"
            onClick={() => {
              if (window.confirm(CART_MESSAGES.confirmRemove)) cart.remove(line.sku)
            }}
          >
            <Trash className="size-5" aria-hidden="true" />
          </button>
        </div>
        <p className="text-sm text-gray-600">{formatCOP(product.finalPrice)} c/u</p>
        <div className="flex items-center justify-between">
          <div className="flex items-center rounded-full border border-brand-100">
            <button
              type="button"
              aria-label="Disminuir cantidad"
              className="p-2"
              onClick={() => commit(line.quantity - 1)}
              disabled={line.quantity <= 0}
            >
              <Minus className="size-4" aria-hidden="true" />
            </button>
            <input
              type="number"
              min={0}
              inputMode="numeric"
              aria-label={`Cantidad de ${product.name}`}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onBlur={() => commit(Number(draft))}
              onKeyDown={(event) => {
                if (event.key === 'Enter') commit(Number(draft))
              }}
              className="w-12 [appearance:textfield] bg-transparent text-center [&::-webkit-inner-spin-button]:appearance-none"
            />
            <button
              type="button"
              aria-label="Aumentar cantidad"
              className="p-2"
              onClick={() => commit(line.quantity + 1)}
            >
              <Plus className="size-4" aria-hidden="true" />
            </button>
          </div>
          <p className="font-semibold">{formatCOP(product.finalPrice * line.quantity)}</p>
        </div>
        {line.quantity > product.available ? (
          <p className="text-sm text-red-600">Solo quedan {product.available} unidades disponibles.</p>
        ) : null}
      </div>
    </li>
  )
}
