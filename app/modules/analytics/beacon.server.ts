import type { z } from 'zod'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { AuthContext } from '#app/modules/auth/oidc.server.ts'
import { RATE_LIMITS, type RateLimits } from '#app/modules/rate-limits/rate-limits.server.ts'
import { mayMeasure, recordClick, recordedPageName, recordPageView } from './analytics.server.ts'
import { isAdminPath } from './consent.ts'
import { ANALYTICS_MESSAGES, ClickEventSchema, PageViewEventSchema } from './validators.ts'
import { logger } from '#app/utils/logger.server.ts'

type BeaconDeps = { db: DbOrTx; auth: AuthContext | null; limits: RateLimits }

/**
 * Which beacon is counted: a name fixed by the route, never the request's path, which the router
 * matches regardless of case, a trailing slash or percent-encoding (each spelling would otherwise
 * get an allowance, and rows in `rate_limits`, of its own).
 */
type BeaconKind = 'clic' | 'vista'

/**
 * One analytics beacon from the browser (`sendBeacon` posts its JSON as text/plain): checked,
 * recorded or quietly ignored. Answers 204 when nothing is to be said (recorded, or not to be
 * counted: no consent, staff, an /admin page), 400 with the spec's message for a bad event and 429
 * past the client's allowance. Failures are logged here and never shown to the shopper.
 */
async function handleBeacon<Schema extends typeof ClickEventSchema | typeof PageViewEventSchema>(
  deps: BeaconDeps,
  request: Request,
  clientAddress: string | null,
  kind: BeaconKind,
  schema: Schema,
  record: (event: z.infer<Schema>) => Promise<unknown> | null,
): Promise<Response> {
  const refuse = (message: string, status: number) => {
    logger.warn(`[analítica ${kind}] ${message}`)
    return Response.json({ ok: false, message }, { status })
  }
  if (!(await mayMeasure(deps, request))) return new Response(null, { status: 204 })
  if (!(await deps.limits.take('beacon', clientAddress, kind))) return refuse(RATE_LIMITS.beacon.message, 429)
  let body: unknown
  try {
    body = JSON.parse(await request.text())
  } catch {
    return refuse(ANALYTICS_MESSAGES.unreadable, 400)
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) return refuse(parsed.error.issues[0]!.message, 400)
  try {
    await record(parsed.data as z.infer<Schema>)
  } catch (error) {
    // Spec §8: errors writing clicks or visits are only logged.
    logger.error({ err: error }, `[analítica ${kind}]`)
  }
  return new Response(null, { status: 204 })
}

/** Spec §5: clicks from a back-office page are never counted (the tracker never runs there either). */
function fromAdminPage(request: Request): boolean {
  const referer = request.headers.get('Referer')
  if (!referer) return false
  try {
    return isAdminPath(new URL(referer).pathname)
  } catch {
    return false
  }
}

export function handleClickBeacon(deps: BeaconDeps, request: Request, clientAddress: string | null) {
  return handleBeacon(deps, request, clientAddress, 'clic', ClickEventSchema, (event) =>
    fromAdminPage(request) ? null : recordClick(deps.db, event.element_name),
  )
}

export function handlePageViewBeacon(deps: BeaconDeps, request: Request, clientAddress: string | null) {
  return handleBeacon(deps, request, clientAddress, 'vista', PageViewEventSchema, async (event) => {
    if (fromAdminPage(request)) return
    // Only the storefront's pages, by route pattern (spec §5: never /admin; anything else is "otra").
    const pageName = await recordedPageName(deps.db, event.page_title)
    if (pageName === null) return
    await recordPageView(deps.db, { pageName, seconds: event.time_spent, newVisit: event.new_visit })
  })
}
