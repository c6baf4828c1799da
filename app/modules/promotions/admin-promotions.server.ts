import { asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#app/db/client.server.ts'
import { categories, products } from '#app/modules/catalog/schema.ts'
import { stockMovements } from '#app/modules/inventory/schema.ts'
import { orderDiscounts, orderItems, orders } from '#app/modules/order/schema.ts'
import { isSaleSql } from '#app/modules/order/sales-report.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { CODE_MAX_LENGTH } from './messages.ts'
import { usesOf } from './promotions.server.ts'
import { promotions } from './schema.ts'
import {
  checkPromotionForm,
  describePromotion,
  NAME_MAX_LENGTH,
  PROMOTION_MESSAGES,
  type PromotionFieldErrors,
  type PromotionFormValues,
  type PromotionInput,
  type PromotionState,
} from './validators.ts'

/**
 * The back office of "Descuentos y Promociones": the list with each promotion's state, uses,
 * revenue and margin, and every change the owner makes (create, edit, duplicate, pause, resume,
 * end now), each in one transaction. Past orders are never touched: they keep their own copy of
 * what a promotion gave them (`order_discounts`), whatever the promotion becomes.
 */

export type PromotionRow = typeof promotions.$inferSelect

/**
 * A promotion's state at `now`. An ended one is "vencida" even when paused (nothing brings it back
 * but a new end date); a paused one is "pausada" whatever its uses; then "agotada" when its uses
 * are spent, "programada" before it starts, "activa" otherwise.
 */
export function stateOf(
  row: Pick<PromotionRow, 'active' | 'startsAt' | 'endsAt' | 'maxUses'>,
  uses: number,
  now: Date,
): PromotionState {
  if (row.endsAt && row.endsAt <= now) return 'vencida'
  if (!row.active) return 'pausada'
  if (row.maxUses !== null && uses >= row.maxUses) return 'agotada'
  if (row.startsAt && row.startsAt > now) return 'programada'
  return 'activa'
}

export type AdminPromotion = {
  id: number
  name: string
  /** Null: an automatic promotion. */
  code: string | null
  /** What it gives, in the owner's words ("10 % en todo el pedido"). */
  description: string
  startsAt: string | null
  endsAt: string | null
  state: PromotionState
  active: boolean
  /** Orders that used it, cancelled ones left out. */
  uses: number
  maxUses: number | null
  maxUsesPerCustomer: number | null
  combinable: boolean
  /** Those orders' products net of every discount, as "Ventas" counts sales, centavos. */
  revenue: number
  /** Their lines net of every discount, less their cost (see `figuresOf`), centavos. */
  margin: number
}

/**
 * Revenue and margin of the sales that used each promotion, counted as "Ventas" counts them
 * (`isSaleSql`: not cancelled, cash on delivery or paid): revenue is their products net of every
 * line discount (shipping apart, as there). Margin is costed as the "Ventas" report costs it: a
 * shipped order's lines (net of `order_items.discount`) less the average cost its exits recorded
 * in the ledger (net of returns); an order not shipped yet, at its products' current average cost,
 * lines of a product no longer in the catalogue left out (no known cost).
 */
async function figuresOf(
  db: DbOrTx,
  ids: number[],
): Promise<Map<number, { revenue: number; margin: number }>> {
  if (!ids.length) return new Map()
  const result = await db.execute(sql`
    with used as (
      select distinct d.promotion_id, d.order_id
      from ${orderDiscounts} d
      join ${orders} on ${orders.id} = d.order_id
      where d.promotion_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) and ${isSaleSql}
    )
    select
      used.promotion_id,
      coalesce(sum(lines.net), 0) as revenue,
      coalesce(sum(
        case when ${orders.shippedAt} is not null then lines.net - coalesce(exits.cost, 0)
        else coalesce(estimate.margin, 0) end
      ), 0) as margin
    from used
    join ${orders} on ${orders.id} = used.order_id
    cross join lateral (
      select coalesce(sum(i.quantity::bigint * i.unit_price - i.discount), 0) as net
      from ${orderItems} i where i.order_id = used.order_id
    ) lines
    cross join lateral (
      select sum(case m.type when 'out' then m.total when 'in' then -m.total else 0 end) as cost
      from ${stockMovements} m where m.order_id = used.order_id
    ) exits
    cross join lateral (
      select sum(i.quantity::bigint * (i.unit_price - known.cost) - i.discount)
        filter (where known.cost is not null) as margin
      from ${orderItems} i
      cross join lateral (
        select (select p.cost from ${products} p where p.sku = i.product_sku) as cost
      ) known
      where i.order_id = used.order_id
    ) estimate
    group by used.promotion_id
  `)
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows
  return new Map(
    rows.map((row) => [
      Number(row.promotion_id),
      { revenue: Number(row.revenue ?? 0), margin: Number(row.margin ?? 0) },
    ]),
  )
}

/** The names a `products` target covers: its categories' names, then its SKUs. */
async function coverNames(db: DbOrTx, rows: PromotionRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((row) => row.categoryIds))]
  if (!ids.length) return new Map()
  const found = await db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(inArray(categories.id, ids))
  return new Map(found.map((row) => [row.id, row.name]))
}

