import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { primaryButtonClass, secondaryButtonClass } from '#app/components/admin/form-message.tsx'
import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
import { BUY_LABEL_INTENT, TRACK_SHIPMENT_INTENT } from '#app/modules/carriers/messages.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Section } from './section.tsx'

/** The order's guía as the desk shows it (the loader's pick of the `shipments` row). */
export type DeskShipment = {
  status: string
  statusLabel: string
  statusText: string | null
  carrier: string | null
  serviceName: string | null
  trackingNumber: string | null
  trackingUrl: string | null
  /** What the guía cost; absent for a role that may not see money. */
  price?: number | null
  /** What the carrier collects on delivery; absent for a role that may not see money. */
  cashOnDeliveryAmount?: number
  providerMessage: string | null
  hasLabel: boolean
  lastTrackedAt: Date | string | null
  deliveredAt: Date | string | null
  tracked: boolean
}

const linkClass = 'text-brand-700 underline'

/** Envia's own status names (English): the Spanish label already says them. */
const PROVIDER_STATUS_NAMES = new Set([
  'created',
  'picked up',
  'shipped',
  'in transit',
  'out for delivery',
  'delivered',
  'canceled',
  'cancelled',
  'returned',
  'exception',
])

/** The carrier's own word for the state, when it adds something to our label. */
function carrierWords(shipment: DeskShipment): string | null {
  const words = shipment.statusText?.trim()
  if (!words) return null
  const folded = words.toLowerCase()
  if (folded === shipment.statusLabel.toLowerCase() || PROVIDER_STATUS_NAMES.has(folded)) return null
  return words
}

/** The service without the carrier's name in front ("Servientrega Mercancía Premier" → "Mercancía Premier"). */
function serviceOf(shipment: DeskShipment): string | null {
  const service = shipment.serviceName?.trim()
  if (!service) return null
  const carrier = shipment.carrier?.trim()
  if (carrier && service.toLowerCase().startsWith(`${carrier.toLowerCase()} `)) {
    return service.slice(carrier.length).trim() || null
  }
  return carrier && service.toLowerCase() === carrier.toLowerCase() ? null : service
}

/** A date and time that never breaks inside ("27/11/2026, 1:55 p. m."). */
const When = ({ at }: { at: Date | string }) => (
  <span className="whitespace-nowrap">{formatOrderDate(new Date(at))}</span>
)

/**
 * "Envío con transportadora": the guía bought through the carrier provider (carrier, number, price,
 * cash to collect, the carrier's last state, "Actualizar seguimiento"), why it failed, or "Generar
 * guía" for an order that can still ship. Its label prints from the heading, beside the packing slip.
 */
export function ShipmentSection({
  configured,
  shipment,
  canBuy,
  shippedWhatsAppUrl,
  busy,
}: {
  configured: boolean
  shipment: DeskShipment | null
  canBuy: boolean
  /** The chat that tells the buyer the guía (any shipped order with one, bought here or typed). */
  shippedWhatsAppUrl: string | null
  busy: boolean
}) {
  if (!configured && !shipment && !shippedWhatsAppUrl) return null
  const bought = Boolean(shipment?.trackingNumber)
  const service = shipment && serviceOf(shipment)
  const words = shipment && carrierWords(shipment)
  return (
    <Section title="Envío" testId="order-shipment">
      <div className="flex flex-col gap-3 text-sm">
        {shipment && bought ? (
          <dl
            // On a phone the labels may wrap, so the values (dates, amounts) keep room for one line.
            className="grid grid-cols-[minmax(0,8.5rem)_1fr] gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr]"
            data-testid="shipment"
          >
            <dt className="text-gray-600">Transportadora</dt>
            <dd>
              {shipment.carrier}
              {service ? ` · ${service}` : ''}
            </dd>
            <dt className="text-gray-600">Guía</dt>
            <dd className="font-mono" data-testid="shipment-number">
              {shipment.trackingNumber}
            </dd>
            <dt className="text-gray-600">Estado</dt>
            <dd data-testid="shipment-status" data-status={shipment.status}>
              {shipment.statusLabel}
              {words ? ` (${words})` : ''}
              {shipment.deliveredAt ? (
                <>
                  {' el '}
                  <When at={shipment.deliveredAt} />
                </>
              ) : null}
            </dd>
            {shipment.price != null ? (
              <>
                <dt className="text-gray-600">Costo de la guía</dt>
                <dd>{formatCOP(shipment.price)}</dd>
              </>
            ) : null}
            {shipment.cashOnDeliveryAmount ? (
              <>
                <dt className="text-gray-600">Recaudo contra entrega</dt>
                <dd data-testid="shipment-cod">{formatCOP(shipment.cashOnDeliveryAmount)}</dd>
              </>
            ) : null}
            {shipment.lastTrackedAt ? (
              <>
                <dt className="text-gray-600">Última consulta</dt>
                <dd>
                  <When at={shipment.lastTrackedAt} />
                </dd>
              </>
            ) : null}
          </dl>
        ) : null}
        {shipment && !bought ? (
          <p
            className={shipment.status === 'failed' ? 'font-medium text-red-700' : 'text-gray-700'}
            data-testid="shipment-message"
            data-status={shipment.status}
          >
            {shipment.statusLabel}
            {shipment.providerMessage ? `: ${shipment.providerMessage}` : '.'}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          {shippedWhatsAppUrl ? (
            <a
              href={shippedWhatsAppUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="rounded-full bg-green-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-green-800"
              data-testid="whatsapp-shipped"
            >
              Avisar el envío por WhatsApp
            </a>
          ) : null}
          {shipment?.trackingUrl ? (
            <a href={shipment.trackingUrl} target="_blank" rel="noreferrer" className={linkClass}>
              Ver seguimiento público
            </a>
          ) : null}
          {shipment?.tracked && configured ? (
            <AdminForm method="post">
              <input type="hidden" name="intent" value={TRACK_SHIPMENT_INTENT} />
              <button type="submit" className={secondaryButtonClass} disabled={busy}>
                Actualizar seguimiento
              </button>
            </AdminForm>
          ) : null}
          {canBuy ? (
            <AdminForm method="post">
              <input type="hidden" name="intent" value={BUY_LABEL_INTENT} />
              <button type="submit" className={primaryButtonClass} disabled={busy}>
                Generar guía
              </button>
            </AdminForm>
          ) : null}
        </div>
        {canBuy ? (
          <p className="text-xs text-gray-600">
            Compra la guía con la transportadora de Configuraciones (la más barata o la elegida), con el peso
            y las medidas de los productos; en contra entrega la transportadora recauda el total. El pedido
            queda marcado como enviado.
          </p>
        ) : null}
      </div>
    </Section>
  )
}
