import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
import type { DeskOrder } from '#app/modules/order/desk.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Section } from './section.tsx'

const MOVEMENT_LABELS: Record<string, string> = { in: 'Entrada', out: 'Salida' }

/** The inventory movements this order made. */
export function MovementsSection({ movements }: { movements: DeskOrder['movements'] }) {
  return (
    <Section title="Movimientos de inventario" testId="order-movements">
      <ul className="flex flex-col gap-1 text-sm">
        {movements.map((movement) => (
          <li key={movement.id} data-testid="order-movement" data-type={movement.type}>
            <span className="font-medium">{MOVEMENT_LABELS[movement.type] ?? movement.type}</span>{' '}
            {movement.quantity} × {movement.sku} · {movement.location} · {formatCOP(movement.unitPrice)} c/u ·
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
