import { isPaidBeforeShipping } from '#app/modules/order/payment-methods.ts'
import type { FormEvent } from 'react'
import { AdminForm } from '#app/components/admin/admin-form.tsx'
import {
  dangerButtonClass,
  inputClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '#app/components/admin/form-message.tsx'
import {
  CANCEL_REASON_MAX,
  CANCEL_REASONS,
  ORDER_DESK_MESSAGES,
  SHIPMENT_TEXT_MAX,
} from '#app/modules/order/messages.ts'
import { canTransition } from '#app/modules/order/status.ts'
import type { DeskOrderView } from './desk-view.ts'
import { Section } from './section.tsx'

/** Spec §4: every status change waits for the browser's confirm. */
function confirmChange(state: string) {
  return (event: FormEvent<HTMLFormElement>) => {
    if (!window.confirm(ORDER_DESK_MESSAGES.confirmChange(state))) event.preventDefault()
  }
}

/**
 * What the desk can do with an open order: confirm, mark paid, complete, ship or cancel it; without
 * `canDecide` (a role without `orders`: Bodega) only ship it.
 */
export function ActionsSection({
  order,
  whatsAppUrl,
  canDecide,
  busy,
}: {
  order: DeskOrderView
  whatsAppUrl: string | null
  canDecide: boolean
  busy: boolean
}) {
  return (
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
        {canDecide ? (
          <div className="flex flex-wrap gap-2">
            {order.status === 'pendiente de pago' ? (
              <AdminForm method="post" onSubmit={confirmChange('pagado')}>
                <input type="hidden" name="intent" value="pagado" />
                <button type="submit" className={secondaryButtonClass} disabled={busy}>
                  Marcar como pagado
                </button>
              </AdminForm>
            ) : null}
            {canTransition(order.status, 'Completado') &&
            // Paid before it ships (online, transfer): completed only once paid.
            !(order.status === 'pendiente de pago' && isPaidBeforeShipping(order.paymentMethod)) ? (
              <AdminForm method="post" onSubmit={confirmChange('Completado')}>
                <input type="hidden" name="intent" value="completar" />
                <button type="submit" className={secondaryButtonClass} disabled={busy}>
                  Completado
                </button>
              </AdminForm>
            ) : null}
          </div>
        ) : null}
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
        {canDecide ? (
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
        ) : null}
      </div>
    </Section>
  )
}
