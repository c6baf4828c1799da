import { consentIdOf, recordConsent } from '#app/modules/analytics/analytics.server.ts'
import { consentCookieHeader } from '#app/modules/analytics/consent-cookie.server.ts'
import { ConsentFormSchema } from '#app/modules/analytics/validators.ts'
import { isSameOrigin } from '#app/modules/auth/guard.server.ts'
import { getServices } from '#app/services.server.ts'
import { jsonFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/consent'

/**
 * POST /api/consentimiento: the consent banner's form. Logs the choice, keeps it in the consent
 * cookie and, for a plain form post (no JavaScript), goes back to the page it came from; the
 * banner's script asks for JSON and stays on the page.
 */
export async function action({ request }: Route.ActionArgs) {
  const wantsJson = (request.headers.get('Accept') ?? '').includes('application/json')
  const { database, env } = getServices()
  try {
    if (!isSameOrigin(request, env.PUBLIC_URL ?? new URL(request.url).origin))
      throw new Refusal('Tu elección de privacidad debe enviarse desde la tienda.', { status: 403 })
    const form = await requireFormData(request)
    const parsed = ConsentFormSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success)
      throw new Refusal('No entendimos tu elección de privacidad. Inténtalo de nuevo.', { status: 400 })
    const { analytics, advertising, returnTo } = parsed.data
    const consent = await recordConsent(database.db, {
      analytics,
      advertising,
      previousId: consentIdOf(request.headers.get('Cookie')),
    })
    const headers = new Headers({ 'Set-Cookie': consentCookieHeader(consent, request, env.PUBLIC_URL) })
    if (wantsJson) return Response.json({ ok: true, consent }, { headers })
    headers.set('Location', safeStorePath(returnTo))
    return new Response(null, { status: 303, headers })
  } catch (thrown) {
    return jsonFailure(thrown, request, { unexpected: 'No pudimos guardar tu elección. Inténtalo de nuevo.' })
  }
}

/** A storefront path to go back to (never another site, never the back office). */
function safeStorePath(value: string | undefined): string {
  if (!value || !/^\/(?![/\\])[\x21-\x7e]*$/.test(value) || /^\/admin(?:[/?#]|$)/.test(value)) return '/'
  // The banner's "Preferencias de privacidad" link opens it with ?preferencias: close it on return.
  const url = new URL(value, 'http://tienda.invalid')
  url.searchParams.delete('preferencias')
  return `${url.pathname}${url.search}${url.hash}`
}
