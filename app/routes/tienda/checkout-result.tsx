import { CheckCircle, Clock, XCircle } from '#app/components/icons.tsx'
import { useEffect } from 'react'
import { Form, Link, redirect, data, useRevalidator } from 'react-router'
import { toast } from '#app/components/toast.tsx'
import { OrderSummary } from '#app/components/order-summary.tsx'
import { cart } from '#app/modules/cart/cart-store.ts'
import { CLEAR_CART_COOKIE } from '#app/modules/cart/cart-cookie.ts'
import { trackAdEvent } from '#app/modules/marketing/ad-events.ts'
import { CHECKOUT_MESSAGES, ID_MESSAGES } from '#app/modules/checkout/messages.ts'
import { isUuid } from '#app/utils/ids.ts'
import { signedOrderPath } from '#app/modules/order/status-link.server.ts'
import { pagePurchase } from '#app/modules/marketing/events.server.ts'
import { discountedOrderView } from '#app/components/order-discounts.ts'
import { getOrder, orderDiscountsOf } from '#app/modules/order/order.server.ts'
import { PAYMENT_METHOD_LABELS } from '#app/modules/order/messages.ts'
import { isOnlinePaymentMethod } from '#app/modules/order/payment-methods.ts'
import {
  receiptUploadOf,
  saveTransferReceiptFrom,
  transferInstructionsOf,
} from '#app/modules/payment/transfer.server.ts'
import { TRANSFER_MESSAGES, UPLOAD_RECEIPT_INTENT } from '#app/modules/payment/transfer.ts'
import { TransferPayment } from '#app/components/transfer-payment.tsx'
import { startOnlinePayment } from '#app/modules/payment/payment.server.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { readActionAnswer } from '#app/utils/action-answer.ts'
import { formFailure, refusedAnswer } from '#app/utils/answer.server.ts'
import { readFormData } from '#app/utils/forms.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import { orderResultPath } from '#app/utils/paths.ts'
import type { Route } from './+types/checkout-result'

type Outcome = 'success' | 'pending' | 'failure'

function outcomeOf(url: URL): Outcome {
  const last = url.pathname.split('/').pop()
  return last === 'pending' || last === 'failure' ? last : 'success'
}

/** Our own `pedido`, or Mercado Pago's `external_reference` on its back URLs (empty: none). */
function orderIdOf(url: URL) {
  return url.searchParams.get('pedido') || url.searchParams.get('external_reference') || null
}

export async function loader({ url, context }: Route.LoaderArgs) {
  const id = orderIdOf(url)
  // Garbage (or a NUL) never reaches PostgreSQL: it names no order of ours.
  if (id !== null && !isUuid(id)) throw data(ID_MESSAGES.orderNotFound, { status: 404 })
  const order = id ? await getOrder(servicesOf(context).database.db, id) : null
  if (id && !order) throw data(ID_MESSAGES.orderNotFound, { status: 404 })
  const outcome = outcomeOf(url)
  const db = servicesOf(context).database.db
  // A transfer still unpaid: where to pay, and the receipt's form (the order's id is the key to it).
  const awaitingTransfer = order?.paymentMethod === 'transferencia' && order.status === 'pendiente de pago'
  const transfer = awaitingTransfer
    ? {
        instructions: await transferInstructionsOf(db, order),
        receiptUploaded: (await receiptUploadOf(db, order.id)) !== null,
      }
    : null
  // Each line's discounts by name and what it charges, and the order's discount rows.
  const discounted = order
    ? discountedOrderView(order, await orderDiscountsOf(db, order.id))
    : { items: [], discounts: [] }
  return data(
    {
      outcome,
      purchase: outcome === 'success' && order ? pagePurchase(order) : null,
      order: order && {
        id: order.id,
        number: order.number,
        status: order.status,
        paymentMethod: order.paymentMethod,
        items: discounted.items,
        subtotal: order.subtotal,
        shippingCost: order.shippingCost,
        discounts: discounted.discounts,
        total: order.total,
        // The buyer's own page of the order (state, guía, their rights), opened by its signed key.
        statusPath: signedOrderPath(servicesOf(context).orderLinkSecret, order.number),
      },
      transfer,
    },
    // The order is made: its cart is emptied, with or without the page's scripts (as cart.clear()).
    outcome === 'success' && order ? { headers: { 'Set-Cookie': CLEAR_CART_COOKIE } } : undefined,
  )
}

