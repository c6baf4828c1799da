import { data, redirect, type RouterContextProvider } from 'react-router'
import {
  SIMULATED_CHOICES,
  SimulatedPaymentChoices,
  type SimulatedChoiceName,
} from '#app/components/simulated-payment-choices.tsx'
import { OrderSummary } from '#app/components/order-summary.tsx'
import { ID_MESSAGES } from '#app/modules/checkout/messages.ts'
import { discountedOrderView } from '#app/components/order-discounts.ts'
import { getOrder, orderDiscountsOf } from '#app/modules/order/order.server.ts'
import { SIMULATOR_MESSAGES } from '#app/modules/payment/messages.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { refusedRequest } from '#app/utils/answer.server.ts'
import { readFormData } from '#app/utils/forms.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import { formatCOP } from '#app/utils/money.ts'
import { CHECKOUT_PATH, SIMULATED_WOMPI_PATH } from '#app/utils/paths.ts'
import type { Route } from './+types/simulated-wompi'

/**
 * The local Wompi Web Checkout, only while Wompi is simulated (no WOMPI_PUBLIC_KEY, this machine):
 * it takes the link the checkout signed, refuses one whose signature does not match its amount and
 * reference (as Wompi's page does), and sends the shopper back to the link's redirect URL.
 */
async function simulatedCheckout(context: Readonly<RouterContextProvider>, url: URL) {
  const { wompiSimulator, database } = servicesOf(context)
  if (!wompiSimulator) throw data(null, { status: 404 })
  const query = url.searchParams
  if (!wompiSimulator.checkLink(query)) throw refusedRequest(SIMULATOR_MESSAGES.badWompiLink, 400)
  const reference = query.get('reference')
  if (!isUuid(reference)) throw data(ID_MESSAGES.orderNotFound, { status: 404 })
  const order = await getOrder(database.db, reference)
  if (!order || order.paymentMethod !== 'wompi') throw data(ID_MESSAGES.orderNotFound, { status: 404 })
  return { simulator: wompiSimulator, order, amount: Number(query.get('amount-in-cents')), query }
}

/** The signed way back, kept to this shop's own Wompi return page (never another site). */
function wayBack(query: URLSearchParams, transactionId: string): string {
  const back = new URL(query.get('redirect-url') ?? '', 'http://tienda.local')
  const path = back.pathname === `${CHECKOUT_PATH}/wompi` ? back.pathname : `${CHECKOUT_PATH}/wompi`
  const search = new URLSearchParams({
    pedido: back.searchParams.get('pedido') ?? query.get('reference') ?? '',
    id: transactionId,
    env: 'test',
  })
  return `${path}?${search}`
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const { order, amount } = await simulatedCheckout(context, url)
  const { number, status, paymentMethod, subtotal, shippingCost, total } = order
  const { items, discounts } = discountedOrderView(
    order,
    await orderDiscountsOf(servicesOf(context).database.db, order.id),
  )
  return {
    amount,
    action: `${SIMULATED_WOMPI_PATH}${url.search}`,
    order: { number, status, paymentMethod, items, subtotal, shippingCost, discounts, total },
  }
}

/** Records the chosen outcome (the simulator posts our events endpoint, as Wompi would) and returns. */
export async function action({ request, url, context }: Route.ActionArgs) {
  const { simulator, order, amount, query } = await simulatedCheckout(context, url)
  const choice = String((await readFormData(request))?.get('resultado')) as SimulatedChoiceName
  if (!Object.hasOwn(SIMULATED_CHOICES, choice)) throw refusedRequest(SIMULATOR_MESSAGES.badChoice, 400)
  // A late click once the order settled: no new transaction, back to where the order stands.
  if (order.status !== 'pendiente de pago') return redirect(wayBack(query, ''))
  const payment = await simulator.pay({ orderId: order.id, status: choice, amount })
  return redirect(wayBack(query, payment.id))
}

export const meta: Route.MetaFunction = () => [
  { title: 'Pago simulado con Wompi' },
  { name: 'robots', content: 'noindex' },
]

export default function SimulatedWompi({ loaderData }: Route.ComponentProps) {
  const { order, amount, action } = loaderData
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 py-8 text-center">
      <h1 className="text-2xl font-semibold">Pago simulado con Wompi</h1>
      <p className="text-sm text-gray-700">
        Esta tienda no tiene Wompi configurado: esta página hace sus veces (PSE, Nequi, Bancolombia o tarjeta)
        para probar el flujo completo.
      </p>
      <p className="font-medium" data-testid="wompi-amount">
        Total a pagar: {formatCOP(amount)}
      </p>
      <OrderSummary order={order} />
      {order.status === 'pendiente de pago' ? (
        <SimulatedPaymentChoices action={action} />
      ) : (
        <p className="font-medium">Este pedido está {order.status}.</p>
      )}
    </div>
  )
}
