import { Refusal } from '#app/utils/refusal.ts'

/** The order statuses of spec §4, spelled as the original stores them. */
export const ORDER_STATUSES = ['pendiente de pago', 'pagado', 'cancelado', 'Completado'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/**
 * Where each status may go, and so the only changes the state-change functions make. What each one
 * does with the units the order holds:
 * - "pagado" keeps the reservation: the units wait to be shipped.
 * - "cancelado" gives the reservation back.
 * - "Completado" is the end of a delivered order (paid online or on delivery).
 * Cancelled and completed orders are final: a payment that arrives for a cancelled order is put on
 * its timeline for a person to refund, it does not revive the order.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  'pendiente de pago': ['pagado', 'cancelado', 'Completado'],
  pagado: ['cancelado', 'Completado'],
  cancelado: [],
  Completado: [],
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to)
}

/** A status change the map does not allow: a refusal (409) the person who asked for it reads. */
export class TransitionRefused extends Refusal {
  override name = 'TransitionRefused'
  constructor(
    readonly from: OrderStatus,
    readonly to: OrderStatus,
  ) {
    super(`No se puede cambiar el estado del pedido de "${from}" a "${to}".`, { status: 409 })
  }
}

/** Throws `TransitionRefused` unless the map lets an order go from `from` to `to`. */
export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (!canTransition(from, to)) throw new TransitionRefused(from, to)
}

/**
 * A withdrawal (retracto) or payment reversal the shop accepted ends the order "cancelado" even once
 * delivered ("Completado"): the one way out of a completed order, taken only by `acceptClaim`.
 */
export function assertReturnable(from: OrderStatus): void {
  if (from !== 'pagado' && from !== 'Completado') throw new TransitionRefused(from, 'cancelado')
}
