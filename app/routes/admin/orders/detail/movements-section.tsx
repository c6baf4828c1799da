import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
import { formatCOP } from '#app/utils/money.ts'
import type { DeskOrderView } from './desk-view.ts'
import { Section } from './section.tsx'

const MOVEMENT_LABELS: Record<string, string> = { in: 'Entrada', out: 'Salida' }

/** The inventory movements this order made (at what average cost, for a role that may see costs). */
export function MovementsSection({ movements }: { movements: DeskOrderView['movements'] }) {
  return (
    <Section title="Movimientos de inventario" testId="order-movements">
      <ul className="flex flex-col gap-1 text-sm">
        {movements.map((movement) => (
          <li key={movement.id} data-testid="order-movement" data-type={movement.type}>
            <span className="font-medium">{MOVEMENT_LABELS[movement.type] ?? movement.type}</span>{' '}
            {movement.quantity} × {movement.sku} · {movement.location} ·{' '}
            {movement.unitPrice === undefined ? null : `${formatCOP(movement.unitPrice)} c/u · `}
            recibo {movement.receipt}
            <span className="block text-xs text-gray-500">
              {formatOrderDate(movement.createdAt)} · {movement.createdBy}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  )
}
