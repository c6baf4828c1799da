import { and, asc, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import { discountedPrice } from '#app/modules/catalog/pricing.ts'
import { productCategories, products } from '#app/modules/catalog/schema.ts'
import { orderDiscounts, orders } from '#app/modules/order/schema.ts'
import { bogotaMoment } from '#app/utils/bogota-days.ts'
import { hasNul } from '#app/utils/text.ts'
import { CODE_MAX_LENGTH, CODE_MESSAGES, CODE_PATTERN } from './messages.ts'
import {
  missOf,
  normalizeCode,
  pricePromotions,
  type PricingLine,
  type PromotionPricing,
  type PromotionRule,
} from './rules.ts'
import { promotions } from './schema.ts'

type PromotionRow = typeof promotions.$inferSelect

/** Who is buying, for the per-customer limits: the same phone or the same e-mail is the same customer. */
export type PromotionCustomer = { phone: string; email: string }

export function ruleOf(row: PromotionRow): PromotionRule {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    benefit: row.benefit,
    target: row.target,
    percent: row.percent,
    amount: row.amount,
    buyQuantity: row.buyQuantity,
    payQuantity: row.payQuantity,
    productSkus: row.productSkus,
    categoryIds: row.categoryIds,
    minSubtotal: row.minSubtotal,
    combinable: row.combinable,
    endsAt: row.endsAt,
  }
}

/** Running at `now`: switched on, started (or with no start) and not ended. */
function runningAt(now: Date) {
  return and(
    eq(promotions.active, true),
    or(isNull(promotions.startsAt), lte(promotions.startsAt, now)),
    or(isNull(promotions.endsAt), gt(promotions.endsAt, now)),
  )
}

/** Orders that used each of these promotions, cancelled ones left out (a cancelled order gives its use back). */
export async function usesOf(db: DbOrTx, promotionIds: number[]): Promise<Map<number, number>> {
  if (!promotionIds.length) return new Map()
  const rows = await db
    .select({
      promotionId: orderDiscounts.promotionId,
      uses: sql<number>`count(distinct ${orderDiscounts.orderId})::int`,
    })
    .from(orderDiscounts)
    .innerJoin(orders, eq(orders.id, orderDiscounts.orderId))
    .where(and(inArray(orderDiscounts.promotionId, promotionIds), ne(orders.status, 'cancelado')))
    .groupBy(orderDiscounts.promotionId)
  return new Map(rows.map((row) => [row.promotionId, Number(row.uses)]))
}

/** Orders of this customer (same phone or same e-mail) that used the promotion, cancelled ones left out. */
async function customerUsesOf(db: DbOrTx, promotionId: number, customer: PromotionCustomer) {
  const email = customer.email.trim().toLowerCase()
  const [row] = await db
    .select({ uses: sql<number>`count(distinct ${orders.id})::int` })
    .from(orderDiscounts)
    .innerJoin(orders, eq(orders.id, orderDiscounts.orderId))
    .where(
      and(
        eq(orderDiscounts.promotionId, promotionId),
        ne(orders.status, 'cancelado'),
        or(
          eq(orders.customerPhone, customer.phone),
          email ? sql`lower(${orders.customerEmail}) = ${email}` : sql`false`,
        ),
      ),
    )
  return Number(row?.uses ?? 0)
}

/**
 * The automatic promotions running at `now` with uses left: what every cart gets without a code,
 * and what product cards show.
 */
export async function runningAutomaticPromotions(db: DbOrTx, now = new Date()): Promise<PromotionRule[]> {
  const rows = await db
    .select()
    .from(promotions)
    .where(and(runningAt(now), isNull(promotions.code)))
    .orderBy(asc(promotions.id))
  return withUsesLeft(db, rows)
}

async function withUsesLeft(db: DbOrTx, rows: PromotionRow[]): Promise<PromotionRule[]> {
  const limited = rows.filter((row) => row.maxUses !== null)
  const uses = await usesOf(
    db,
    limited.map((row) => row.id),
  )
  return rows.filter((row) => row.maxUses === null || (uses.get(row.id) ?? 0) < row.maxUses).map(ruleOf)
}

