import { Minus, Plus, Trash } from '#app/components/icons.tsx'
import { useEffect, useState } from 'react'
import { data, Form, Link, redirect } from 'react-router'
import { CartForm } from '#app/components/cart-form.tsx'
import { CODE_INTENTS, DiscountCode } from '#app/components/discount-code.tsx'
import { ProductImage } from '#app/components/product-image.tsx'
import { Totals } from '#app/components/totals.tsx'
import { usePricedCart } from '#app/components/use-cart-products.ts'
import { cart, useCartLines } from '#app/modules/cart/cart-store.ts'
import { CART_MESSAGES, cartLinesOf, type CartIntent, type CartLine } from '#app/modules/cart/cart.ts'
import {
  CLEAR_CART_NOTICE,
  cartCookieAssignment,
  cartNoticeAssignment,
  readCartNotice,
} from '#app/modules/cart/cart-cookie.ts'
import { cartOfRequest, changeCartByForm } from '#app/modules/cart/cart.server.ts'
import { cartQuoteOf, quoteCart } from '#app/modules/checkout/cart-quote.server.ts'
import { codeCookieAssignment, readCodeCookie } from '#app/modules/promotions/code-cookie.ts'
import { CODE_MAX_LENGTH, CODE_MESSAGES } from '#app/modules/promotions/messages.ts'
import { normalizeCode } from '#app/modules/promotions/rules.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import type { ProductCard } from '#app/modules/catalog/catalog.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { seo } from '#app/utils/seo.ts'
import { toast } from '#app/components/toast.tsx'
import { readStoreShipping } from '#app/modules/settings/settings.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/cart'
import { CART_PATH, CHECKOUT_PATH, productPath } from '#app/utils/paths.ts'
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
 * shopper moves around the shop): the cart shows what the order will charge. The cart itself is
 * drawn from its cookie, so it shows before the scripts run, and without them; so does what a cart
 * form sent without scripts did (`notice`) and a removal waiting for the shopper's yes; and what
 * the promotions take off it with the discount code kept in its cookie (the page loads it again
 * for other lines from /api/carrito).
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const { reads, env } = servicesOf(context)
  const cookieHeader = request.headers.get('Cookie')
  const notice = readCartNotice(cookieHeader)
  const shipping = await readStoreShipping(reads.db, env)
  const rendered = await cartOfRequest(reads, cookieHeader)
  const code = readCodeCookie(cookieHeader)
  const quote = await quoteCart(reads.db, { lines: rendered.lines, code, shipping })
  return data(
    {
      shipping,
      rendered: { ...rendered, quote: cartQuoteOf(quote) },
      code,
      notice,
      removing: url.searchParams.get('eliminar'),
    },
    notice ? { headers: { 'Set-Cookie': CLEAR_CART_NOTICE } } : undefined,
  )
}