function coversOf(row: PromotionRow, names: Map<string, string>): string[] {
  if (row.target !== 'products') return []
  return [...row.categoryIds.map((id) => names.get(id) ?? 'una categoría borrada'), ...row.productSkus]
}

/** Every promotion, newest first, with its state at `now`, uses, revenue and margin. */
export async function listPromotions(db: DbOrTx, now = new Date()): Promise<AdminPromotion[]> {
  const rows = await db.select().from(promotions).orderBy(desc(promotions.createdAt), desc(promotions.id))
  const ids = rows.map((row) => row.id)
  const [uses, figures, names] = await Promise.all([
    usesOf(db, ids),
    figuresOf(db, ids),
    coverNames(db, rows),
  ])
  return rows.map((row) => {
    const used = uses.get(row.id) ?? 0
    const figure = figures.get(row.id) ?? { revenue: 0, margin: 0 }
    return {
      id: row.id,
      name: row.name,
      code: row.code,
      description: describePromotion(row, coversOf(row, names)),
      startsAt: row.startsAt?.toISOString() ?? null,
      endsAt: row.endsAt?.toISOString() ?? null,
      state: stateOf(row, used, now),
      active: row.active,
      uses: used,
      maxUses: row.maxUses,
      maxUsesPerCustomer: row.maxUsesPerCustomer,
      combinable: row.combinable,
      revenue: figure.revenue,
      margin: figure.margin,
    }
  })
}

/** A promotion id as posted or in the address: a positive whole number, or null. */
export function promotionIdOf(raw: unknown): number | null {
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) return null
  const id = Number(raw)
  return id > 0 ? id : null
}

export async function getPromotion(db: DbOrTx, id: unknown): Promise<PromotionRow | null> {
  const promotionId = typeof id === 'number' ? id : promotionIdOf(id)
  if (promotionId === null) return null
  const [row] = await db.select().from(promotions).where(eq(promotions.id, promotionId))
  return row ?? null
}

/** A promotion form the shop will not save: one message per field, nothing written. */
export class PromotionRefused extends Refusal {
  readonly errors: PromotionFieldErrors
  constructor(errors: PromotionFieldErrors) {
    super(PROMOTION_MESSAGES.invalid, { status: 422, standsAlone: true })
    this.errors = errors
  }
}

const notFound = () => new Refusal(PROMOTION_MESSAGES.notFound, { standsAlone: true, status: 404 })

function parsed(values: PromotionFormValues): PromotionInput {
  const checked = checkPromotionForm(values)
  if (!checked.ok) throw new PromotionRefused(checked.errors)
  return checked.input
}

/**
 * What only the database knows, inside the saving transaction: the SKUs and categories exist, and
 * no other promotion has the code (the unique index is the last word if two saves race).
 */
async function checkAgainstDatabase(tx: DbOrTx, input: PromotionInput, ownId: number | null) {
  const errors: PromotionFieldErrors = {}
  if (input.productSkus.length) {
    const found = await tx
      .select({ sku: products.sku })
      .from(products)
      .where(inArray(products.sku, input.productSkus))
    const known = new Set(found.map((row) => row.sku))
    const missing = input.productSkus.filter((sku) => !known.has(sku))
    if (missing.length) errors.productSkus = PROMOTION_MESSAGES.unknownSkus(missing.slice(0, 10))
  }
  if (input.categoryIds.length) {
    const found = await tx
      .select({ id: categories.id })
      .from(categories)
      .where(inArray(categories.id, input.categoryIds))
    if (found.length !== input.categoryIds.length) errors.categoryIds = PROMOTION_MESSAGES.unknownCategories
  }
  if (input.code !== null) {
    const [taken] = await tx
      .select({ id: promotions.id })
      .from(promotions)
      .where(eq(promotions.code, input.code))
    if (taken && taken.id !== ownId) errors.code = PROMOTION_MESSAGES.codeTaken(input.code)
  }
  if (Object.keys(errors).length) throw new PromotionRefused(errors)
}

/** A save that lost a race for its code to another promotion: the unique index answers. */
function codeClash(thrown: unknown, code: string | null): never {
  const text = `${(thrown as { message?: string })?.message ?? ''} ${(thrown as { cause?: { message?: string } })?.cause?.message ?? ''}`
  if (code !== null && text.includes('promotions_code_idx'))
    throw new PromotionRefused({ code: PROMOTION_MESSAGES.codeTaken(code) })
  throw thrown
}

export async function createPromotion(
  db: Db,
  values: PromotionFormValues,
  now = new Date(),
): Promise<{ id: number }> {
  const input = parsed(values)
  try {
    return await db.transaction(async (tx) => {
      await checkAgainstDatabase(tx, input, null)
      const [row] = await tx
        .insert(promotions)
        .values({ ...input, createdAt: now, updatedAt: now })
        .returning({ id: promotions.id })
      return { id: row!.id }
    })
  } catch (thrown) {
    codeClash(thrown, input.code)
  }
}

