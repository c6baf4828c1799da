import { consentFailurePage } from '#app/components/consent-banner.server.tsx'
import { consentChoice, consentIdOf, logConsent } from '#app/modules/analytics/analytics.server.ts'
import { campaignCookieFor } from '#app/modules/analytics/campaign.ts'
import { isAdminPath } from '#app/modules/analytics/consent.ts'
import { consentCookieHeader } from '#app/modules/analytics/consent-cookie.server.ts'
import { CONSENT_MESSAGES, ConsentFormSchema } from '#app/modules/analytics/validators.ts'
import { isSameOrigin } from '#app/modules/auth/guard.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { jsonFailure } from '#app/utils/answer.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/consent'

/**
 * POST /api/consentimiento: the consent banner's form. Keeps the choice in the consent cookie, logs
 * it (while the network's allowance lasts: `consentLog`) and, for a plain form post (no JavaScript), goes back to the page it came from; the
 * banner's script asks for JSON and stays on the page. A refusal is JSON for the script and a small
 * Spanish page, with the way back, for a browser without JavaScript.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const wantsJson = (request.headers.get('Accept') ?? '').includes('application/json')
  const { database, env, rateLimits } = servicesOf(context)
  let returnTo: string | undefined
  try {
    if (!isSameOrigin(request, env.PUBLIC_URL ?? new URL(request.url).origin))
      throw new Refusal(CONSENT_MESSAGES.otherSite, { status: 403 })
    const form = await requireFormData(request)
    const volver = form.get('volver')
    returnTo = typeof volver === 'string' ? volver : undefined
    const parsed = ConsentFormSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success) throw new Refusal(CONSENT_MESSAGES.notUnderstood, { status: 400 })
    const { analytics, advertising } = parsed.data
    const consent = consentChoice({
      analytics,
      advertising,
      previousId: consentIdOf(request.headers.get('Cookie')),
    })
    // The choice is always kept (the cookie) and honoured; only its logging is limited per network.
    if (await rateLimits.take('consentLog', clientAddressOf(context))) await logConsent(database.db, consent)
    const headers = new Headers({ 'Set-Cookie': consentCookieHeader(consent, request, env.PUBLIC_URL) })
    // Allowing analytics on the page the shopper landed on keeps where they came from (that page's
    // address and, with scripts, the site that sent them); withdrawing it forgets it.
    const campaignCookie = campaignCookieFor(
      {
        allowsAnalytics: analytics,
        cookieHeader: request.headers.get('Cookie'),
        landing: new URL(safeStorePath(returnTo), request.url),
        referrer: parsed.data.referrer,
      },
      (env.PUBLIC_URL ?? request.url).startsWith('https:'),
    )
    if (campaignCookie) headers.append('Set-Cookie', campaignCookie)
    if (wantsJson) return Response.json({ ok: true, consent }, { headers })
    headers.set('Location', safeStorePath(returnTo))
    return new Response(null, { status: 303, headers })
  } catch (thrown) {
    const answer = jsonFailure(thrown, request, { unexpected: CONSENT_MESSAGES.unexpected })
    if (wantsJson) return answer
    const { message } = (await answer.json()) as { message: string }
    return new Response(consentFailurePage(message, safeStorePath(returnTo)), {
      status: answer.status,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    })
  }
}

/** A storefront path to go back to (never another site, never the back office). */
export function safeStorePath(value: string | undefined): string {
  if (!value || !/^\/(?![/\\])[\x21-\x7e]*$/.test(value) || isAdminPath(value)) return '/'
  // The banner's "Preferencias de privacidad" link opens it with ?preferencias: close it on return.
  const url = new URL(value, 'http://tienda.invalid')
  url.searchParams.delete('preferencias')
  return `${url.pathname}${url.search}${url.hash}`
}
