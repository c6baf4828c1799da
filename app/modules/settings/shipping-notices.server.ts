import { shipsFree, type ShippingRules } from '#app/modules/cart/shipping.ts'
import { formatCOP } from '#app/utils/money.ts'

/**
 * The storefront's free-shipping wording, worked out on the server so the pages' JavaScript does
 * not grow: "¡Envío gratis hoy, {fecha}!" (spec §1) only where shipping really is free, otherwise
 * the threshold that makes it free.
 */

const todayFormat = new Intl.DateTimeFormat('es-CO', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'America/Bogota',
})

/**
 * "Envío gratis en compras superiores a $ 100.000,00" (the rule: a subtotal over the threshold), in
 * the shop's money format as the cart and checkout totals show it (spec §Currency: two decimals).
 */
export function overThreshold(rules: ShippingRules): string {
  return `compras superiores a ${formatCOP(rules.freeShippingThreshold)}`
}

/** A product page's notice: free today when this product, bought alone, ships free. */
export function productShippingNotice(price: number, rules: ShippingRules, now = new Date()): string {
  return shipsFree(price, rules)
    ? `¡Envío gratis hoy, ${todayFormat.format(now)}!`
    : `Envío gratis en ${overThreshold(rules)}`
}

/** The home page's "Envío gratis" badge line. */
export function freeShippingBadgeText(rules: ShippingRules): string {
  return rules.shippingCost === 0 ? 'Por tiempo limitado' : `En ${overThreshold(rules)}`
}
