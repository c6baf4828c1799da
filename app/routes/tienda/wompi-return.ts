import { data, redirect } from 'react-router'
import { ID_MESSAGES } from '#app/modules/checkout/messages.ts'
import { getOrder } from '#app/modules/order/order.server.ts'
import { settleReturnedPayment } from '#app/modules/payment/payment.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import { orderResultPath } from '#app/utils/paths.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import type { Route } from './+types/wompi-return'

/** Wompi's transaction ids; anything else names none (and never reaches Wompi's API). */
const TRANSACTION_ID = /^[\w-]{1,64}$/

/**
 * Where Wompi's checkout sends the shopper back (`?pedido=…&id={transaction}`): the transaction is
 * read from Wompi, the order settled by what Wompi says, and the shopper sent on to the result page
 * of the order as it stands.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const orderId = url.searchParams.get('pedido')
  if (!isUuid(orderId)) throw data(ID_MESSAGES.orderNotFound, { status: 404 })
  const { paymentDeps, database, rateLimits } = servicesOf(context)
  const order = await getOrder(database.db, orderId)
  if (!order || order.paymentMethod !== 'wompi') throw data(ID_MESSAGES.orderNotFound, { status: 404 })
  const id = url.searchParams.get('id')
  // Each return asks Wompi: past the client's allowance the page shows the order as it stands
  // (the event's job still settles it), never an error to a shopper reloading it.
  const asks =
    Boolean(id && TRANSACTION_ID.test(id)) &&
    (await rateLimits.take('paymentReturn', clientAddressOf(context)))
  const outcome = await settleReturnedPayment(paymentDeps, 'wompi', orderId, asks ? id : null)
  return redirect(orderResultPath(outcome, orderId))
}
