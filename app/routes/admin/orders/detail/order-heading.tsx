import { Link } from 'react-router'
import { secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import {
  Flag,
  formatOrderDate,
  PAYMENT_METHOD_LABELS,
  StatusBadge,
} from '#app/components/admin/order-bits.tsx'
import { adminCarrierLabelPath, adminPackingSlipPath } from '#app/utils/admin-paths.ts'
import type { DeskOrderView } from './desk-view.ts'

/**
 * Number, status, flags, the packing slip (and the carrier's label beside it), and when and how the
 * order was placed.
 */
export function OrderHeading({
  order,
  release,
  carrierLabel,
}: {
  order: DeskOrderView
  release: string | null
  /** The order's guía was bought through the carrier provider and its label can print. */
  carrierLabel: boolean
}) {
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="order-title" className="text-2xl font-semibold">
            Pedido #{order.number}
          </h1>
          <StatusBadge status={order.status} />
          <Flag on={Boolean(order.shippedAt)} label="Enviado" testId="order-shipped" />
          {/* Whether the buyer confirmed matters only while the order is open. */}
          {order.paymentMethod === 'acordar' &&
          (order.status === 'pendiente de pago' || order.status === 'pagado') ? (
            <Flag on={Boolean(order.confirmedAt)} label="Confirmado" testId="order-confirmed" />
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={adminPackingSlipPath(order.id)} className={secondaryButtonClass} target="_blank">
            Imprimir guía
          </Link>
          {carrierLabel ? (
            // A PDF, not a page of the app: a plain link opens it in the browser's viewer.
            <a
              href={adminCarrierLabelPath(order.id)}
              target="_blank"
              rel="noreferrer"
              className={secondaryButtonClass}
              data-testid="carrier-label"
            >
              Imprimir guía de la transportadora
            </a>
          ) : null}
        </div>
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
    </>
  )
}
