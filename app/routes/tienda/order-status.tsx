import { isOnlinePaymentMethod } from '#app/modules/order/payment-methods.ts'
import { data, Form, redirect } from 'react-router'
import { OrderLines } from '#app/components/order-summary.tsx'
import { bogotaDay } from '#app/utils/bogota-days.ts'
import {
  CLAIM_MESSAGES,
  CLAIM_STATUS_LABELS,
  CLAIM_TEXT_MAX,
  REVERSAL_CAUSE_LABELS,
} from '#app/modules/order/claims.ts'
import { spanishDay } from '#app/utils/spanish-dates.ts'
import { REVERSAL_CAUSES, type ClaimKind } from '#app/modules/order/schema.ts'
import { discountedOrderView } from '#app/components/order-discounts.ts'
import { orderDiscountsOf } from '#app/modules/order/order.server.ts'
import { buyerOrderPage, orderByNumber, phoneEndsWith } from '#app/modules/order/buyer-page.server.ts'
import { requestRetracto, requestReversal } from '#app/modules/order/request-claim.server.ts'
import { isOrderLinkToken, signedOrderPath } from '#app/modules/order/status-link.server.ts'
import { invoiceOf } from '#app/modules/invoicing/issue.server.ts'
import {
  receiptUploadOf,
  saveTransferReceiptFrom,
  transferInstructionsOf,
} from '#app/modules/payment/transfer.server.ts'
import { UPLOAD_RECEIPT_INTENT } from '#app/modules/payment/transfer.ts'
import { TransferPayment } from '#app/components/transfer-payment.tsx'
import { servicesOf } from '#app/services-context.server.ts'
import { readActionAnswer, successAnswer } from '#app/utils/action-answer.ts'
import { formFailure, refusedAnswer } from '#app/utils/answer.server.ts'
import { clientAddressOf } from '#app/utils/client-address.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { orderStatusPath } from '#app/utils/paths.ts'
import type { Route } from './+types/order-status'

export const meta: Route.MetaFunction = ({ params }) => [
  { title: params.numero ? `Pedido ${params.numero}` : 'Consulta tu pedido' },
  { name: 'robots', content: 'noindex' },
]

// A buyer's own order: never kept by a shared cache.
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const LOOKUP_REFUSED = 'No encontramos un pedido con ese número y esos dígitos del teléfono.'

/** What the buyer's list calls each request ("solicitud": the state labels agree with it). */
const REQUEST_NAMES: Record<ClaimKind, string> = {
  retracto: 'Solicitud de retracto',
  reversion: 'Solicitud de reversión del pago',
}

/** The buyer's word for a cancelled order (`buyerStatusOf`). */
const CANCELLED = 'Cancelado'

