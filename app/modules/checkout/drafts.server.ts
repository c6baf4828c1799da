import { randomBytes, randomUUID } from 'node:crypto'
import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import { cleanLines } from '#app/modules/cart/cart.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { orders } from '#app/modules/order/schema.ts'
import { fitsCartCookie, MAX_CART_LINES } from '#app/modules/cart/cart-cookie.ts'
import { pricingLinesOf } from '#app/modules/promotions/promotions.server.ts'
import { quoteCart } from './cart-quote.server.ts'
import { ABANDONED_AFTER_MINUTES, DRAFT_KEPT_DAYS } from './drafts.ts'
import { checkoutDrafts } from './schema.ts'
import { isCheckoutPhone, normalizePhone } from './validators.ts'

/**
 * Checkouts begun and not finished ("Marketing", issue 27). A shopper who typed a phone at checkout
 * and ticked the data-policy authorization has what they typed and their cart kept (one open draft
 * per phone), so the shop can write to them on WhatsApp with a link that refills the cart. Unticking
 * the authorization forgets it; an order by that phone marks it recovered; it goes 30 days after its
 * last change whatever happens.
 */

const MINUTE = 60_000
const keptSince = (now: Date) => new Date(now.getTime() - DRAFT_KEPT_DAYS * 24 * 60 * MINUTE)
/** Changed after this, a checkout may still be being typed. */
const recentSince = (now: Date) => new Date(now.getTime() - ABANDONED_AFTER_MINUTES * MINUTE)

export type DraftInput = {
  phone: string
  name: string
  email: string
  /** The data-policy box of the checkout form. */
  consent: boolean
  lines: { sku: string; quantity: number }[]
}

/**
 * Keeps what a shopper typed at checkout, or forgets it when they untick the authorization. Nothing
 * without a usable phone or a cart. Answers what it did, for the caller's log.
 */
export async function keepCheckoutDraft(
  db: DbOrTx,
  input: DraftInput,
  now = new Date(),
): Promise<'kept' | 'forgotten' | 'ignored'> {
  const phone = normalizePhone(input.phone)
  if (!isCheckoutPhone(phone)) return 'ignored'
  if (!input.consent) {
    const gone = await db
      .delete(checkoutDrafts)
      .where(and(eq(checkoutDrafts.phone, phone), isNull(checkoutDrafts.orderId)))
      .returning({ id: checkoutDrafts.id })
    return gone.length ? 'forgotten' : 'ignored'
  }
  const lines = cleanLines(input.lines)
    .filter((line) => line.quantity > 0)
    .slice(0, MAX_CART_LINES)
  // Only a cart its recovery link can give back whole.
  if (!lines.length || !fitsCartCookie(lines)) return 'ignored'
  // The form's last change can reach the shop after the order it was sent with: a phone that
  // ordered a moment ago is a buyer, not a checkout left.
  const [ordered] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.customerPhone, phone), gt(orders.createdAt, recentSince(now))))
    .limit(1)
  if (ordered) return 'ignored'
  const name = input.name.trim().slice(0, 100)
  const email = input.email.trim().slice(0, 254)
  await db
    .insert(checkoutDrafts)
    .values({
      id: randomUUID(),
      phone,
      name,
      email,
      lines,
      token: randomBytes(18).toString('base64url'),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: checkoutDrafts.phone,
      targetWhere: sql`${checkoutDrafts.orderId} is null`,
      set: { name, email, lines, updatedAt: now },
    })
  return 'kept'
}

/**
 * An order was placed by this phone, in the order's transaction: its open draft was recovered when
 * it had been left (untouched for a while, or its link opened); a draft still being typed was just
 * this order's own form, and goes.
 */
export async function settleCheckoutDraft(tx: Tx, phone: string, orderId: string, now = new Date()) {
  const [draft] = await tx
    .select()
    .from(checkoutDrafts)
    .where(and(eq(checkoutDrafts.phone, normalizePhone(phone)), isNull(checkoutDrafts.orderId)))
    .for('update')
  if (!draft) return
  const left = draft.updatedAt.getTime() <= recentSince(now).getTime()
  if (left || draft.linkOpenedAt) {
    await tx.update(checkoutDrafts).set({ orderId, recoveredAt: now }).where(eq(checkoutDrafts.id, draft.id))
  } else {
    await tx.delete(checkoutDrafts).where(eq(checkoutDrafts.id, draft.id))
  }
}