/**
 * The promotion a typed code names, if it may be used now (and by this customer, when known), or
 * the shopper's message for why not.
 */
async function codeRule(
  db: DbOrTx,
  typed: string,
  now: Date,
  customer: PromotionCustomer | null,
  lock: boolean,
): Promise<{ rule: PromotionRule } | { refusal: string }> {
  const code = normalizeCode(typed)
  if (code.length > CODE_MAX_LENGTH) return { refusal: CODE_MESSAGES.tooLong }
  // No code is written otherwise (the admin form's rule): nothing else reaches the database.
  if (!CODE_PATTERN.test(code)) {
    // eslint-disable-next-line no-control-regex -- control characters are what is dropped
    return { refusal: CODE_MESSAGES.unknown(code.replace(/[\u0000-\u001f\u007f]/g, '')) }
  }
  const [found] = await db.select().from(promotions).where(eq(promotions.code, code))
  // A paused code reads as an unknown one: trying codes tells nobody which exist.
  if (!found || !found.active) return { refusal: CODE_MESSAGES.unknown(code) }
  // In the order's transaction a limited code is locked, and read again: a second order for the
  // last use waits, then counts the first.
  const limited = found.maxUses !== null || found.maxUsesPerCustomer !== null
  const [row] =
    lock && limited
      ? await db.select().from(promotions).where(eq(promotions.id, found.id)).for('update')
      : [found]
  if (!row || !row.active) return { refusal: CODE_MESSAGES.unknown(code) }
  if (row.startsAt && row.startsAt > now)
    return { refusal: CODE_MESSAGES.notStarted(code, bogotaMoment(row.startsAt)) }
  if (row.endsAt && row.endsAt <= now)
    return { refusal: CODE_MESSAGES.expired(code, bogotaMoment(row.endsAt)) }
  if (row.maxUses !== null && ((await usesOf(db, [row.id])).get(row.id) ?? 0) >= row.maxUses) {
    return { refusal: CODE_MESSAGES.usedUp(code) }
  }
  if (
    customer &&
    row.maxUsesPerCustomer !== null &&
    (await customerUsesOf(db, row.id, customer)) >= row.maxUsesPerCustomer
  ) {
    return { refusal: CODE_MESSAGES.usedByCustomer(code) }
  }
  return { rule: ruleOf(row) }
}

/** The cart's lines as the rules see them: level-1 and current prices, and each product's categories. */
export async function pricingLinesOf(
  db: DbOrTx,
  lines: readonly { sku: string; quantity: number }[],
): Promise<PricingLine[]> {
  // A NUL is in no sku, and PostgreSQL would refuse the whole query for it.
  const skus = [...new Set(lines.map((line) => line.sku))].filter((sku) => !hasNul(sku))
  if (!skus.length) return []
  const [rows, links] = await Promise.all([
    db
      .select({ sku: products.sku, level1: products.priceLevel1, discountPercent: products.discountPercent })
      .from(products)
      // Only what the shop sells: a line of a product no longer shown is priced by nobody.
      .where(and(inArray(products.sku, skus), eq(products.showRetail, true))),
    db
      .select({ sku: productCategories.productSku, categoryId: productCategories.categoryId })
      .from(productCategories)
      .where(inArray(productCategories.productSku, skus)),
  ])
  const bySku = new Map(rows.map((row) => [row.sku, row]))
  return lines.flatMap((line) => {
    const row = bySku.get(line.sku)
    if (!row) return []
    return [
      {
        sku: line.sku,
        quantity: line.quantity,
        listPrice: row.level1,
        unitPrice: discountedPrice(row.level1, row.discountPercent),
        categoryIds: links.filter((link) => link.sku === line.sku).map((link) => link.categoryId),
      },
    ]
  })
}

export type PromotionQuote = {
  pricing: PromotionPricing
  /** The code as kept (upper case), when one was typed. */
  code: string | null
  /** Why the typed code takes nothing off, in the shopper's words; null when it applies or none was typed. */
  codeRefusal: string | null
}

