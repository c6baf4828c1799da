import { shipmentLabelResponse } from '#app/modules/carriers/shipments.server.ts'
import { SHIPMENT_MESSAGES } from '#app/modules/carriers/messages.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import type { Route } from './+types/carrier-label'

/** GET /admin/pedidos/guia-transportadora/{order id}: the carrier's label (PDF) of the order's guía. */
export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) {
    return new Response(SHIPMENT_MESSAGES.noShipment, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  return shipmentLabelResponse(servicesOf(context).database.db, params.id)
}
