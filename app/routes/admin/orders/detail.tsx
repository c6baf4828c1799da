import { data, Link, useNavigation } from 'react-router'
import { ActionMessage } from '#app/components/admin/form-message.tsx'
import { releaseLabel } from '#app/components/admin/order-bits.tsx'
import { adminCan, requirePermission, signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { cancelOrderAtDesk } from '#app/modules/order/cancel.server.ts'
import { CLAIM_MESSAGES } from '#app/modules/order/claims.ts'
import { completeOrder } from '#app/modules/order/complete.server.ts'
import { acceptClaim, refuseClaim } from '#app/modules/order/decide-claim.server.ts'
import { deskClaimsOf } from '#app/modules/order/request-claim.server.ts'
import { signedOrderPath } from '#app/modules/order/status-link.server.ts'
import { confirmOrder } from '#app/modules/order/confirm.server.ts'
import { MUNICIPALITY_MESSAGES, SET_MUNICIPALITY_INTENT } from '#app/modules/order/delivery-place.ts'
import { getDeskOrder } from '#app/modules/order/desk.server.ts'
import { discountedOrderView } from '#app/components/order-discounts.ts'
import {
  requestShipmentLabel,
  requestShipmentTracking,
  shipmentDeskOf,
} from '#app/modules/carriers/shipments.server.ts'
import { BUY_LABEL_INTENT, SHIPMENT_MESSAGES, TRACK_SHIPMENT_INTENT } from '#app/modules/carriers/messages.ts'
import { invoiceDeskOf, requestOrderInvoice } from '#app/modules/invoicing/desk.server.ts'
import { INVOICE_DESK_MESSAGES, ISSUE_INVOICE_INTENT } from '#app/modules/invoicing/messages.ts'
import { markPaidAtDesk, receiptUploadOf } from '#app/modules/payment/transfer.server.ts'
import { orderLedgerPayments, startPaymentRefund } from '#app/modules/payment/reconciliation.server.ts'
import { PaymentRefundSchema, PAYMENTS_MESSAGES } from '#app/modules/payment/reconciliation.ts'
import { isOnlinePaymentMethod } from '#app/modules/order/payment-methods.ts'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { setOrderMunicipality } from '#app/modules/order/set-municipality.server.ts'
import { shipOrder } from '#app/modules/order/ship.server.ts'
import { confirmationChatUrl, shippedChatUrl } from '#app/modules/order/whatsapp-confirmation.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { successAnswer } from '#app/utils/action-answer.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import { adminOrdersPath } from '#app/utils/admin-paths.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { ActionsSection } from './detail/actions-section.tsx'
import { ClaimsSection } from './detail/claims-section.tsx'
import { CustomerSection } from './detail/customer-section.tsx'
import { claimsFor, deskOrderFor, shipmentFor, type DeskCan } from './detail/desk-view.ts'
import { InvoiceSection } from './detail/invoice-section.tsx'
import { ItemsSection } from './detail/items-section.tsx'
import { MovementsSection } from './detail/movements-section.tsx'
import { OrderHeading } from './detail/order-heading.tsx'
import { PaymentSection } from './detail/payment-section.tsx'
import { ShipmentSection } from './detail/shipment-section.tsx'
import { TimelineSection } from './detail/timeline-section.tsx'
import type { Route } from './+types/detail'
import { formText } from '#app/utils/form-text.ts'

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData ? `Pedido #${loaderData.order.number}` : 'Pedido'} | Administración` },
]

const notFound = () => data({ message: ORDER_DESK_MESSAGES.notFound }, { status: 404 })

/** The desk without an invoice section: for a role that may not see money. */
const NO_INVOICING = { invoice: null, creditNote: null, canIssue: false }

export async function loader({ params, context }: Route.LoaderArgs) {
  // Anything but one of our ids names no order (and never reaches PostgreSQL as a bad uuid).
  if (!isUuid(params.id)) throw notFound()
  const { database, env, orderLinkSecret, carriers } = servicesOf(context)
  const admin = signedInAdminOf(context)
  // What the role may see and do (issue 27): Bodega packs and ships, without money figures.
  const can: DeskCan = {
    money: adminCan(admin, 'money'),
    costs: adminCan(admin, 'costs'),
    orders: adminCan(admin, 'orders'),
  }
  const found = await getDeskOrder(database.db, params.id, env.COD_CONFIRMATION_HOURS)
  if (!found) throw notFound()
  // Each line's discounts by name and what it charges, and the order's discount rows.
  const order = { ...found, ...discountedOrderView(found, found.appliedDiscounts) }
  const openCash =
    order.paymentMethod === 'acordar' &&
    !order.confirmedAt &&
    !order.shippedAt &&
    (order.status === 'pendiente de pago' || order.status === 'pagado')
  const statusUrl = `${env.publicUrl}${signedOrderPath(orderLinkSecret, order.number)}`
  const claims = await deskClaimsOf(database.db, order.id)
  const shipping = await shipmentDeskOf({ db: database.db, carriers }, order)
  return {
    can,
    order: deskOrderFor(order, can),
    claims: claimsFor(claims, can),
    invoicing: can.money ? await invoiceDeskOf(database.db, order) : NO_INVOICING,
    shipping: { ...shipping, shipment: shipmentFor(shipping.shipment, can) },
    release: releaseLabel(order.releaseAt, new Date()),
    // The buyer's transfer receipt, once uploaded: the owner checks it against the bank.
    receipt:
      can.money && order.paymentMethod === 'transferencia'
        ? await receiptUploadOf(database.db, order.id)
        : null,
    // Every payment heard of for it (a second one, or one after cancelling, can be refunded here).
    payments: can.money ? await orderLedgerPayments(database.db, order.id) : [],
    // Both messages name what the buyer pays: written only for whom may see money.
    whatsAppUrl:
      openCash && can.money && can.orders ? confirmationChatUrl(order, env.STORE_NAME, statusUrl) : null,
    // Once it left with a guía: the buyer is told where to follow it.
    shippedWhatsAppUrl:
      can.money &&
      order.trackingNumber &&
      order.shippedAt &&
      (order.status === 'pendiente de pago' || order.status === 'pagado')
        ? shippedChatUrl(order, env.STORE_NAME, statusUrl)
        : null,
  }
}

/** The desk's shipping steps, open to Bodega; every other action asks for `orders` (issue 27). */
const SHIPPING_INTENTS: ReadonlySet<unknown> = new Set(['enviar', BUY_LABEL_INTENT, TRACK_SHIPMENT_INTENT])

/**
 * The desk's actions: `enviar`, `pagado`, `cancelar`, `completar`, `confirmar`, `municipio` (the
 * owner picks the DANE municipality of an order that has none), and the carrier's guía: buy it
 * (`guia-generar`) and ask for its tracking now (`guia-seguimiento`). Shipping (`enviar` and the
 * guía) is open to every role that opens the desk; anything else needs `orders` (a 403 for Bodega).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const form = await requireFormData(request)
  const { database, jobs, carriers } = servicesOf(context)
  const db = database.db
  const text = (name: string) => formText(form, name)
  try {
    const intent = form.get('intent')
    if (!SHIPPING_INTENTS.has(intent)) requirePermission(admin, 'orders')
    if (!isUuid(params.id)) throw new Refusal(ORDER_DESK_MESSAGES.notFound, { status: 404 })
    const id = params.id
    const by = admin.email
    switch (intent) {
      case 'enviar':
        await shipOrder(
          db,
          jobs,
          id,
          { carrier: text('carrier'), trackingNumber: text('trackingNumber') },
          by,
        )
        return successAnswer(ORDER_DESK_MESSAGES.shipped)
      case 'pagado':
        await markPaidAtDesk(db, jobs, id, by)
        return successAnswer(ORDER_DESK_MESSAGES.paid)
      case 'cancelar':
        await cancelOrderAtDesk(db, jobs, id, text('reason'), by)
        return successAnswer(ORDER_DESK_MESSAGES.cancelled)
      case 'completar':
        await completeOrder(db, jobs, id, by)
        return successAnswer(ORDER_DESK_MESSAGES.completed)
      case 'confirmar':
        await confirmOrder(db, jobs, id, by)
        return successAnswer(ORDER_DESK_MESSAGES.confirmed)
      case 'reclamo-aceptar':
        await acceptClaim(db, jobs, { claimId: Number(text('claimId')), by, refundNote: text('refundNote') })
        return successAnswer(CLAIM_MESSAGES.accepted)
      case 'reclamo-rechazar':
        await refuseClaim(db, { claimId: Number(text('claimId')), by, reason: text('reason') })
        return successAnswer(CLAIM_MESSAGES.refused)
      case ISSUE_INVOICE_INTENT:
        await requestOrderInvoice(db, jobs, id, by)
        return successAnswer(INVOICE_DESK_MESSAGES.queued)
      case BUY_LABEL_INTENT:
        await requestShipmentLabel({ db, jobs, carriers }, id, by)
        return successAnswer(SHIPMENT_MESSAGES.queued)
      case TRACK_SHIPMENT_INTENT:
        await requestShipmentTracking({ db, jobs }, id, by)
        return successAnswer(SHIPMENT_MESSAGES.trackQueued)
      case 'reembolsar': {
        const refund = PaymentRefundSchema.safeParse(Object.fromEntries(form))
        if (!refund.success) throw new Refusal(PAYMENTS_MESSAGES.badRefund, { status: 400 })
        const started = await startPaymentRefund(db, jobs, { ...refund.data, by, orderId: id })
        return successAnswer(started.message)
      }
      case SET_MUNICIPALITY_INTENT:
        await setOrderMunicipality(db, { orderId: id, municipalityCode: text('municipality_code'), by })
        return successAnswer(MUNICIPALITY_MESSAGES.saved)
      default:
        throw new Refusal(ORDER_DESK_MESSAGES.unknownAction, { status: 400 })
    }
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: ORDER_DESK_MESSAGES.failed })
  }
}

export default function AdminOrderDetail({ loaderData, actionData }: Route.ComponentProps) {
  const {
    can,
    order,
    claims,
    invoicing,
    shipping,
    release,
    whatsAppUrl,
    shippedWhatsAppUrl,
    receipt,
    payments,
  } = loaderData
  const busy = useNavigation().state !== 'idle'
  const open = order.status === 'pendiente de pago' || order.status === 'pagado'
  return (
    <article aria-labelledby="order-title" className="flex flex-col gap-4">
      <OrderHeading order={order} release={release} carrierLabel={Boolean(shipping.shipment?.hasLabel)} />
      <ActionMessage answer={actionData} />

      {claims.length ? (
        <ClaimsSection
          claims={claims}
          refundByHand={!isOnlinePaymentMethod(order.paymentMethod) || !order.paymentId}
          canDecide={can.orders}
          busy={busy}
        />
      ) : null}

      {/* Bodega's only action is shipping: nothing to show once the order left. */}
      {open && (can.orders || !order.shippedAt) ? (
        <ActionsSection order={order} whatsAppUrl={whatsAppUrl} canDecide={can.orders} busy={busy} />
      ) : null}

      <ShipmentSection {...shipping} shippedWhatsAppUrl={shippedWhatsAppUrl} busy={busy} />

      <div className="grid gap-4 lg:grid-cols-2">
        <CustomerSection order={order} canSetMunicipality={can.orders} busy={busy} />
        <PaymentSection order={order} receipt={receipt} payments={payments} money={can.money} />
      </div>

      <ItemsSection order={order} />

      {can.money ? <InvoiceSection orderId={order.id} {...invoicing} busy={busy} /> : null}

      {order.movements.length ? <MovementsSection movements={order.movements} /> : null}

      <TimelineSection events={order.events} />
      <p>
        <Link to={adminOrdersPath()} className="text-sm text-brand-700 underline">
          Volver a la lista de pedidos
        </Link>
      </p>
    </article>
  )
}
