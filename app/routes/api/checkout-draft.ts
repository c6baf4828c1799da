import { keepCheckoutDraft } from '#app/modules/checkout/drafts.server.ts'
import { readCheckoutForm } from '#app/modules/checkout/form.server.ts'
import { RATE_LIMITS } from '#app/modules/rate-limits/rate-limits.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import type { Route } from './+types/checkout-draft'

/**
 * POST /api/pedido-borrador: the checkout form as the shopper types it (its page's script sends it
 * when the phone, name, e-mail or the authorization box change). Kept only with a phone and the
 * box ticked; unticked, what was kept is forgotten (`keepCheckoutDraft`). Answers 204; the page
 * never waits for it nor tells the shopper about it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { database, rateLimits } = servicesOf(context)
  if (!(await rateLimits.take('checkoutDraft', clientAddressOf(context))))
    return Response.json({ ok: false, message: RATE_LIMITS.checkoutDraft.message }, { status: 429 })
  const form = readCheckoutForm(await requireFormData(request), request.headers.get('Cookie'))
  const { phone, name, email, consent } = form.values
  const kept = await keepCheckoutDraft(database.db, { phone, name, email, consent, lines: form.lines })
  logger.debug({ kept }, '[pedido sin terminar]')
  return new Response(null, { status: 204 })
}
