import type { DiscountedLine } from '#app/components/order-discounts.ts'
import type { DiscountRow } from '#app/components/totals.tsx'
import type { DeskOrder } from '#app/modules/order/desk.server.ts'
import type { DeskClaim } from './claims-section.tsx'
import type { DeskShipment } from './shipment-section.tsx'

/**
 * The order desk as the signed-in admin's role may see it (issue 27). Bodega, without `money`, gets
 * what to pack and ship: the lines by name, SKU and quantity, the customer and the delivery, the
 * shipment, with no price, total, discount, payment or invoice; Ventas, without `costs`, gets all
 * of that but the average cost the order's stock movements went at. What a role may not see is
 * left out here, in the loader, so it never reaches the browser.
 */
export type DeskCan = {
  /** Prices, totals, discounts, payments, refunds and invoices. */
  money: boolean
  /** The average cost the order's stock movements went at. */
  costs: boolean
  /** The desk's actions other than shipping: confirm, pay, complete, cancel, claims, invoices… */
  orders: boolean
}

/** `T` without its fields `K` for a role that may not see them. */
type Hidden<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>

type Line = DeskOrder['items'][number] & DiscountedLine
type LineMoney = 'unitPrice' | 'discount' | 'net' | 'discounts'
const LINE_MONEY: readonly LineMoney[] = ['unitPrice', 'discount', 'net', 'discounts']

/** The desk's order with each line's discounts and net amount, and its discount rows (`discountedOrderView`). */
export type DiscountedDeskOrder = Omit<DeskOrder, 'items'> & { items: Line[]; discounts: DiscountRow[] }

type OrderMoney =
  | 'subtotal'
  | 'shippingCost'
  | 'discount'
  | 'total'
  | 'discounts'
  | 'appliedDiscounts'
  | 'paymentPreferenceId'
  | 'paymentId'
  | 'paymentStatus'
const ORDER_MONEY: readonly OrderMoney[] = [
  'subtotal',
  'shippingCost',
  'discount',
  'total',
  'discounts',
  'appliedDiscounts',
  'paymentPreferenceId',
  'paymentId',
  'paymentStatus',
]

type Movement = DeskOrder['movements'][number]
type Earlier = DeskOrder['history']['earlier'][number]
type OrderEvent = DeskOrder['events'][number]

/** The order as the desk's page gets it: without the fields the role may not see. */
export type DeskOrderView = Hidden<
  Omit<DiscountedDeskOrder, 'items' | 'movements' | 'history' | 'events'>,
  OrderMoney
> & {
  items: Hidden<Line, LineMoney>[]
  movements: Hidden<Movement, 'unitPrice'>[]
  history: Omit<DeskOrder['history'], 'earlier'> & { earlier: Hidden<Earlier, 'total'>[] }
  /** `chatUrl`: a buyer message not sent by WhatsApp's API, to send by hand (roles with `orders`). */
  events: (Hidden<OrderEvent, 'data'> & { chatUrl?: string })[]
}

/** The wa.me link a buyer message that was not sent left in its event's details, if any. */
function chatUrlOf(data: unknown): string | undefined {
  const url = (data as { chatUrl?: unknown } | null)?.chatUrl
  return typeof url === 'string' && url.startsWith('https://wa.me/') ? url : undefined
}

function without<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Omit<T, K> {
  const copy = { ...value }
  for (const key of keys) delete copy[key]
  return copy
}

/** An amount as `formatCOP` writes it ("$ 45.000,00", "-$ 9.000,00"), in a timeline message. */
const FIGURE = String.raw`-?\$[\s\u00a0]?\d{1,3}(?:\.\d{3})*(?:,\d{2})?`
const FIGURE_IN_BRACKETS = new RegExp(String.raw`\s*\(${FIGURE}\)`, 'g')
const ANY_FIGURE = new RegExp(FIGURE, 'g')

/**
 * A timeline message without its amounts ("Guía 123 generada con Servientrega ($ 12.000,00)." →
 * "Guía 123 generada con Servientrega."): one in brackets goes, another says it is hidden.
 */
export function withoutMoneyFigures(message: string): string {
  return message.replace(FIGURE_IN_BRACKETS, '').replace(ANY_FIGURE, '(monto oculto)')
}

/**
 * The order as `can` lets the page see it. An event's details (`data`: amounts, the exits' average
 * cost) only go with `costs`, which the page never shows anyway; its message loses its amounts
 * without `money`.
 */
export function deskOrderFor(order: DiscountedDeskOrder, can: DeskCan): DeskOrderView {
  const events = order.events.map((event) => {
    const chatUrl = can.orders ? chatUrlOf(event.data) : undefined
    const kept: Hidden<OrderEvent, 'data'> = can.costs ? event : without(event, ['data'])
    const shown = chatUrl ? { ...kept, chatUrl } : kept
    return can.money ? shown : { ...shown, message: withoutMoneyFigures(shown.message) }
  })
  const movements = can.costs
    ? order.movements
    : order.movements.map((movement) => without(movement, ['unitPrice']))
  if (can.money) return { ...order, events, movements }
  return {
    ...without(order, ORDER_MONEY),
    items: order.items.map((item) => without(item, LINE_MONEY)),
    history: {
      ...order.history,
      earlier: order.history.earlier.map((earlier) => without(earlier, ['total'])),
    },
    events,
    movements,
  }
}

/** The guía as `can` lets the page see it: without `money`, neither its price nor the cash it collects. */
export function shipmentFor<Shipment extends DeskShipment>(
  shipment: Shipment | null,
  can: DeskCan,
): DeskShipment | null {
  if (!shipment || can.money) return shipment
  return without(shipment, ['price', 'cashOnDeliveryAmount'])
}

/**
 * The buyer's requests as `can` lets the page see them: without `money`, an accepted one does not
 * say how the money went back.
 */
export function claimsFor(claims: DeskClaim[], can: DeskCan): DeskClaim[] {
  if (can.money) return claims
  return claims.map((claim) => (claim.status === 'aceptada' ? { ...claim, decisionNote: null } : claim))
}
