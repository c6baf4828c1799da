import { invoiceFileRefusal, invoiceFileResponse } from '#app/modules/invoicing/desk.server.ts'
import { INVOICE_DESK_MESSAGES } from '#app/modules/invoicing/messages.ts'
import { orderByNumber } from '#app/modules/order/buyer-page.server.ts'
import { isOrderLinkToken } from '#app/modules/order/status-link.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import type { Route } from './+types/order-invoice'

/**
 * GET /pedido/{número}/factura?clave=…: the order's electronic invoice (PDF) for its buyer, opened
 * by the same signed key as the order's page.
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const services = servicesOf(context)
  const number = /^\d{1,10}$/.test(params.numero) ? Number(params.numero) : null
  const key = url.searchParams.get('clave')
  if (number === null || !isOrderLinkToken(services.orderLinkSecret, number, key)) {
    return invoiceFileRefusal(INVOICE_DESK_MESSAGES.noFile, 404)
  }
  const order = await orderByNumber(services.database.db, number)
  if (!order) return invoiceFileRefusal(INVOICE_DESK_MESSAGES.noFile, 404)
  return invoiceFileResponse({ db: services.database.db, invoicing: services.invoicing }, order.id, 'pdf')
}