const numberOf = (params: { numero?: string }) =>
  /^\d{1,10}$/.test(params.numero ?? '') ? Number(params.numero) : null

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const services = servicesOf(context)
  // `/pedido` alone: the lookup asks for the number too.
  if (params.numero === undefined)
    return { number: null, key: null, order: null, today: '', invoice: null, transfer: null }
  const number = numberOf(params)
  const key = url.searchParams.get('clave')
  if (number === null) throw data('Pedido no encontrado.', { status: 404 })
  // Without its key the page only asks for the digits, and says nothing of whether the order exists.
  if (!isOrderLinkToken(services.orderLinkSecret, number, key))
    return { number, key: null, order: null, today: '', invoice: null, transfer: null }
  const order = await orderByNumber(services.database.db, number)
  if (!order) throw data('Pedido no encontrado.', { status: 404 })
  // Today as the server counts the terms (Bogotá), so the page and the answer agree.
  const now = new Date()
  const invoice = await invoiceOf(services.database.db, order.id, 'invoice')
  // A transfer still unpaid: where to pay, and the receipt's form.
  const transfer =
    order.paymentMethod === 'transferencia' && order.status === 'pendiente de pago'
      ? {
          instructions: await transferInstructionsOf(services.database.db, order),
          receiptUploaded: (await receiptUploadOf(services.database.db, order.id)) !== null,
        }
      : null
  const page = await buyerOrderPage(services.database.db, order, now)
  return {
    number,
    key,
    // Each line's discounts by name and what it charges, and the order's discount rows.
    order: { ...page, ...discountedOrderView(page, await orderDiscountsOf(services.database.db, order.id)) },
    today: bogotaDay(now),
    // The electronic invoice, once DIAN validated it: its PDF through the same key.
    invoice:
      invoice?.status === 'issued'
        ? {
            number: invoice.number,
            pdfPath: `${orderStatusPath(number)}/factura?${new URLSearchParams({ clave: key ?? '' })}`,
          }
        : null,
    transfer,
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = servicesOf(context)
  const form = await requireFormData(request)
  const number =
    params.numero === undefined
      ? numberOf({
          numero: String(form.get('numero') ?? '')
            .trim()
            .replace(/^#/, ''),
        })
      : numberOf(params)
  const intent = String(form.get('intent') ?? '')
  try {
    if (intent === 'consultar') {
      await services.rateLimits.require('orderLookup', clientAddressOf(context))
      const digits = String(form.get('digitos') ?? '').trim()
      const order = number === null ? null : await orderByNumber(services.database.db, number)
      if (!order || !phoneEndsWith(order, digits)) return refusedAnswer(LOOKUP_REFUSED, 400)
      return redirect(signedOrderPath(services.orderLinkSecret, order.number))
    }
    if (number === null) throw data('Pedido no encontrado.', { status: 404 })
    // The requests come from the page its key opened: the same key travels with the form.
    const key = String(form.get('clave') ?? '')
    if (!isOrderLinkToken(services.orderLinkSecret, number, key)) return refusedAnswer(LOOKUP_REFUSED, 403)
    const order = await orderByNumber(services.database.db, number)
    if (!order) throw data('Pedido no encontrado.', { status: 404 })
    const notices = { jobs: services.jobs, notifyNumbers: services.env.WHATSAPP_NOTIFY_NUMBERS }
    if (intent === UPLOAD_RECEIPT_INTENT) {
      // Counted before the file is decoded.
      await services.rateLimits.require('receiptUpload', clientAddressOf(context))
      await saveTransferReceiptFrom(services.database.db, order.id, form)
      // Back to the page, which now says the receipt arrived (a reload posts nothing twice).
      return redirect(signedOrderPath(services.orderLinkSecret, order.number))
    }
    const description = String(form.get('descripcion') ?? '')
    if (intent === 'retracto') {
      await requestRetracto(services.database.db, notices, { orderId: order.id, description })
      return successAnswer(CLAIM_MESSAGES.retractoRequested)
    }
    if (intent === 'reversion') {
      await requestReversal(services.database.db, notices, {
        orderId: order.id,
        cause: String(form.get('motivo') ?? ''),
        learnedOn: String(form.get('fecha') ?? ''),
        description,
      })
      return successAnswer(CLAIM_MESSAGES.reversalRequested)
    }
    return refusedAnswer('Acción no reconocida.', 400)
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: 'No se pudo enviar tu solicitud. Intenta nuevamente.' })
  }
}

const box = 'rounded-2xl border border-brand-100 p-4'
const button =
  'self-start rounded-full bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60'
const field = 'rounded-xl border border-brand-100 px-3 py-2'

function Answer({ answer }: { answer: ReturnType<typeof readActionAnswer> }) {
  if (!answer.message) return null
  return (
    <p
      role={answer.tone === 'error' ? 'alert' : 'status'}
      data-testid="order-page-message"
      className={`rounded-xl p-3 text-sm ${answer.tone === 'error' ? 'bg-red-50 text-red-700' : 'bg-green-50 text-green-800'}`}
    >
      {answer.message}
    </p>
  )
}

