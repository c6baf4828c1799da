/**
 * The desk's lists. "abiertos" is the spec's order list ("pendiente de pago" and "pagado"); the
 * others are its header links, the closed orders, and the dashboard's work queues.
 */
export const DESK_VIEWS = [
  'abiertos',
  'pagados',
  'pendientes',
  'por-confirmar',
  'transferencias',
  'por-enviar',
  'cancelados',
  'completados',
  'todos',
] as const
export type DeskView = (typeof DESK_VIEWS)[number]

export const DESK_VIEW_LABELS: Record<DeskView, string> = {
  abiertos: 'Pendientes de pago y pagados',
  pagados: 'Pagados',
  pendientes: 'Pendientes por pagar',
  'por-confirmar': 'Por confirmar (contra entrega)',
  transferencias: 'Transferencias por confirmar',
  'por-enviar': 'Por enviar',
  cancelados: 'Cancelados',
  completados: 'Completados',
  todos: 'Todos',
}

export function isDeskView(value: unknown): value is DeskView {
  return typeof value === 'string' && (DESK_VIEWS as readonly string[]).includes(value)
}
