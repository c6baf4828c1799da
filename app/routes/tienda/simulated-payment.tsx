import { data, redirect, type RouterContextProvider } from 'react-router'
import {
  SimulatedPaymentChoices,
  type SimulatedChoiceName,
} from '#app/components/simulated-payment-choices.tsx'
import { OrderSummary } from '#app/components/order-summary.tsx'
import { ID_MESSAGES } from '#app/modules/checkout/messages.ts'
import { isUuid } from '#app/utils/ids.ts'
import { discountedOrderView } from '#app/components/order-discounts.ts'
import { getOrder, orderDiscountsOf } from '#app/modules/order/order.server.ts'
import { SIMULATOR_MESSAGES } from '#app/modules/payment/messages.ts'
import { chargedAmount } from '#app/modules/payment/provider.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { refusedRequest } from '#app/utils/answer.server.ts'
import { readFormData } from '#app/utils/forms.server.ts'
import type { Route } from './+types/simulated-payment'
import { CHECKOUT_RESULT_PATHS, orderResultPath } from '#app/utils/paths.ts'

/** Where each outcome returns, as Mercado Pago's back URLs do. */
const RESULTS: Record<SimulatedChoiceName, string> = {
  approved: CHECKOUT_RESULT_PATHS.success,
  pending: CHECKOUT_RESULT_PATHS.pending,
  rejected: CHECKOUT_RESULT_PATHS.failure,
}

/** Exists only while payments are simulated (locally, without MP_ACCESS_TOKEN). */
function simulated(context: Readonly<RouterContextProvider>) {
  const { simulator, database } = servicesOf(context)
  if (!simulator) throw data(null, { status: 404 })
  return { simulator, db: database.db }
}

async function pendingOrder(context: Readonly<RouterContextProvider>, id: string | undefined) {
  // Not one of our ids (garbage, a NUL): no such page, and PostgreSQL never sees it.
  if (!isUuid(id)) throw data(ID_MESSAGES.orderNotFound, { status: 404 })
  const order = await getOrder(simulated(context).db, id)
  if (!order || order.paymentMethod !== 'mercadopago') throw data(null, { status: 404 })
  return order
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const order = await pendingOrder(context, params.id)
  // Only what the summary shows: the page is reachable by anyone holding the link.
  const { number, status, paymentMethod, subtotal, shippingCost, total } = order
  const { items, discounts } = discountedOrderView(
    order,
    await orderDiscountsOf(simulated(context).db, order.id),
  )
  return { order: { number, status, paymentMethod, items, subtotal, shippingCost, discounts, total } }
}

/**
 * Records the chosen outcome (the simulator notifies our webhook, as Mercado Pago would) and returns
 * to the matching back URL with Mercado Pago's query parameters.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const { simulator } = simulated(context)
  const order = await pendingOrder(context, params.id)
  // A late second click or the back button, once the payment settled: show where the order stands.
  if (order.status !== 'pendiente de pago') {
    return redirect(orderResultPath(order.status === 'cancelado' ? 'failure' : 'success', order.id))
  }
  const choice = String((await readFormData(request))?.get('resultado')) as SimulatedChoiceName
  if (!Object.hasOwn(RESULTS, choice)) throw refusedRequest(SIMULATOR_MESSAGES.badChoice, 400)
  // A second click on "Aprobar pago" finds the first approval: no second payment, no second webhook.
  const payment = await simulator.pay({
    orderId: order.id,
    status: choice,
    amount: chargedAmount(order),
  })
  const back = new URLSearchParams({
    collection_id: payment.id,
    collection_status: choice,
    payment_id: payment.id,
    status: choice,
    external_reference: order.id,
    preference_id: order.paymentPreferenceId ?? '',
  })
  return redirect(`${RESULTS[choice]}?${back}`)
}

export const meta: Route.MetaFunction = () => [
  { title: 'Pago simulado' },
  { name: 'robots', content: 'noindex' },
]

export default function SimulatedPayment({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 py-8 text-center">
      <h1 className="text-2xl font-semibold">Pago simulado</h1>
      <p className="text-sm text-gray-700">
        Esta tienda no tiene Mercado Pago configurado: esta página hace sus veces para probar el flujo
        completo.
      </p>
      <OrderSummary order={order} />
      {order.status === 'pendiente de pago' ? (
        <SimulatedPaymentChoices />
      ) : (
        <p className="font-medium">Este pedido está {order.status}.</p>
      )}
    </div>
  )
}