/**
 * Saves the form over a promotion. Orders placed before keep what it gave them
 * (`order_discounts`); uses already counted keep counting against the new limits.
 */
export async function updatePromotion(
  db: Db,
  id: unknown,
  values: PromotionFormValues,
  now = new Date(),
): Promise<void> {
  const promotionId = promotionIdOf(id)
  if (promotionId === null) throw notFound()
  const input = parsed(values)
  try {
    await db.transaction(async (tx) => {
      const [current] = await tx
        .select({ id: promotions.id })
        .from(promotions)
        .where(eq(promotions.id, promotionId))
        .for('update')
      if (!current) throw notFound()
      await checkAgainstDatabase(tx, input, promotionId)
      await tx
        .update(promotions)
        .set({ ...input, updatedAt: now })
        .where(eq(promotions.id, promotionId))
    })
  } catch (thrown) {
    codeClash(thrown, input.code)
  }
}

const COPY_SUFFIX = ' (copia)'

/** "Black Friday (copia)", the original cut so the whole name fits. */
export function copyName(name: string): string {
  return `${name.slice(0, NAME_MAX_LENGTH - COPY_SUFFIX.length).trimEnd()}${COPY_SUFFIX}`
}

/**
 * A free code for a copy: "VERANO10-COPIA", then "VERANO10-COPIA2"… (cut to fit 40 characters). A
 * copy keeps being a code, as the owner made it, under a name nobody has yet; it starts paused, so
 * the owner renames the code (or not) before any shopper can type it.
 */
async function copyCode(tx: DbOrTx, code: string): Promise<string> {
  // Each candidate asked for itself: a long code is cut shorter for a longer suffix, so no one
  // prefix finds every copy made before.
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '-COPIA' : `-COPIA${n}`
    const candidate = `${code.slice(0, CODE_MAX_LENGTH - suffix.length)}${suffix}`
    const [taken] = await tx
      .select({ id: promotions.id })
      .from(promotions)
      .where(eq(promotions.code, candidate))
    if (!taken) return candidate
  }
}

/**
 * A copy of a promotion to start a similar one from: everything the same but named "… (copia)",
 * paused (it gives nothing until the owner resumes it) and, for a code, under a free code (see
 * `copyCode`). It starts with no uses: they belong to the orders of the original.
 */
export async function duplicatePromotion(
  db: Db,
  id: unknown,
  now = new Date(),
): Promise<{ id: number; name: string }> {
  const promotionId = promotionIdOf(id)
  if (promotionId === null) throw notFound()
  return db.transaction(async (tx) => {
    const [original] = await tx.select().from(promotions).where(eq(promotions.id, promotionId))
    if (!original) throw notFound()
    const { id: _id, createdAt: _created, updatedAt: _updated, ...columns } = original
    const name = copyName(original.name)
    const code = original.code === null ? null : await copyCode(tx, original.code)
    const [row] = await tx
      .insert(promotions)
      .values({ ...columns, name, code, active: false, createdAt: now, updatedAt: now })
      .returning({ id: promotions.id })
    return { id: row!.id, name }
  })
}

/** Locks the promotion, refuses an unknown one, and one already ended when `ended` says so. */
async function changeOne(
  db: Db,
  id: unknown,
  now: Date,
  change: (row: PromotionRow) => Partial<PromotionRow>,
): Promise<{ name: string }> {
  const promotionId = promotionIdOf(id)
  if (promotionId === null) throw notFound()
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(promotions).where(eq(promotions.id, promotionId)).for('update')
    if (!row) throw notFound()
    if (row.endsAt && row.endsAt <= now) {
      throw new Refusal(PROMOTION_MESSAGES.alreadyEnded(row.name), { standsAlone: true, status: 409 })
    }
    await tx
      .update(promotions)
      .set({ ...change(row), updatedAt: now })
      .where(eq(promotions.id, promotionId))
    return { name: row.name }
  })
}

/** Switches it off: it gives nothing until resumed. */
export function pausePromotion(db: Db, id: unknown, now = new Date()) {
  return changeOne(db, id, now, () => ({ active: false }))
}

export function resumePromotion(db: Db, id: unknown, now = new Date()) {
  return changeOne(db, id, now, () => ({ active: true }))
}

/**
 * Ends it at `now` (its end date becomes now). One that had not started yet ends without ever
 * running: its start moves to now too, so its end is never before its start.
 */
export function endPromotionNow(db: Db, id: unknown, now = new Date()) {
  return changeOne(db, id, now, (row) => ({
    endsAt: now,
    ...(row.startsAt && row.startsAt > now ? { startsAt: now } : {}),
  }))
}

/** The categories the form offers for a `products` target, by name. */
export async function promotionCategoryChoices(db: DbOrTx): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.name), asc(categories.id))
}
