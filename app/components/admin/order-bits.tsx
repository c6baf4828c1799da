import type { OrderStatus } from '#app/modules/order/status.ts'

const dateTimeFormat = new Intl.DateTimeFormat('es-CO', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'America/Bogota',
})

/** Dates on the desk are the shop's (Bogotá), wherever the server or browser runs. */
export function formatOrderDate(value: Date | string): string {
  return dateTimeFormat.format(new Date(value))
}

/** The payment methods' names live with the order's texts (the sales report's CSV uses them too). */
export { PAYMENT_METHOD_LABELS } from '#app/modules/order/messages.ts'

const STATUS_TONES: Record<OrderStatus, string> = {
  'pendiente de pago': 'border-amber-200 bg-amber-50 text-amber-800',
  pagado: 'border-green-200 bg-green-50 text-green-800',
  cancelado: 'border-red-200 bg-red-50 text-red-800',
  Completado: 'border-brand-200 bg-brand-50 text-brand-800',
}

export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span
      data-testid="order-status"
      className={`inline-block rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS_TONES[status]}`}
    >
      {status}
    </span>
  )
}

export function Flag({ on, label, testId }: { on: boolean; label: string; testId: string }) {
  return (
    <span
      data-testid={testId}
      data-on={on}
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${
        on ? 'bg-green-100 text-green-800' : 'bg-gray-100 text-gray-700'
      }`}
    >
      {on ? label : `No ${label.toLowerCase()}`}
    </span>
  )
}

/**
 * "Se libera en 5 h": how long an unconfirmed cash order keeps its units, worked out by the loader
 * (so server and browser render the same words).
 */
export function releaseLabel(releaseAt: Date | null, now: Date): string | null {
  if (!releaseAt) return null
  const minutes = Math.ceil((releaseAt.getTime() - now.getTime()) / 60_000)
  if (minutes <= 0) return 'Se libera en breve'
  if (minutes < 60) return `Se libera en ${minutes} min`
  return `Se libera en ${Math.floor(minutes / 60)} h`
}
