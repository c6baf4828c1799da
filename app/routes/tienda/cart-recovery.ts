import { redirect } from 'react-router'
import { cartCookieAssignment, cartNoticeAssignment, fitsCartCookie } from '#app/modules/cart/cart-cookie.ts'
import { cartLinesOf } from '#app/modules/cart/cart.ts'
import { DRAFT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { openCheckoutDraft } from '#app/modules/checkout/drafts.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { isLinkPreview } from '#app/utils/link-preview.ts'
import { CART_PATH } from '#app/utils/paths.ts'
import type { Route } from './+types/cart-recovery'

/**
 * /carrito/recuperar/{token}: the link the shop sends a shopper who left their checkout. It puts
 * that checkout's products back in the cart (beside what the cart holds now, the larger quantity of
 * each) and opens the cart, which says so; a link no longer kept says that instead. No scripts
 * needed.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  // WhatsApp's preview of the message the shop sends opens the link too: that is not the shopper.
  const opened = !isLinkPreview(request.headers.get('User-Agent'))
  const lines = await openCheckoutDraft(servicesOf(context).database.db, params.token, { opened })
  const headers = new Headers({ 'Cache-Control': 'private, no-store' })
  if (!lines) {
    headers.append('Set-Cookie', cartNoticeAssignment({ message: DRAFT_MESSAGES.linkGone, tone: 'warning' }))
    return redirect(CART_PATH, { headers })
  }
  const merged = new Map(cartLinesOf(request.headers.get('Cookie')).map((line) => [line.sku, line.quantity]))
  for (const line of lines) merged.set(line.sku, Math.max(merged.get(line.sku) ?? 0, line.quantity))
  const both = [...merged].map(([sku, quantity]) => ({ sku, quantity }))
  // A cart already full keeps the recovered products first (a draft is only kept when it fits).
  const cart = fitsCartCookie(both) ? both : lines
  const secure = new URL(request.url).protocol === 'https:'
  headers.append('Set-Cookie', cartCookieAssignment(cart, secure))
  headers.append('Set-Cookie', cartNoticeAssignment({ message: DRAFT_MESSAGES.recovered, tone: 'success' }))
  return redirect(CART_PATH, { headers })
}
