import { data } from 'react-router'
import { receivePaymentNotification } from '#app/modules/payment/payment.server.ts'
import { verifyNotificationSignature } from '#app/modules/payment/signature.server.ts'
import { getServices } from '#app/services.server.ts'
import type { Route } from './+types/mercadopago-webhook'

/**
 * Mercado Pago notifications: checked, remembered and answered at once; a job does the work.
 * integrations.md: the signed id is `data.id` from the query string.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== 'POST') throw data(null, { status: 405 })
  const services = getServices()
  const url = new URL(request.url)
  // The signature covers the query string's id only, so that is the one we act on.
  const dataId = url.searchParams.get('data.id') ?? url.searchParams.get('id')
  if (!dataId) return data({ ok: false, error: 'sin data.id' }, { status: 400 })
  const requestId = request.headers.get('x-request-id')
  const check = services.webhookSecret
    ? verifyNotificationSignature({
        secret: services.webhookSecret,
        header: request.headers.get('x-signature'),
        requestId,
        dataId,
      })
    : ({ ok: false, reason: 'missing' } as const)
  if (!check.ok) return data({ ok: false, error: `firma inválida (${check.reason})` }, { status: 401 })

  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>
  const topic = String(url.searchParams.get('type') ?? url.searchParams.get('topic') ?? body.type ?? '')
  const resourceId = dataId
  const eventId = body.id !== undefined ? String(body.id) : `${topic}:${resourceId}:${requestId ?? ''}`
  const outcome = await receivePaymentNotification(services.paymentDeps, {
    eventId,
    topic,
    resourceId,
    payload: body,
  })
  return { ok: true, outcome }
}

export function loader() {
  throw data(null, { status: 405 })
}
