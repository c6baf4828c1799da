import { percentOf } from '#app/utils/money.ts'

/**
 * The pricing rules of "Descuentos y Promociones", pure and safe for the browser bundle: which
 * promotions an order gets and what each takes off each line and the shipping. The server runs
 * them at the order's moment inside its transaction (promotions.server.ts); the storefront runs
 * them to show the same figures. Money in centavos.
 */

/**
 * - `percent`: a percentage off the target;
 * - `fixed`: an amount off the target (once per order, shared among its lines);
 * - `buy_x_pay_y`: "lleve N, pague M" on the target's units, mixed, the cheapest free;
 * - `set_discount`: a scheduled product discount: while it runs, the products cost their level-1
 *   price less this percentage instead of their own `descuento` (never more than with their own).
 */
export const PROMOTION_BENEFITS = ['percent', 'fixed', 'buy_x_pay_y', 'set_discount'] as const
export type PromotionBenefit = (typeof PROMOTION_BENEFITS)[number]

/** The whole order's products, chosen products and categories, or the shipping. */
export const PROMOTION_TARGETS = ['order', 'products', 'shipping'] as const
export type PromotionTarget = (typeof PROMOTION_TARGETS)[number]

export type PromotionRule = {
  id: number
  name: string
  /** The discount code; null for an automatic promotion. */
  code: string | null
  benefit: PromotionBenefit
  target: PromotionTarget
  percent: number
  amount: number
  buyQuantity: number
  payQuantity: number
  productSkus: readonly string[]
  categoryIds: readonly string[]
  minSubtotal: number
  combinable: boolean
  /** When it stops running (null: no end); absent where it does not matter (tests' rules). */
  endsAt?: Date | null
}

/** One cart or order line as the rules see it. */
export type PricingLine = {
  sku: string
  quantity: number
  /** Level-1 price of one unit. */
  listPrice: number
  /** One unit after the product's own `descuento`: what the line costs before promotions. */
  unitPrice: number
  categoryIds: readonly string[]
}

/** What one promotion took off one line (or the shipping: `productSku` null). */
export type AppliedDiscount = {
  promotionId: number
  name: string
  code: string | null
  productSku: string | null
  amount: number
}

export type PromotionPricing = {
  /** Lines at their unit price (after each product's own discount), before promotions. */
  subtotal: number
  /** The shipping as the threshold rule left it, before promotions. */
  shipping: number
  discounts: AppliedDiscount[]
  /** Off the lines, per sku. */
  lineDiscounts: Record<string, number>
  itemsDiscount: number
  shippingDiscount: number
  /** `itemsDiscount + shippingDiscount`. */
  discount: number
  /** `subtotal + shipping − discount`: what the order charges. */
  total: number
  /** The promotions that took something off, in the order they were applied. */
  applied: PromotionRule[]
}

/** Why a promotion gives this cart nothing. */
export type PromotionMiss = 'minimum' | 'products' | 'nothing' | 'beaten'

/** Codes are kept and compared in upper case without spaces. */
export function normalizeCode(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, '').toUpperCase()
}

/** Whether this line is among the promotion's products (a `products` target) or it covers all. */
export function coversLine(rule: PromotionRule, line: Pick<PricingLine, 'sku' | 'categoryIds'>): boolean {
  if (rule.target === 'shipping') return false
  if (rule.target === 'order') return true
  return rule.productSkus.includes(line.sku) || line.categoryIds.some((id) => rule.categoryIds.includes(id))
}

/** The subtotal a promotion's minimum is judged against: the lines before promotions. */
export function subtotalOf(lines: readonly PricingLine[]): number {
  return lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0)
}

/**
 * Why this promotion gives this cart nothing on its own, or null when it gives something. The
 * shopper's messages for a code come from it.
 */
export function missOf(
  rule: PromotionRule,
  lines: readonly PricingLine[],
  shipping: number,
): PromotionMiss | null {
  if (subtotalOf(lines) < rule.minSubtotal) return 'minimum'
  if (rule.target === 'products' && !lines.some((line) => coversLine(rule, line))) return 'products'
  return applyRules(lines, shipping, [rule]).discount > 0 ? null : 'nothing'
}

/**
 * The best prices these promotions give the cart: the combinable ones together, or one that does
 * not combine alone, whichever takes off more (ties go to the combinable set, then the lowest id).
 * A promotion whose minimum the cart does not reach gives nothing. Callers pass only promotions
 * that run now and have uses left, and at most one code.
 */
