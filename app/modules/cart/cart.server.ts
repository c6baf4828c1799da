import { z } from 'zod'
import { getCartProducts } from '#app/modules/catalog/catalog.server.ts'
import { CART_PATH, CHECKOUT_PATH } from '#app/utils/paths.ts'
import type { CartNoticeTone } from './cart-cookie.ts'
import {
  addToLines,
  CART_INTENTS,
  CART_MESSAGES,
  cartLinesOf,
  removeLine,
  setLineQuantity,
  type CartLine,
} from './cart.ts'

const CartFormSchema = z.object({
  intent: z.enum(CART_INTENTS),
  sku: z.string().trim().min(1).max(200),
  quantity: z.coerce.number().int().min(0).max(1_000_000).optional().catch(undefined),
})

export type CartFormOutcome = {
  lines: CartLine[]
  /** Said once by the page the shopper goes to; none when that page says enough by itself. */
  notice: { message: string; tone: CartNoticeTone } | null
  redirectTo: string
}

/** Where a removal waits for the shopper's yes when no script could ask it in a dialog. */
export const confirmRemovalPath = (sku: string) => `${CART_PATH}?${new URLSearchParams({ eliminar: sku })}`

/**
 * Applies one cart form to the cart the cookie holds, with the same rules and texts as in the page,
 * against the products' stock now. "COMPRAR AHORA" empties the cart, adds one unit and goes on to
 * the checkout; everything else comes back to the cart, which says what happened.
 */
export async function changeCartByForm(
  reads: Parameters<typeof getCartProducts>[0],
  lines: CartLine[],
  form: FormData,
): Promise<CartFormOutcome> {
  const parsed = CartFormSchema.safeParse({
    intent: form.get('intent') ?? undefined,
    sku: form.get('sku') ?? undefined,
    quantity: form.get('quantity') || undefined,
  })
  if (!parsed.success) {
    return { lines, notice: { message: CART_MESSAGES.productMissing, tone: 'error' }, redirectTo: CART_PATH }
  }
  const { intent, sku, quantity } = parsed.data
  const back = (change: { lines: CartLine[]; message: string; tone: CartNoticeTone }): CartFormOutcome => ({
    lines: change.lines,
    notice: { message: change.message, tone: change.tone },
    redirectTo: CART_PATH,
  })

  if (intent === 'ask-remove') return { lines, notice: null, redirectTo: confirmRemovalPath(sku) }
  if (intent === 'remove') return back(removeLine(lines, sku))

  const [product] = await getCartProducts(reads, [sku])
  if (intent === 'buy-now') {
    const change = addToLines([], product)
    return change.ok
      ? { lines: change.lines, notice: null, redirectTo: CHECKOUT_PATH }
      : back({ ...change, lines: [] })
  }
  if (intent === 'add') return back(addToLines(lines, product))

  const current = lines.find((line) => line.sku === sku)?.quantity
  if (current === undefined) return back({ lines, message: CART_MESSAGES.notInCart, tone: 'error' })
  const wanted =
    intent === 'increase'
      ? current + 1
      : intent === 'decrease'
        ? Math.max(0, current - 1)
        : (quantity ?? current)
  if (wanted === current) return { lines, notice: null, redirectTo: CART_PATH }
  return back(setLineQuantity(lines, product, wanted))
}

/**
 * The cart in a request's cookie with its products' current data, for the pages that draw it on the
 * server (cart, checkout): they show it before the scripts run, and without them.
 */
export async function cartOfRequest(
  reads: Parameters<typeof getCartProducts>[0],
  cookieHeader: string | null,
) {
  const lines = cartLinesOf(cookieHeader)
  const products = lines.length
    ? await getCartProducts(
        reads,
        lines.map((line) => line.sku),
      )
    : []
  return { lines, products }
}