/**
 * "Intentar pagar de nuevo": a new preference for the same order, while it is still pending; or a
 * transfer's receipt (`intent` "comprobante"), kept and answered by coming back to this page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = servicesOf(context)
  const form = await readFormData(request)
  const orderId = form?.get('pedido')
  if (!isUuid(orderId)) return refusedAnswer(ID_MESSAGES.badOrder, 400)
  if (form?.get('intent') === UPLOAD_RECEIPT_INTENT) {
    try {
      // Counted before the file is decoded.
      await services.rateLimits.require('receiptUpload', clientAddressOf(context))
      await saveTransferReceiptFrom(services.database.db, orderId, form)
    } catch (thrown) {
      return formFailure(
        thrown,
        request,
        { unexpected: TRANSFER_MESSAGES.unexpected },
        { intent: UPLOAD_RECEIPT_INTENT },
      )
    }
    // Back to the page, which now says the receipt arrived (a reload posts nothing twice).
    return redirect(orderResultPath('success', orderId))
  }
  let paymentUrl: string
  try {
    paymentUrl = await startOnlinePayment(services.paymentDeps, orderId, services.env.publicUrl, {
      cancelOnFailure: false,
    })
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: CHECKOUT_MESSAGES.noServer })
  }
  return redirect(paymentUrl)
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: TITLES[loaderData?.outcome ?? 'success'] },
  { name: 'robots', content: 'noindex' },
]

const TITLES: Record<Outcome, string> = {
  success: '¡Pago Exitoso!',
  pending: 'Pago Pendiente',
  failure: '¡Error en el Pago!',
}

/** True the first time this browser tab session sees `key` (and always without sessionStorage). */
function firstTime(key: string) {
  try {
    if (sessionStorage.getItem(key)) return false
    sessionStorage.setItem(key, '1')
  } catch {
    // Storage blocked: the event may repeat, and Meta keeps one per eventID.
  }
  return true
}

const ON_DELIVERY_NOTE = 'Pagas al recibir tu pedido: el pago es contra entrega.'
const TRANSFER_NOTE = 'Tu pedido quedó reservado: págalo por transferencia o Bre-B para que lo enviemos.'

/** What each result page says under its heading, true to the order as it stands now. */
export const RESULT_NOTES = {
  confirming: (provider: string) =>
    `${provider} aprobó tu pago y lo estamos confirmando. Esta página se actualiza sola en cuanto llegue la confirmación.`,
  pending: (provider: string) => `Tu pago está en proceso. Te avisaremos cuando ${provider} lo confirme.`,
  failedStillHeld:
    'El pago no se completó. Tu pedido sigue reservado por un tiempo: puedes intentarlo de nuevo.',
  failedCancelled:
    'El pago no se completó y este pedido ya fue cancelado: sus productos volvieron a la tienda. Si aún los quieres, haz un pedido nuevo.',
  alreadyPaid: 'Este pedido ya está pagado: no tienes que pagar de nuevo.',
} as const

/** How often, and for how long, a success page waiting for the provider's notice looks again. */
const CONFIRMATION_POLL_MS = 3_000
const CONFIRMATION_POLLS = 40

type ResultOrder = { status: string; paymentMethod: string } | null

/** The online provider the order is paid through, as the shop names it ("Mercado Pago", "Wompi"). */
const providerOf = (order: ResultOrder) =>
  order && isOnlinePaymentMethod(order.paymentMethod)
    ? PAYMENT_METHOD_LABELS[order.paymentMethod]
    : 'Mercado Pago'

function noteFor(outcome: Outcome, order: ResultOrder): { text: string; testId: string } | null {
  const paid = order?.status === 'pagado' || order?.status === 'Completado'
  if (outcome === 'success') {
    if (order?.status !== 'pendiente de pago') return null
    if (order.paymentMethod === 'acordar') return { text: ON_DELIVERY_NOTE, testId: 'payment-on-delivery' }
    // A transfer: nothing is paid yet, and the box below says where to pay.
    if (!isOnlinePaymentMethod(order.paymentMethod))
      return { text: TRANSFER_NOTE, testId: 'payment-by-transfer' }
    return { text: RESULT_NOTES.confirming(providerOf(order)), testId: 'payment-confirming' }
  }
  if (paid) return { text: RESULT_NOTES.alreadyPaid, testId: 'result-note' }
  if (outcome === 'pending') return { text: RESULT_NOTES.pending(providerOf(order)), testId: 'result-note' }
  if (order?.status === 'cancelado') return { text: RESULT_NOTES.failedCancelled, testId: 'result-note' }
  return { text: RESULT_NOTES.failedStillHeld, testId: 'result-note' }
}