/**
 * The cart of a recovery link, and (`opened`, a person rather than a link preview) a note that the
 * shopper opened it; null when the link is unknown or its draft is gone (over 30 days).
 */
export async function openCheckoutDraft(
  db: DbOrTx,
  token: string,
  { now = new Date(), opened = true }: { now?: Date; opened?: boolean } = {},
): Promise<{ sku: string; quantity: number }[] | null> {
  if (!/^[\w-]{10,64}$/.test(token)) return null
  const kept = and(
    eq(checkoutDrafts.token, token),
    sql`${checkoutDrafts.updatedAt} > ${keptSince(now).toISOString()}`,
  )
  const [draft] = opened
    ? await db
        .update(checkoutDrafts)
        .set({
          linkOpenedAt: sql`coalesce(${checkoutDrafts.linkOpenedAt}, ${now.toISOString()}::timestamptz)`,
        })
        .where(kept)
        .returning({ lines: checkoutDrafts.lines })
    : await db.select({ lines: checkoutDrafts.lines }).from(checkoutDrafts).where(kept)
  return draft ? cleanLines(draft.lines).filter((line) => line.quantity > 0) : null
}

export type CheckoutDraftRow = {
  id: string
  name: string
  phone: string
  email: string
  items: { sku: string; name: string; quantity: number; unitPrice: number | null }[]
  /** The cart at today's prices with the running promotions (products no longer sold left out), centavos. */
  total: number
  token: string
  updatedAt: Date
  linkOpenedAt: Date | null
  /** The order that followed, when recovered. */
  order: { id: string; number: number; total: number } | null
}

/**
 * The drafts for "Marketing": newest first; those still being typed (changed in the last
 * `ABANDONED_AFTER_MINUTES`) only with `includeRecent`. Recovered ones stay listed, with their order.
 */
export async function listCheckoutDrafts(
  db: DbOrTx,
  { now = new Date(), includeRecent = false, limit = 200 } = {},
): Promise<CheckoutDraftRow[]> {
  const drafts = await db
    .select({
      draft: checkoutDrafts,
      order: { id: orders.id, number: orders.number, total: orders.total },
    })
    .from(checkoutDrafts)
    .leftJoin(orders, eq(orders.id, checkoutDrafts.orderId))
    .where(
      and(
        sql`${checkoutDrafts.updatedAt} > ${keptSince(now).toISOString()}`,
        includeRecent ? undefined : lt(checkoutDrafts.updatedAt, recentSince(now)),
      ),
    )
    .orderBy(desc(checkoutDrafts.updatedAt))
    .limit(limit)
  const skus = [...new Set(drafts.flatMap(({ draft }) => draft.lines.map((line) => line.sku)))]
  const [names, sold] = skus.length
    ? await Promise.all([
        db
          .select({ sku: products.sku, name: products.name })
          .from(products)
          .where(inArray(products.sku, skus)),
        // Today's price of each product still sold, as the cart would show it.
        pricingLinesOf(
          db,
          skus.map((sku) => ({ sku, quantity: 1 })),
        ),
      ])
    : [[], []]
  const nameOf = new Map(names.map((product) => [product.sku, product.name]))
  const priceOf = new Map(sold.map((line) => [line.sku, line.unitPrice]))
  return Promise.all(
    drafts.map(async ({ draft, order }) => {
      const lines = cleanLines(draft.lines)
      // The cart's total today, the running promotions applied (without a code or shipping).
      const { total } = await quoteCart(db, { lines, code: null, shipping: 0, now })
      return {
        id: draft.id,
        name: draft.name,
        phone: draft.phone,
        email: draft.email,
        items: lines.map((line) => ({
          sku: line.sku,
          name: nameOf.get(line.sku) ?? line.sku,
          quantity: line.quantity,
          unitPrice: priceOf.get(line.sku) ?? null,
        })),
        total,
        token: draft.token,
        updatedAt: draft.updatedAt,
        linkOpenedAt: draft.linkOpenedAt,
        order: order?.id ? order : null,
      }
    }),
  )
}

/** Drafts untouched for 30 days go (the daily `checkout-drafts-purge` job). */
export async function purgeCheckoutDrafts(db: DbOrTx, now = new Date()): Promise<{ purged: number }> {
  const gone = await db
    .delete(checkoutDrafts)
    .where(lt(checkoutDrafts.updatedAt, keptSince(now)))
    .returning({ id: checkoutDrafts.id })
  return { purged: gone.length }
}
