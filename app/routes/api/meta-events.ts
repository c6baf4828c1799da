import { readTrackingRequest, recordBrowserEvent } from '#app/modules/marketing/events.server.ts'
import { BrowserEventSchema, META_EVENT_MESSAGES } from '#app/modules/marketing/validators.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { jsonFailure } from '#app/utils/answer.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/meta-events'

/** Far above any event the pixel module sends. */
const MAX_BODY_BYTES = 8 * 1024

/**
 * POST /api/eventos-meta: a Meta Pixel event from a shopper's browser, forwarded to the Conversions
 * API as a job with the same event id (see marketing/events.server.ts for who is refused). Answers
 * 202 `{ ok: true }`, or JSON `{ ok: false, message }` with the refusal's status.
 */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    if (request.method !== 'POST') throw new Refusal(META_EVENT_MESSAGES.badData, { status: 405 })
    const text = await request.text().catch(() => '')
    if (text.length > MAX_BODY_BYTES) throw new Refusal(META_EVENT_MESSAGES.badData, { status: 413 })
    let body: unknown = null
    try {
      body = JSON.parse(text)
    } catch {
      throw new Refusal(META_EVENT_MESSAGES.badData, { status: 400 })
    }
    const parsed = BrowserEventSchema.safeParse(body)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const message =
        issue?.path[0] === 'eventName'
          ? META_EVENT_MESSAGES.badName
          : issue?.path[0] === 'eventId'
            ? META_EVENT_MESSAGES.badId
            : issue?.path[0] === 'eventSourceUrl'
              ? META_EVENT_MESSAGES.badUrl
              : META_EVENT_MESSAGES.badData
      throw new Refusal(message, { status: 400 })
    }
    const { database, jobs, marketing, rateLimits } = servicesOf(context)
    const tracking = readTrackingRequest(request, clientAddressOf(context), [parsed.data.eventSourceUrl])
    await recordBrowserEvent(
      { db: database.db, jobs, settings: marketing.settings, limits: rateLimits },
      tracking,
      parsed.data,
    )
    return Response.json({ ok: true }, { status: 202 })
  } catch (thrown) {
    return jsonFailure(thrown, request, { unexpected: 'No se pudo registrar el evento.' })
  }
}