export function pricePromotions(
  lines: readonly PricingLine[],
  shipping: number,
  rules: readonly PromotionRule[],
): PromotionPricing {
  const subtotal = subtotalOf(lines)
  const eligible = rules.filter((rule) => subtotal >= rule.minSubtotal)
  const options = [
    eligible.filter((rule) => rule.combinable),
    ...eligible.filter((rule) => !rule.combinable).map((rule) => [rule]),
  ]
  let best = applyRules(lines, shipping, [])
  for (const option of options) {
    const priced = applyRules(lines, shipping, option)
    if (priced.discount > best.discount) best = priced
  }
  return best
}

/** The order the benefits apply in: price-level ones first, shipping last. */
function stageOf(rule: PromotionRule): number {
  if (rule.target === 'shipping') return 4
  if (rule.benefit === 'set_discount') return 0
  if (rule.benefit === 'buy_x_pay_y') return 1
  return rule.target === 'products' ? 2 : 3
}

/** Every rule given, one after the other on what the earlier ones left (never below zero). */
function applyRules(
  lines: readonly PricingLine[],
  shipping: number,
  rules: readonly PromotionRule[],
): PromotionPricing {
  const remaining = lines.map((line) => line.unitPrice * line.quantity)
  let shippingLeft = shipping
  const discounts: AppliedDiscount[] = []
  const applied: PromotionRule[] = []
  const ordered = [...rules].sort((a, b) => stageOf(a) - stageOf(b) || a.id - b.id)
  for (const rule of ordered) {
    const off = rule.target === 'shipping' ? [] : lineAmounts(rule, lines, remaining)
    let gave = false
    off.forEach((amount, index) => {
      if (amount <= 0) return
      remaining[index]! -= amount
      discounts.push(discountOf(rule, lines[index]!.sku, amount))
      gave = true
    })
    if (rule.target === 'shipping') {
      const amount = benefitOn(rule, shippingLeft)
      if (amount > 0) {
        shippingLeft -= amount
        discounts.push(discountOf(rule, null, amount))
        gave = true
      }
    }
    if (gave) applied.push(rule)
  }
  const lineDiscounts: Record<string, number> = {}
  lines.forEach((line, index) => {
    const off = line.unitPrice * line.quantity - remaining[index]!
    if (off > 0) lineDiscounts[line.sku] = off
  })
  const subtotal = subtotalOf(lines)
  const itemsDiscount = subtotal - remaining.reduce((sum, left) => sum + left, 0)
  const shippingDiscount = shipping - shippingLeft
  const discount = itemsDiscount + shippingDiscount
  return {
    subtotal,
    shipping,
    discounts,
    lineDiscounts,
    itemsDiscount,
    shippingDiscount,
    discount,
    total: subtotal + shipping - discount,
    applied,
  }
}

function discountOf(rule: PromotionRule, productSku: string | null, amount: number): AppliedDiscount {
  return { promotionId: rule.id, name: rule.name, code: rule.code, productSku, amount }
}

/** A percentage or an amount off what is left of one target (shipping, or lines together). */
function benefitOn(rule: PromotionRule, left: number): number {
  if (left <= 0) return 0
  if (rule.benefit === 'percent') return Math.min(left, percentOf(left, rule.percent))
  if (rule.benefit === 'fixed') return Math.min(left, rule.amount)
  return 0
}

/** What one rule takes off each line, given what is left of each. */
function lineAmounts(
  rule: PromotionRule,
  lines: readonly PricingLine[],
  remaining: readonly number[],
): number[] {
  const covered = lines.map((line) => coversLine(rule, line))
  if (rule.benefit === 'set_discount') {
    // Scheduled discounts come first (`stageOf`): what is already off a line is another one's, and
    // two of them set the price, they never add up: the lowest price stands.
    return lines.map((line, index) => {
      if (!covered[index]) return 0
      const scheduled = line.listPrice - percentOf(line.listPrice, rule.percent)
      const target = Math.max(0, line.unitPrice - scheduled) * line.quantity
      const already = line.unitPrice * line.quantity - remaining[index]!
      return Math.min(remaining[index]!, Math.max(0, target - already))
    })
  }
  if (rule.benefit === 'buy_x_pay_y') return freeUnits(rule, lines, remaining, covered)
  const weights = remaining.map((left, index) => (covered[index] ? left : 0))
  const total = benefitOn(
    rule,
    weights.reduce((sum, weight) => sum + weight, 0),
  )
  return shareOut(total, weights)
}

/**
 * "Lleve N, pague M": the covered units, dearest first, in groups of N; the last N − M of each
 * whole group are free (each at what is left of its line per unit).
 */