/**
 * The promotions this cart gets at `now`: the running automatic ones and the typed code. In the
 * order's transaction (`lock`) the limited promotions are locked before their uses are counted, so
 * two orders never both take a last use; the customer, when known, is held to per-customer limits.
 */
export async function quotePromotions(
  db: DbOrTx,
  input: {
    lines: readonly PricingLine[]
    shipping: number
    code?: string | null
    customer?: PromotionCustomer | null
    now?: Date
    lock?: boolean
  },
): Promise<PromotionQuote> {
  const now = input.now ?? new Date()
  const lock = input.lock ?? false
  const typed = input.code?.trim() ? normalizeCode(input.code) : null
  const automatic = await (lock ? lockedAutomatic(db as Tx, now) : runningAutomaticPromotions(db, now))
  const customerRules = input.customer ? await withinCustomerLimits(db, automatic, input.customer) : automatic
  let codeRefusal: string | null = null
  const rules = [...customerRules]
  if (typed) {
    const found = await codeRule(db, typed, now, input.customer ?? null, lock)
    if ('refusal' in found) codeRefusal = found.refusal
    else rules.push(found.rule)
  }
  const pricing = pricePromotions(input.lines, input.shipping, rules)
  if (typed && !codeRefusal) {
    const rule = rules.at(-1)!
    if (!pricing.applied.includes(rule))
      codeRefusal = codeMiss(rule, typed, input.lines, input.shipping, pricing)
  }
  return { pricing, code: typed, codeRefusal }
}

function codeMiss(
  rule: PromotionRule,
  code: string,
  lines: readonly PricingLine[],
  shipping: number,
  pricing: PromotionPricing,
): string {
  const miss = missOf(rule, lines, shipping)
  if (miss === 'minimum') {
    const subtotal = lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0)
    return CODE_MESSAGES.minimum(code, rule.minSubtotal, rule.minSubtotal - subtotal)
  }
  if (miss === 'products') return CODE_MESSAGES.products(code)
  if (miss === 'nothing') return CODE_MESSAGES.nothing(code)
  return CODE_MESSAGES.beaten(code, pricing.applied[0]?.name ?? '')
}

/** The running automatic promotions, the limited ones locked before their uses are counted. */
async function lockedAutomatic(tx: Tx, now: Date): Promise<PromotionRule[]> {
  const rows = await tx
    .select()
    .from(promotions)
    .where(and(runningAt(now), isNull(promotions.code)))
    .orderBy(asc(promotions.id))
  const limited = rows.filter((row) => row.maxUses !== null || row.maxUsesPerCustomer !== null)
  if (!limited.length) return withUsesLeft(tx, rows)
  // Read again under the lock: one paused or changed while this order waited counts as it is now.
  const locked = await tx
    .select()
    .from(promotions)
    .where(
      inArray(
        promotions.id,
        limited.map((row) => row.id),
      ),
    )
    .orderBy(asc(promotions.id))
    .for('update')
  const current = new Map(locked.map((row) => [row.id, row]))
  const kept = rows.flatMap((row) => {
    if (!current.has(row.id) && !limited.includes(row)) return [row]
    const now = current.get(row.id)
    return now && now.active ? [now] : []
  })
  return withUsesLeft(tx, kept)
}

async function withinCustomerLimits(
  db: DbOrTx,
  rules: PromotionRule[],
  customer: PromotionCustomer,
): Promise<PromotionRule[]> {
  if (!rules.length) return rules
  const limits = await db
    .select({ id: promotions.id, perCustomer: promotions.maxUsesPerCustomer })
    .from(promotions)
    .where(
      inArray(
        promotions.id,
        rules.map((rule) => rule.id),
      ),
    )
  const kept: PromotionRule[] = []
  for (const rule of rules) {
    const perCustomer = limits.find((limit) => limit.id === rule.id)?.perCustomer ?? null
    if (perCustomer === null || (await customerUsesOf(db, rule.id, customer)) < perCustomer) kept.push(rule)
  }
  return kept
}