/**
 * Mercado Pago sends the shopper back before its notice of the payment arrives: until it does, the
 * success page looks again every few seconds (for two minutes) and shows the order as it stands.
 */
function useConfirmationPolling(waiting: boolean) {
  const { revalidate } = useRevalidator()
  useEffect(() => {
    if (!waiting) return
    let polls = 0
    const timer = setInterval(() => {
      if (++polls > CONFIRMATION_POLLS) clearInterval(timer)
      else void revalidate()
    }, CONFIRMATION_POLL_MS)
    return () => clearInterval(timer)
  }, [waiting, revalidate])
}

export default function CheckoutResult({ loaderData, actionData }: Route.ComponentProps) {
  const { outcome, order, purchase, transfer } = loaderData
  useEffect(() => {
    if (outcome !== 'success') return
    cart.clear()
    toast.success(CHECKOUT_MESSAGES.success)
  }, [outcome])
  useEffect(() => {
    // The pixel's Purchase (eventID = the order number, as the server's), only when the loader
    // says the order is bought (for an online payment, maybe only once its notice arrived), and
    // once per order in this browser: a reload does not repeat it.
    if (purchase && firstTime(`vitrina:purchase:${purchase.eventId}`))
      trackAdEvent('Purchase', purchase.data, purchase.eventId)
    // Once per order: the rest of the purchase's data does not change under it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [purchase?.eventId])
  const note = noteFor(outcome, order)
  const confirming = note?.testId === 'payment-confirming'
  useConfirmationPolling(confirming)
  const forReceipt = Boolean(
    actionData && 'intent' in actionData && actionData.intent === UPLOAD_RECEIPT_INTENT,
  )
  const receiptRefusal = forReceipt ? readActionAnswer(actionData).message : null
  useEffect(() => {
    // A refused retry reads as a toast; a refused receipt is said beside its form (with or without scripts).
    if (forReceipt) return
    const { message } = readActionAnswer(actionData)
    if (message) toast.error(message)
  }, [actionData, forReceipt])
  const Icon = outcome === 'success' ? CheckCircle : outcome === 'pending' ? Clock : XCircle
  const tone =
    outcome === 'success' ? 'text-green-600' : outcome === 'pending' ? 'text-amber-500' : 'text-red-600'
  return (
    <div className="flex flex-col items-center gap-4 py-10 text-center">
      <Icon className={`size-16 ${tone}`} aria-hidden="true" />
      <h1 className="text-2xl font-semibold">{TITLES[outcome]}</h1>
      {/* The spec's heading over "pendiente de pago" reads as a contradiction without this line. */}
      {note ? (
        <p
          className="max-w-md text-gray-700"
          data-testid={note.testId}
          role={confirming ? 'status' : undefined}
        >
          {note.text}
        </p>
      ) : null}
      {order && transfer ? (
        <TransferPayment
          hiddenFields={{ pedido: order.id }}
          instructions={transfer.instructions}
          receiptUploaded={transfer.receiptUploaded}
          refusal={receiptRefusal}
        />
      ) : null}
      {order ? (
        <OrderSummary order={order} statusLabel={confirming ? 'confirmando el pago' : undefined} />
      ) : null}
      {order ? (
        <p className="max-w-md text-sm text-gray-700">
          <Link
            to={order.statusPath}
            className="font-medium text-brand-700 underline"
            data-testid="order-status-link"
          >
            Sigue tu pedido aquí
          </Link>
          : su estado, la guía del envío y tus derechos de retracto y reversión. Guarda este enlace.
        </p>
      ) : null}
      {outcome === 'failure' &&
      order?.status === 'pendiente de pago' &&
      isOnlinePaymentMethod(order.paymentMethod) ? (
        <Form method="post">
          <input type="hidden" name="pedido" value={order.id} />
          <button
            type="submit"
            className="rounded-full bg-brand-600 px-6 py-3 font-semibold text-white hover:bg-brand-700"
          >
            Intentar pagar de nuevo
          </button>
        </Form>
      ) : null}
      <Link
        to="/"
        className="rounded-full border border-brand-600 px-6 py-2 font-medium text-brand-700 hover:bg-brand-50"
      >
        Volver a la tienda
      </Link>
    </div>
  )
}