function freeUnits(
  rule: PromotionRule,
  lines: readonly PricingLine[],
  remaining: readonly number[],
  covered: readonly boolean[],
): number[] {
  const off = lines.map(() => 0)
  const { buyQuantity: buy, payQuantity: pay } = rule
  if (buy <= 0 || pay >= buy) return off
  const units: { index: number; value: number }[] = []
  lines.forEach((line, index) => {
    if (!covered[index] || line.quantity <= 0) return
    const value = Math.floor(remaining[index]! / line.quantity)
    for (let unit = 0; unit < line.quantity; unit++) units.push({ index, value })
  })
  units.sort((a, b) => b.value - a.value || a.index - b.index)
  const groups = Math.floor(units.length / buy)
  for (let group = 0; group < groups; group++) {
    for (let position = pay; position < buy; position++) {
      const unit = units[group * buy + position]!
      off[unit.index]! += unit.value
    }
  }
  return off.map((amount, index) => Math.min(amount, remaining[index]!))
}

/**
 * `total` shared among the weights in proportion, to the centavo: each its floor, the centavos left
 * to the largest remainders (ties to the first). Never more than a weight when `total` ≤ their sum.
 */
export function shareOut(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((acc, weight) => acc + weight, 0)
  if (total <= 0 || sum <= 0) return weights.map(() => 0)
  const exact = weights.map((weight) => (total * weight) / sum)
  const shares = exact.map(Math.floor)
  let left = total - shares.reduce((acc, share) => acc + share, 0)
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index)
  for (const { index } of byRemainder) {
    if (left <= 0) break
    shares[index]! += 1
    left -= 1
  }
  return shares
}

/**
 * What a product card and page show of the automatic promotions that need no cart to apply (a
 * percentage or scheduled discount on products or the whole order, without a minimum): the price
 * of one unit and its percentage off level 1; and a "lleve N pague M" running on it.
 */
export function shelfPriceOf(
  line: Omit<PricingLine, 'quantity'>,
  rules: readonly PromotionRule[],
): { finalPrice: number; discountPercent: number; buyPay: { buy: number; pay: number } | null } {
  const shelf = rules.filter(
    (rule) =>
      rule.code === null &&
      rule.minSubtotal <= 0 &&
      (rule.benefit === 'percent' || rule.benefit === 'set_discount') &&
      coversLine(rule, line),
  )
  const one = { ...line, quantity: 1 }
  const finalPrice = line.unitPrice - pricePromotions([one], 0, shelf).itemsDiscount
  const buyPay = rules.find(
    (rule) =>
      rule.code === null && rule.benefit === 'buy_x_pay_y' && rule.minSubtotal <= 0 && coversLine(rule, line),
  )
  return {
    finalPrice,
    discountPercent:
      line.listPrice > 0 ? Math.round(((line.listPrice - finalPrice) * 100) / line.listPrice) : 0,
    buyPay: buyPay ? { buy: buyPay.buyQuantity, pay: buyPay.payQuantity } : null,
  }
}

/**
 * When the shelf price these running promotions give a product stops holding: the first end of a
 * promotion after which the price would change (two giving the same price must both end), or null
 * when it holds with no end (none of those that matter ends, or no promotion prices it). For the
 * product page's `priceValidUntil` (structured data).
 */
export function shelfPriceEndsAt(
  line: Omit<PricingLine, 'quantity'>,
  rules: readonly PromotionRule[],
): Date | null {
  const price = shelfPriceOf(line, rules).finalPrice
  if (price === line.unitPrice) return null
  const ends = [...new Set(rules.flatMap((rule) => (rule.endsAt ? [rule.endsAt.getTime()] : [])))].sort(
    (a, b) => a - b,
  )
  const end = ends.find(
    (moment) =>
      shelfPriceOf(
        line,
        rules.filter((rule) => (rule.endsAt?.getTime() ?? Infinity) > moment),
      ).finalPrice !== price,
  )
  return end === undefined ? null : new Date(end)
}

/**
 * One summary row per promotion, lines and shipping together, in the order they were applied: its
 * name, and its code in brackets when it came from one ("Cupón de Laura (LAURA10)").
 */
export function discountRowsOf(
  discounts: readonly Pick<AppliedDiscount, 'promotionId' | 'name' | 'code' | 'amount'>[],
): { name: string; amount: number }[] {
  const rows = new Map<number, { name: string; amount: number }>()
  for (const discount of discounts) {
    const row = rows.get(discount.promotionId)
    if (row) row.amount += discount.amount
    else
      rows.set(discount.promotionId, {
        name: discount.code ? `${discount.name} (${discount.code})` : discount.name,
        amount: discount.amount,
      })
  }
  return [...rows.values()]
}
