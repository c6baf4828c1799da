import { invoiceFileRefusal, invoiceFileResponse } from '#app/modules/invoicing/desk.server.ts'
import { INVOICE_DESK_MESSAGES } from '#app/modules/invoicing/messages.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import type { Route } from './+types/invoice-file'

/**
 * GET /admin/pedidos/factura/{order id}/{pdf|xml}: the order's electronic invoice as a file, for a
 * provider that gives no link of its own (Factus serves its files by API).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const kind = params.kind
  if (!isUuid(params.id) || (kind !== 'pdf' && kind !== 'xml')) {
    return invoiceFileRefusal(INVOICE_DESK_MESSAGES.noFile, 404)
  }
  const { database, invoicing } = servicesOf(context)
  return invoiceFileResponse({ db: database.db, invoicing }, params.id, kind)
}
