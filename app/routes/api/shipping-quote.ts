import { data } from 'react-router'
import { checkoutShippingQuote, quoteNote } from '#app/modules/carriers/quote.server.ts'
import { cartLinesOf } from '#app/modules/cart/cart.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/shipping-quote'

/**
 * What the checkout's summary reads: `shipping` in centavos, null when the flat or zone cost stands,
 * and the line it shows under it (`quoteNote`).
 */
export type ShippingQuoteAnswer = { shipping: number | null; note: string | null }

const NONE: ShippingQuoteAnswer = { shipping: null, note: null }

/**
 * The live shipping price of the cart in the cookie to one municipality (DANE code):
 * `/api/envio?municipio=05001`. Never stored by a browser or a shared cache: it follows the cart.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const municipio = url.searchParams.get('municipio') ?? ''
  if (!/^\d{5}$/.test(municipio)) {
    throw data(
      { ok: false, message: 'Municipio no válido: usa su código DANE de 5 dígitos.' },
      { status: 400 },
    )
  }
  const { database, carriers, env, rateLimits } = servicesOf(context)
  const headers = { 'Cache-Control': 'private, no-store' }
  if (!(await rateLimits.take('shippingQuote', clientAddressOf(context)))) {
    return data({ ...NONE, message: RATE_LIMITS.shippingQuote.message }, { status: 429, headers })
  }
  if (!carriers) return data(NONE, { headers })
  const quote = await checkoutShippingQuote(
    { db: database.db, carriers, env },
    {
      departmentCode: municipio.slice(0, 2),
      municipalityCode: municipio,
      lines: cartLinesOf(request.headers.get('Cookie')),
    },
  )
  const answer: ShippingQuoteAnswer = quote ? { shipping: quote.price, note: quoteNote(quote) } : NONE
  return data(answer, { headers })
}