/**
 * A cart form sent before the page's scripts ran, or without JavaScript (cart-form.tsx); and the
 * discount code's "Aplicar" and "Quitar" (with or without scripts), which keep the code in its
 * cookie: the cart it leads back to says what became of it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const cookieHeader = request.headers.get('Cookie')
  const form = await requireFormData(request)
  const secure = new URL(request.url).protocol === 'https:'
  const intent = form.get('intent')
  if (intent === CODE_INTENTS.apply || intent === CODE_INTENTS.remove) {
    const typed = intent === CODE_INTENTS.apply ? String(form.get('discount_code') ?? '') : ''
    const headers = new Headers()
    if (normalizeCode(typed).length > CODE_MAX_LENGTH) {
      headers.append('Set-Cookie', cartNoticeAssignment({ message: CODE_MESSAGES.tooLong, tone: 'error' }))
    } else {
      headers.append('Set-Cookie', codeCookieAssignment(typed, secure))
      const removed = !normalizeCode(typed) && readCodeCookie(cookieHeader)
      headers.append(
        'Set-Cookie',
        removed
          ? cartNoticeAssignment({ message: CODE_MESSAGES.removed, tone: 'warning' })
          : CLEAR_CART_NOTICE,
      )
    }
    return redirect(CART_PATH, { headers })
  }
  const outcome = await changeCartByForm(servicesOf(context).reads, cartLinesOf(cookieHeader), form)
  const headers = new Headers()
  headers.append('Set-Cookie', cartCookieAssignment(outcome.lines, secure))
  headers.append('Set-Cookie', outcome.notice ? cartNoticeAssignment(outcome.notice) : CLEAR_CART_NOTICE)
  return redirect(outcome.redirectTo, { headers })
}

const NOTICE_TONES = {
  success: 'border-green-200 bg-green-50 text-green-800',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  error: 'border-red-200 bg-red-50 text-red-700',
} as const

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const { rendered, notice, removing, code } = loaderData
  const lines = useCartLines(rendered.lines)
  const { priced, totals, loaded, pending, quote } = usePricedCart(lines, loaderData.shipping, rendered, code)
  const noticeBox = notice ? (
    <p
      role={notice.tone === 'error' ? 'alert' : 'status'}
      className={`mb-4 rounded-xl border p-3 text-sm ${NOTICE_TONES[notice.tone]}`}
      data-testid="cart-notice"
    >
      {notice.message}
    </p>
  ) : null

  if (!lines.length) {
    return (
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        {noticeBox}
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
        {noticeBox}
        {!loaded && !priced.length ? <p>Cargando…</p> : null}
        <ul className="divide-y divide-brand-100" data-testid="cart-lines">
          {priced.map(({ line, product }) => (
            <CartRow key={line.sku} line={line} product={product} removing={removing === line.sku} />
          ))}
        </ul>
      </section>
      <aside className="h-fit rounded-2xl bg-brand-50 p-4" aria-label="Resumen">
        <Totals
          subtotal={totals.subtotal}
          shipping={totals.shipping}
          discounts={totals.discounts}
          total={totals.total}
          pending={pending}
          testIdPrefix="cart"
          className="flex flex-col gap-2"
          totalClassName="border-t border-brand-100 pt-2 text-lg font-semibold"
        />
        <Form method="post" action={CART_PATH} preventScrollReset className="mt-4">
          <DiscountCode code={code ?? ''} outcome={quote?.codeOutcome ?? null} />
        </Form>
        <Link
          to={CHECKOUT_PATH}
          className="mt-4 block w-full rounded-full bg-brand-600 px-5 py-3 text-center font-semibold text-white hover:bg-brand-700"
          data-track={'finalizar-pedido' satisfies TrackedElement}
          onClick={(event) => {
            if (!lines.some((line) => line.quantity <= 0)) return
            event.preventDefault()
            toast.error(CART_MESSAGES.zeroQuantity)
          }}
        >
          Finalizar pedido
        </Link>
      </aside>
    </div>
  )
}

function CartRow({ line, product, removing }: { line: CartLine; product: ProductCard; removing: boolean }) {
  const [draft, setDraft] = useState(String(line.quantity))
  useEffect(() => setDraft(String(line.quantity)), [line.quantity])
  const commit = (value: number) => {
    if (value === line.quantity) return setDraft(String(line.quantity))
    if (!cart.setQuantity(product, value)) setDraft(String(line.quantity))
  }
  const onIntent = (intent: CartIntent, fields: FormData) => {
    if (intent === 'increase') commit(line.quantity + 1)
    else if (intent === 'decrease') commit(Math.max(0, line.quantity - 1))
    // The box as it reads now: a number typed before the page hydrated is not in `draft`.
    else if (intent === 'set') commit(Number(fields.get('quantity')))
    else if (intent === 'remove' || window.confirm(CART_MESSAGES.confirmRemove)) cart.remove(line.sku)
  }
  return (
    <li className="flex gap-3 py-4" data-testid="cart-line" data-sku={line.sku}>
      <Link
        to={productPath(product)}
        aria-label={product.name}
        className="size-20 shrink-0 overflow-hidden rounded-xl bg-brand-50"
      >
        <ProductImage image={product.image} sizes="80px" className="h-full w-full object-cover" />
      </Link>
      <div className="flex flex-1 flex-col gap-2">
        <div className="flex items-start justify-between gap-2">
          <p className="font-medium">{product.name}</p>
          <CartForm sku={line.sku} onIntent={onIntent}>
            <button
              type="submit"
              name="intent"
              value={'ask-remove' satisfies CartIntent}
              aria-label={`Eliminar ${product.name}`}
              className="rounded-full p-1 text-gray-500 hover:bg-red-50 hover:text-red-600"
            >
              <Trash className="size-5" aria-hidden="true" />
            </button>
          </CartForm>
        </div>
        {removing ? <RemovalQuestion sku={line.sku} onIntent={onIntent} /> : null}
        <p className="text-sm text-gray-600">{formatCOP(product.finalPrice)} c/u</p>
        <CartForm sku={line.sku} onIntent={onIntent} className="flex items-center justify-between">
          {/* First in the form: the button Enter in the quantity box presses. */}
          <button type="submit" name="intent" value={'set' satisfies CartIntent} className="sr-only">
            Actualizar cantidad
          </button>
          <div className="flex items-center rounded-full border border-brand-100">
            <button
              type="submit"
              name="intent"
              value={'decrease' satisfies CartIntent}
              aria-label="Disminuir cantidad"
              className="p-2"
              disabled={line.quantity <= 0}
            >
              <Minus className="size-4" aria-hidden="true" />
            </button>
            <input
              type="number"
              name="quantity"
              min={0}
              inputMode="numeric"
              aria-label={`Cantidad de ${product.name}`}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onBlur={(event) => commit(Number(event.currentTarget.value))}
              className="w-12 [appearance:textfield] bg-transparent text-center [&::-webkit-inner-spin-button]:appearance-none"
            />
            <button
              type="submit"
              name="intent"
              value={'increase' satisfies CartIntent}
              aria-label="Aumentar cantidad"
              className="p-2"
            >
              <Plus className="size-4" aria-hidden="true" />
            </button>
          </div>
          <p className="font-semibold">{formatCOP(product.finalPrice * line.quantity)}</p>
        </CartForm>
        {line.quantity > product.available ? (
          <p className="text-sm text-red-600">Solo quedan {product.available} unidades disponibles.</p>
        ) : null}
      </div>
    </li>
  )
}

/** The removal's confirmation where no script could ask it in a dialog (spec §8's question). */
function RemovalQuestion({
  sku,
  onIntent,
}: {
  sku: string
  onIntent: (intent: CartIntent, fields: FormData) => void
}) {
  return (
    <CartForm
      sku={sku}
      onIntent={onIntent}
      className="flex flex-wrap items-center gap-2 rounded-xl border border-red-200 bg-red-50 p-3 text-sm"
    >
      <p role="alert" className="w-full">
        {CART_MESSAGES.confirmRemove}
      </p>
      <button
        type="submit"
        name="intent"
        value={'remove' satisfies CartIntent}
        className="rounded-full bg-red-600 px-4 py-2 font-medium text-white hover:bg-red-700"
      >
        Sí, eliminar
      </button>
      <Link to={CART_PATH} className="rounded-full border border-gray-300 px-4 py-2 font-medium">
        No, conservarlo
      </Link>
    </CartForm>
  )
}
