import { data, Link, useNavigation } from 'react-router'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  dangerButtonClass,
  FormMessage,
  inputClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import {
  Flag,
  formatOrderDate,
  PAYMENT_METHOD_LABELS,
  releaseLabel,
  StatusBadge,
} from '#app/components/admin/order-bits.tsx'
import { signedInAdminOf } from '#app/modules/auth/guard.server.ts'
import { cancelOrderAtDesk } from '#app/modules/order/cancel.server.ts'
import { completeOrder } from '#app/modules/order/complete.server.ts'
import { confirmOrder } from '#app/modules/order/confirm.server.ts'
import { getDeskOrder } from '#app/modules/order/desk.server.ts'
import { markOrderPaidAtDesk } from '#app/modules/order/mark-paid.server.ts'
import {
  CANCEL_REASON_MAX,
  CANCEL_REASONS,
  ORDER_DESK_MESSAGES,
  SHIPMENT_TEXT_MAX,
} from '#app/modules/order/messages.ts'
import { shipOrder } from '#app/modules/order/ship.server.ts'
import { canTransition } from '#app/modules/order/status.ts'
import { confirmationChatUrl } from '#app/modules/order/whatsapp-confirmation.ts'
import { servicesOf } from '#app/services-context.server.ts'
import { formFailure } from '#app/utils/answer.server.ts'
import { requireFormData } from '#app/utils/forms.server.ts'
import { isUuid } from '#app/utils/ids.ts'
import { formatCOP } from '#app/utils/money.ts'
import { adminOrderPath, adminPackingSlipPath, adminOrdersPath } from '#app/utils/admin-paths.ts'
import { Refusal } from '#app/utils/refusal.ts'
import type { Route } from './+types/detail'

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData ? `Pedido #${loaderData.order.number}` : 'Pedido'} | Administración` },
]

const notFound = () => data({ message: ORDER_DESK_MESSAGES.notFound }, { status: 404 })

export async function loader({ params, context }: Route.LoaderArgs) {
  // Anything but one of our ids names no order (and never reaches PostgreSQL as a bad uuid).
  if (!isUuid(params.id)) throw notFound()
  const { database, env } = servicesOf(context)
  const order = await getDeskOrder(database.db, params.id, env.COD_CONFIRMATION_HOURS)
  if (!order) throw notFound()
  const openCash =
    order.paymentMethod === 'acordar' &&
    !order.confirmedAt &&
    !order.shippedAt &&
    (order.status === 'pendiente de pago' || order.status === 'pagado')
  return {
    order,
    release: releaseLabel(order.releaseAt, new Date()),
    whatsAppUrl: openCash ? confirmationChatUrl(order, env.STORE_NAME) : null,
  }
}

/** The desk's actions: `enviar`, `pagado`, `cancelar`, `completar`, `confirmar`. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdminOf(context)
  const form = await requireFormData(request)
  const { database, jobs } = servicesOf(context)
  const db = database.db
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  try {
    if (!isUuid(params.id)) throw new Refusal(ORDER_DESK_MESSAGES.notFound, { status: 404 })
    const id = params.id
    const by = admin.email
    switch (form.get('intent')) {
      case 'enviar':
        await shipOrder(
          db,
          jobs,
          id,
          { carrier: text('carrier'), trackingNumber: text('trackingNumber') },
          by,
        )
        return { ok: true, message: ORDER_DESK_MESSAGES.shipped, at: Date.now() }
      case 'pagado':
        await markOrderPaidAtDesk(db, id, by)
        return { ok: true, message: ORDER_DESK_MESSAGES.paid, at: Date.now() }
      case 'cancelar':
        await cancelOrderAtDesk(db, jobs, id, text('reason'), by)
        return { ok: true, message: ORDER_DESK_MESSAGES.cancelled, at: Date.now() }
      case 'completar':
        await completeOrder(db, jobs, id, by)
        return { ok: true, message: ORDER_DESK_MESSAGES.completed, at: Date.now() }
      case 'confirmar':
        await confirmOrder(db, id, by)
        return { ok: true, message: ORDER_DESK_MESSAGES.confirmed, at: Date.now() }
      default:
        throw new Refusal(ORDER_DESK_MESSAGES.unknownAction, { status: 400 })
    }
  } catch (thrown) {
    return formFailure(thrown, request, { unexpected: ORDER_DESK_MESSAGES.failed })
  }
}

const MOVEMENT_LABELS: Record<string, string> = { in: 'Entrada', out: 'Salida' }

/** Spec §4: every status change waits for the browser's confirm. */
function confirmChange(state: string) {
  return (event: React.FormEvent<HTMLFormElement>) => {
    if (!window.confirm(ORDER_DESK_MESSAGES.confirmChange(state))) event.preventDefault()
  }
}

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className="rounded-xl border border-brand-100 bg-white p-4 shadow-sm" data-testid={testId}>
      <h2 className="mb-3 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  )
}

export default function AdminOrderDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { order, release, whatsAppUrl } = loaderData
  const busy = useNavigation().state !== 'idle'
  const open = order.status === 'pendiente de pago' || order.status === 'pagado'
  const place = [order.customerAddress, order.customerCity, order.customerDepartment]
    .filter(Boolean)
    .join(', ')
  return (
    <article aria-labelledby="order-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="order-title" className="text-2xl font-semibold">
            Pedido #{order.number}
          </h1>
          <StatusBadge status={order.status} />
          <Flag on={Boolean(order.shippedAt)} label="Enviado" testId="order-shipped" />
          {order.paymentMethod === 'acordar' ? (
            <Flag on={Boolean(order.confirmedAt)} label="Confirmado" testId="order-confirmed" />
          ) : null}
        </div>
        <Link to={adminPackingSlipPath(order.id)} className={secondaryButtonClass} target="_blank">
          Imprimir guía
        </Link>
      </div>
      <p className="text-sm text-gray-600">
        Creado el {formatOrderDate(order.createdAt)} · {PAYMENT_METHOD_LABELS[order.paymentMethod]}
        {release ? (
          <span
            className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 font-medium text-amber-800"
            data-testid="order-release"
          >
            {release}
          </span>
        ) : null}
      </p>
      <FormMessage
        message={actionData?.message}
        tone={actionData?.ok ? 'success' : 'error'}
        nonce={actionData?.at}
      />

      {open ? (
        <Section title="Acciones" testId="order-actions">
          <div className="flex flex-col gap-4">
            {whatsAppUrl ? (
              <div className="flex flex-wrap items-center gap-2 rounded-lg bg-green-50 p-3">
                <a
                  href={whatsAppUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="rounded-full bg-green-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-green-800"
                  data-testid="whatsapp-confirm"
                >
                  Confirmar por WhatsApp
                </a>
                <AdminForm method="post">
                  <input type="hidden" name="intent" value="confirmar" />
                  <button type="submit" className={secondaryButtonClass} disabled={busy}>
                    Confirmado
                  </button>
                </AdminForm>
              </div>
            ) : null}
            <div className="flex flex-wrap gap-2">
              {order.status === 'pendiente de pago' ? (
                <AdminForm method="post" onSubmit={confirmChange('pagado')}>
                  <input type="hidden" name="intent" value="pagado" />
                  <button type="submit" className={secondaryButtonClass} disabled={busy}>
                    Marcar como pagado
                  </button>
                </AdminForm>
              ) : null}
              {canTransition(order.status, 'Completado') ? (
                <AdminForm method="post" onSubmit={confirmChange('Completado')}>
                  <input type="hidden" name="intent" value="completar" />
                  <button type="submit" className={secondaryButtonClass} disabled={busy}>
                    Completado
                  </button>
                </AdminForm>
              ) : null}
            </div>
            {!order.shippedAt ? (
              <AdminForm
                method="post"
                onSubmit={confirmChange('enviado')}
                className="flex flex-col gap-2 border-t border-brand-100 pt-3 sm:flex-row sm:items-end"
              >
                <input type="hidden" name="intent" value="enviar" />
                <label className="flex flex-1 flex-col gap-1 text-sm">
                  <span className="font-medium">Transportadora (opcional)</span>
                  <input name="carrier" maxLength={SHIPMENT_TEXT_MAX} className={inputClass} />
                </label>
                <label className="flex flex-1 flex-col gap-1 text-sm">
                  <span className="font-medium">Número de guía (opcional)</span>
                  <input name="trackingNumber" maxLength={SHIPMENT_TEXT_MAX} className={inputClass} />
                </label>
                <button type="submit" className={primaryButtonClass} disabled={busy}>
                  Marcar como Enviado
                </button>
              </AdminForm>
            ) : null}
            <AdminForm
              method="post"
              onSubmit={confirmChange('cancelado')}
              className="flex flex-col gap-2 border-t border-brand-100 pt-3 sm:flex-row sm:items-end"
            >
              <input type="hidden" name="intent" value="cancelar" />
              <label className="flex flex-1 flex-col gap-1 text-sm">
                <span className="font-medium">Motivo de la cancelación</span>
                <input
                  name="reason"
                  list="cancel-reasons"
                  required
                  maxLength={CANCEL_REASON_MAX}
                  className={inputClass}
                  placeholder="rechazado en la entrega"
                />
                <datalist id="cancel-reasons">
                  {CANCEL_REASONS.map((reason) => (
                    <option key={reason} value={reason} />
                  ))}
                </datalist>
              </label>
              <button type="submit" className={dangerButtonClass} disabled={busy}>
                Cancelado
              </button>
            </AdminForm>
          </div>
        </Section>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="Cliente" testId="order-customer">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-gray-600">Nombre</dt>
            <dd>
              {order.customerName} {order.customerLastName}
            </dd>
            <dt className="text-gray-600">Identificación</dt>
            <dd>{order.customerIdentificationNumber || '—'}</dd>
            <dt className="text-gray-600">Teléfono</dt>
            <dd>{order.customerPhone}</dd>
            <dt className="text-gray-600">Correo</dt>
            <dd className="break-all">{order.customerEmail || '—'}</dd>
            <dt className="text-gray-600">Dirección</dt>
            <dd>{place}</dd>
            <dt className="text-gray-600">IP del cliente</dt>
            <dd data-testid="order-client-address">{order.clientAddress ?? '—'}</dd>
          </dl>
          <p className="mt-3 text-sm" data-testid="order-history">
            {order.history.count === 0
              ? 'Primer pedido con este teléfono.'
              : `${order.history.count} ${order.history.count === 1 ? 'pedido anterior' : 'pedidos anteriores'} con este teléfono: ${order.history.cancelled} cancelado${order.history.cancelled === 1 ? '' : 's'}, ${order.history.refused} rechazado${order.history.refused === 1 ? '' : 's'} en la entrega.`}
          </p>
          {order.history.earlier.length ? (
            <ul className="mt-1 flex flex-wrap gap-2 text-sm">
              {order.history.earlier.map((earlier) => (
                <li key={earlier.id}>
                  <Link to={adminOrderPath(earlier.id)} className="text-brand-700 underline">
                    #{earlier.number}
                  </Link>{' '}
                  <span className="text-gray-600">({earlier.status})</span>
                </li>
              ))}
            </ul>
          ) : null}
        </Section>
        <Section title="Pago y envío" testId="order-payment">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-gray-600">Método</dt>
            <dd>{PAYMENT_METHOD_LABELS[order.paymentMethod]}</dd>
            {order.paymentMethod === 'mercadopago' ? (
              <>
                <dt className="text-gray-600">Preferencia</dt>
                <dd className="break-all">{order.paymentPreferenceId ?? '—'}</dd>
                <dt className="text-gray-600">Pago</dt>
                <dd className="break-all">
                  {order.paymentId ? `${order.paymentId} (${order.paymentStatus ?? 'sin estado'})` : '—'}
                </dd>
              </>
            ) : null}
            <dt className="text-gray-600">Enviado</dt>
            <dd>{order.shippedAt ? formatOrderDate(order.shippedAt) : 'No'}</dd>
            {order.shippedAt ? (
              <>
                <dt className="text-gray-600">Transportadora</dt>
                <dd data-testid="order-carrier">{order.carrier ?? '—'}</dd>
                <dt className="text-gray-600">Guía</dt>
                <dd data-testid="order-tracking">{order.trackingNumber ?? '—'}</dd>
              </>
            ) : null}
            {order.confirmedAt ? (
              <>
                <dt className="text-gray-600">Confirmado</dt>
                <dd>{formatOrderDate(order.confirmedAt)}</dd>
              </>
            ) : null}
          </dl>
        </Section>
      </div>

      <Section title="Productos" testId="order-items">
        <ul className="divide-y divide-brand-100 text-sm">
          {order.items.map((item) => (
            <li
              key={item.productSku}
              className="flex flex-wrap justify-between gap-2 py-2"
              data-testid="order-item"
            >
              <span>
                <span className="font-medium">{item.title}</span>
                <span className="block text-xs text-gray-500">{item.productSku}</span>
              </span>
              <span className="text-right">
                {item.quantity} × {formatCOP(item.unitPrice)}
                <span className="block font-medium">{formatCOP(item.quantity * item.unitPrice)}</span>
              </span>
            </li>
          ))}
        </ul>
        <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 border-t border-brand-100 pt-3 text-sm">
          <dt>Subtotal</dt>
          <dd className="text-right">{formatCOP(order.subtotal)}</dd>
          <dt>Envío</dt>
          <dd className="text-right">{formatCOP(order.shippingCost)}</dd>
          <dt className="font-semibold">Total</dt>
          <dd className="text-right font-semibold" data-testid="order-total">
            {formatCOP(order.total)}
          </dd>
        </dl>
      </Section>

      {order.movements.length ? (
        <Section title="Movimientos de inventario" testId="order-movements">
          <ul className="flex flex-col gap-1 text-sm">
            {order.movements.map((movement) => (
              <li key={movement.id} data-testid="order-movement" data-type={movement.type}>
                <span className="font-medium">{MOVEMENT_LABELS[movement.type] ?? movement.type}</span>{' '}
                {movement.quantity} × {movement.sku} · {movement.location} · {formatCOP(movement.unitPrice)}{' '}
                c/u · recibo {movement.receipt}
                <span className="block text-xs text-gray-500">
                  {formatOrderDate(movement.createdAt)} · {movement.createdBy}
                </span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      <Section title="Historial" testId="order-timeline">
        <ol className="flex flex-col gap-2 text-sm">
          {order.events.map((event) => (
            <li
              key={event.id}
              data-testid="order-event"
              data-type={event.type}
              className="border-l-2 border-brand-200 pl-3"
            >
              <p>{event.message}</p>
              <p className="text-xs text-gray-500">
                {formatOrderDate(event.createdAt)} · {event.createdBy ?? 'sistema'}
              </p>
            </li>
          ))}
        </ol>
      </Section>
      <p>
        <Link to={adminOrdersPath()} className="text-sm text-brand-700 underline">
          Volver a la lista de pedidos
        </Link>
      </p>
    </article>
  )
}
