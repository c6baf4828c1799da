import { fitsCartCookie, readCartCookie } from './cart-cookie.ts'

/** Pure cart rules (spec §4, §8): the cart cookie keeps lines, the server owns prices and stock. */

export type CartLine = { sku: string; quantity: number }

export type CartProduct = {
  sku: string
  name: string
  available: number
  /** Centavos after discount, when the caller knows it (for the pixel's AddToCart value). */
  finalPrice?: number
}

export type CartChange =
  | { ok: true; lines: CartLine[]; message: string; tone: 'success' | 'warning' }
  | { ok: false; lines: CartLine[]; message: string; tone: 'error' }

export const CART_MESSAGES = {
  productMissing: 'El producto no existe.',
  notEnoughToAdd: (n: number) => `No hay suficiente stock para agregar ${n} unidad(es).`,
  notEnoughToSet: (n: number) => `No hay suficiente stock para establecer la cantidad a ${n}.`,
  added: (name: string) => `${name} agregado al carrito.`,
  updated: (name: string) => `Cantidad de ${name} actualizada.`,
  removed: 'Eliminado del carrito.',
  zeroQuantity: 'Hay productos con cantidad igual a 0. Por favor, revisa tu carrito.',
  confirmRemove: '¿Está seguro de querer eliminar el producto?',
  cartFull: 'Tu carrito está lleno. Finaliza este pedido o quita algún producto para agregar otro.',
  notInCart: 'Ese producto ya no está en tu carrito.',
} as const

/**
 * What the storefront's cart forms ask. With the page's scripts running they are handled in the page
 * (cart-store.ts); sent before the scripts ran, or without JavaScript, they reach the server
 * (cart.server.ts), which applies the same rules.
 */
export const CART_INTENTS = ['add', 'buy-now', 'increase', 'decrease', 'set', 'ask-remove', 'remove'] as const
export type CartIntent = (typeof CART_INTENTS)[number]

export function totalQuantity(lines: CartLine[]): number {
  return lines.reduce((sum, line) => sum + Math.max(0, line.quantity), 0)
}

export function addToLines(
  lines: CartLine[],
  product: CartProduct | null | undefined,
  quantity = 1,
): CartChange {
  if (!product) return { ok: false, lines, message: CART_MESSAGES.productMissing, tone: 'error' }
  const current = lines.find((line) => line.sku === product.sku)?.quantity ?? 0
  if (current + quantity > product.available) {
    return { ok: false, lines, message: CART_MESSAGES.notEnoughToAdd(quantity), tone: 'error' }
  }
  const next = current
    ? lines.map((line) => (line.sku === product.sku ? { ...line, quantity: current + quantity } : line))
    : [...lines, { sku: product.sku, quantity }]
  if (!fitsCartCookie(next)) return { ok: false, lines, message: CART_MESSAGES.cartFull, tone: 'error' }
  return { ok: true, lines: next, message: CART_MESSAGES.added(product.name), tone: 'success' }
}

export function setLineQuantity(
  lines: CartLine[],
  product: CartProduct | null | undefined,
  quantity: number,
): CartChange {
  if (!product) return { ok: false, lines, message: CART_MESSAGES.productMissing, tone: 'error' }
  const wanted = Math.max(0, Math.floor(Number.isFinite(quantity) ? quantity : 0))
  if (wanted > product.available) {
    return { ok: false, lines, message: CART_MESSAGES.notEnoughToSet(wanted), tone: 'error' }
  }
  const next = lines.map((line) => (line.sku === product.sku ? { ...line, quantity: wanted } : line))
  return { ok: true, lines: next, message: CART_MESSAGES.updated(product.name), tone: 'success' }
}

export function removeLine(lines: CartLine[], sku: string): CartChange {
  return {
    ok: true,
    lines: lines.filter((line) => line.sku !== sku),
    message: CART_MESSAGES.removed,
    tone: 'warning',
  }
}

/** Lines read from outside (a cookie, a form): anything malformed is dropped, duplicates merged. */
export function cleanLines(items: readonly unknown[]): CartLine[] {
  const merged = new Map<string, number>()
  for (const item of items) {
    if (!item || typeof item !== 'object') continue
    const { sku, quantity } = item as Record<string, unknown>
    if (typeof sku !== 'string' || !sku || typeof quantity !== 'number' || !Number.isFinite(quantity))
      continue
    merged.set(sku, (merged.get(sku) ?? 0) + Math.max(0, Math.floor(quantity)))
  }
  return [...merged].map(([sku, quantity]) => ({ sku, quantity }))
}

/** The cart a `Cookie` header (or `document.cookie`) holds. */
export function cartLinesOf(cookieHeader: string | null | undefined): CartLine[] {
  return cleanLines(readCartCookie(cookieHeader))
}