function Lookup({ number, answer }: { number: number | null; answer: ReturnType<typeof readActionAnswer> }) {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 py-6">
      <h1 className="text-2xl font-semibold">Consulta tu pedido{number === null ? '' : ` ${number}`}</h1>
      <p className="text-sm text-gray-700">
        Escribe {number === null ? 'el número de tu pedido y ' : ''}los últimos 4 dígitos del teléfono con el
        que lo hiciste, o abre el enlace que te enviamos después de comprar.
      </p>
      <Answer answer={answer} />
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="consultar" />
        {number === null ? (
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Número de pedido</span>
            <input name="numero" inputMode="numeric" autoComplete="off" required className={field} />
          </label>
        ) : null}
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Últimos 4 dígitos del teléfono</span>
          <input
            name="digitos"
            inputMode="numeric"
            pattern="[0-9]{4}"
            maxLength={4}
            autoComplete="off"
            required
            className={field}
          />
        </label>
        <button type="submit" className={button}>
          Ver mi pedido
        </button>
      </Form>
    </div>
  )
}

export default function OrderStatusPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = readActionAnswer(actionData)
  const { order, key, number, today, invoice, transfer } = loaderData
  if (!order || !key) return <Lookup number={number} answer={answer} />
  // A cancelled order (a withdrawal accepted, or cancelled before delivery) has nothing left to ask.
  const cancelled = order.status === CANCELLED
  const pending = order.claims.some((claim) => claim.status === 'pendiente')
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-5 py-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold">Pedido {order.number}</h1>
        <p className="text-sm text-gray-600">Hecho el {spanishDay(bogotaDay(new Date(order.createdAt)))}</p>
        <p className="text-lg" data-testid="buyer-order-status">
          Estado: <strong>{order.status}</strong>
        </p>
      </header>
      <Answer answer={answer} />
      {transfer ? (
        <TransferPayment
          hiddenFields={{ clave: key }}
          instructions={transfer.instructions}
          receiptUploaded={transfer.receiptUploaded}
          // A refused receipt is said just above, with the page's other answers.
          refusal={null}
        />
      ) : null}
      <section className={box} aria-labelledby="productos">
        <h2 id="productos" className="mb-2 font-semibold">
          Productos
        </h2>
        <div className="text-sm">
          <OrderLines order={order} />
        </div>
        <p className="mt-3 text-sm text-gray-700">Envío a: {order.destination}</p>
        {order.shipment ? (
          <p className="mt-1 text-sm" data-testid="buyer-shipment">
            Guía {order.shipment.trackingNumber}
            {order.shipment.carrier ? ` (${order.shipment.carrier})` : ''}
            {order.shipment.trackingUrl ? (
              <>
                {' · '}
                <a
                  href={order.shipment.trackingUrl}
                  className="font-medium text-brand-700 underline"
                  target="_blank"
                  rel="noreferrer"
                  data-testid="buyer-tracking"
                >
                  Seguir el envío
                </a>
              </>
            ) : null}
          </p>
        ) : null}
        {invoice ? (
          <p className="mt-1 text-sm" data-testid="buyer-invoice">
            Factura electrónica {invoice.number}:{' '}
            <a
              href={invoice.pdfPath}
              className="font-medium text-brand-700 underline"
              target="_blank"
              rel="noopener"
            >
              ver PDF
            </a>
          </p>
        ) : null}
      </section>
      {order.claims.length ? (
        <section className={box} aria-labelledby="solicitudes">
          <h2 id="solicitudes" className="mb-2 font-semibold">
            Tus solicitudes
          </h2>
          <ul className="flex flex-col gap-2 text-sm" data-testid="buyer-claims">
            {order.claims.map((claim) => (
              <li key={claim.id}>
                <strong>{REQUEST_NAMES[claim.kind]}</strong> del{' '}
                {spanishDay(bogotaDay(new Date(claim.requestedAt)))}:{' '}
                {CLAIM_STATUS_LABELS[claim.status].toLowerCase()}.
                {claim.cause ? ` Motivo: ${REVERSAL_CAUSE_LABELS[claim.cause]}.` : ''}
                {claim.status === 'pendiente'
                  ? claim.kind === 'retracto'
                    ? ` Te escribiremos para acordar la devolución del producto; el dinero se devuelve a más tardar el ${spanishDay(claim.deadline)}.`
                    : ` Te respondemos a más tardar el ${spanishDay(claim.deadline)}.`
                  : ''}
                {claim.answer ? ` Respuesta de la tienda: ${claim.answer}.` : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {cancelled ? null : (
        <section className={box} aria-labelledby="retracto">
          <h2 id="retracto" className="mb-2 font-semibold">
            Derecho de retracto
          </h2>
          <p className="text-sm text-gray-700">
            Puedes retractarte de tu compra dentro de los 5 días hábiles siguientes a la entrega (Ley 1480 de
            2011, art. 47). Devuelves el producto en el estado en que lo recibiste, por tu cuenta, y te
            devolvemos todo lo pagado, sin descuentos, dentro de los 30 días calendario siguientes.
          </p>
          {order.retracto?.open ? (
            <Form method="post" className="mt-3 flex flex-col gap-2">
              <input type="hidden" name="intent" value="retracto" />
              <input type="hidden" name="clave" value={key} />
              <p className="text-sm">
                Puedes pedirlo hasta el <strong>{spanishDay(order.retracto.lastDay)}</strong>.
              </p>
              {order.items.some((item) => item.personalUse) ? (
                <p className="text-sm text-gray-700" data-testid="retracto-excluded">
                  {CLAIM_MESSAGES.personalUseItems(
                    order.items.filter((item) => item.personalUse).map((item) => item.title),
                  )}
                </p>
              ) : null}
              <label className="flex flex-col gap-1 text-sm">
                <span className="font-medium">Cuéntanos el motivo (opcional)</span>
                <textarea name="descripcion" maxLength={CLAIM_TEXT_MAX} rows={2} className={field} />
              </label>
              <button type="submit" className={button}>
                Solicitar retracto
              </button>
            </Form>
          ) : order.retracto ? (
            <p className="mt-2 text-sm text-gray-700" data-testid="retracto-closed">
              {order.retracto.reason}
            </p>
          ) : pending ? (
            <p className="mt-2 text-sm text-gray-700">{CLAIM_MESSAGES.alreadyOpen}</p>
          ) : null}
        </section>
      )}
      {isOnlinePaymentMethod(order.paymentMethod) && !cancelled ? (
        <section className={box} aria-labelledby="reversion">
          <h2 id="reversion" className="mb-2 font-semibold">
            Reversión del pago
          </h2>
          <p className="text-sm text-gray-700">
            Si pagaste en línea y hubo fraude, no pediste la compra, no recibiste el producto, no corresponde
            a lo que pediste o llegó defectuoso, pide aquí la reversión dentro de los 5 días hábiles
            siguientes a cuando lo supiste, y avisa también al emisor de tu medio de pago (Ley 1480 de 2011,
            art. 51; Decreto 587 de 2016).
          </p>
          {order.reversal?.open ? (
            <Form method="post" className="mt-3 flex flex-col gap-2">
              <input type="hidden" name="intent" value="reversion" />
              <input type="hidden" name="clave" value={key} />
              {/* Named by its label alone: wrapped in it, the options' texts would join its name. */}
              <div className="flex flex-col gap-1 text-sm">
                <label htmlFor="reversion-motivo" className="font-medium">
                  Motivo
                </label>
                <select
                  id="reversion-motivo"
                  name="motivo"
                  required
                  defaultValue=""
                  className={`${field} bg-white`}
                >
                  <option value="">Selecciona…</option>
                  {REVERSAL_CAUSES.map((cause) => (
                    <option key={cause} value={cause}>
                      {REVERSAL_CAUSE_LABELS[cause]}
                    </option>
                  ))}
                </select>
              </div>
              <label className="flex flex-col gap-1 text-sm">
                <span className="font-medium">¿Cuándo supiste del motivo?</span>
                <input type="date" name="fecha" required defaultValue={today} max={today} className={field} />
              </label>
              <label className="flex flex-col gap-1 text-sm">
                <span className="font-medium">Cuéntanos qué pasó (opcional)</span>
                <textarea name="descripcion" maxLength={CLAIM_TEXT_MAX} rows={2} className={field} />
              </label>
              <button type="submit" className={button}>
                Solicitar reversión del pago
              </button>
            </Form>
          ) : order.reversal ? (
            <p className="mt-2 text-sm text-gray-700">{order.reversal.reason}</p>
          ) : pending ? (
            <p className="mt-2 text-sm text-gray-700">{CLAIM_MESSAGES.alreadyOpen}</p>
          ) : null}
        </section>
      ) : null}
    </div>
  )
}
