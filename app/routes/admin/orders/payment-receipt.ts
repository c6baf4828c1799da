import { receiptOf } from '#app/modules/payment/transfer.server.ts'
import { TRANSFER_MESSAGES } from '#app/modules/payment/transfer.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import type { Route } from './+types/payment-receipt'

const notFound = () =>
  new Response(TRANSFER_MESSAGES.noReceipt, {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
  })

/**
 * GET /admin/pedidos/comprobante/{order id}: the buyer's transfer receipt, as uploaded. The bytes
 * are the buyer's, so the browser is told exactly what they are and never to guess; an image
 * also opens sandboxed, so nothing in it can act as the back office.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) return notFound()
  const receipt = await receiptOf(servicesOf(context).database.db, params.id)
  if (!receipt) return notFound()
  const pdf = receipt.contentType === 'application/pdf'
  const headers = new Headers({
    'Content-Type': receipt.contentType,
    'Content-Length': String(receipt.bytes.length),
    'Content-Disposition': `inline; filename="comprobante-${params.id}.${pdf ? 'pdf' : receipt.contentType.split('/')[1]}"`,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  })
  // Chrome and Safari refuse to run their PDF viewers in a sandboxed document (they show
  // "blocked"), so a PDF keeps the site's policy, its pinned type and nosniff: those viewers keep
  // a PDF's scripts away from the page's origin.
  if (!pdf) headers.set('Content-Security-Policy', "sandbox; default-src 'none'; img-src 'self'")
  return new Response(new Uint8Array(receipt.bytes), { headers })
}
