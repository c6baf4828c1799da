import { and, asc, desc, eq } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { bogotaDay } from '#app/utils/bogota-days.ts'
import { Refusal } from '#app/utils/refusal.ts'
import {
  CLAIM_KIND_LABELS,
  CLAIM_MESSAGES,
  CLAIM_TEXT_MAX,
  claimDeadline,
  retractoLastDay,
  reversalLastDay,
  REVERSAL_CAUSE_LABELS,
} from './claims.ts'
import { spanishDay } from '#app/utils/spanish-dates.ts'
import { notifyNumbersOf } from './new-order-notice.server.ts'
import { lockOrder, recordOrderEvent, type OrderRow } from './order.server.ts'
import {
  isOnlinePaymentMethod,
  orderClaims,
  orderItems,
  orders,
  REVERSAL_CAUSES,
  type ReversalCause,
} from './schema.ts'
import { orderNotFound } from './ship.server.ts'

export type OrderClaim = typeof orderClaims.$inferSelect

/** What the buyer may ask of an order today, and until when; or why not (in Spanish). */
export type ClaimOption = { open: true; lastDay: string } | { open: false; reason: string }

type ClaimableOrder = Pick<OrderRow, 'status' | 'deliveredAt' | 'paymentMethod' | 'paymentId' | 'createdAt'>

/** The order's lines as the withdrawal rule reads them. */
type ClaimableItem = { title: string; personalUse: boolean }

/**
 * Whether a withdrawal may be asked today: a delivered order, within 5 business days of delivery,
 * with at least one line that is not a personal-use good (those sold as such have no withdrawal).
 */
export function retractoOption(
  order: ClaimableOrder,
  items: readonly ClaimableItem[],
  now: Date,
): ClaimOption {
  if (order.status === 'cancelado') return { open: false, reason: CLAIM_MESSAGES.cancelled }
  if (items.length && items.every((item) => item.personalUse)) {
    return { open: false, reason: CLAIM_MESSAGES.personalUse }
  }
  if (order.status !== 'Completado' || !order.deliveredAt) {
    return { open: false, reason: CLAIM_MESSAGES.notDelivered }
  }
  const lastDay = retractoLastDay(bogotaDay(order.deliveredAt))
  return bogotaDay(now) <= lastDay
    ? { open: true, lastDay }
    : { open: false, reason: CLAIM_MESSAGES.retractoExpired(lastDay) }
}

/**
 * Whether a payment reversal may be asked: an order paid online (its term runs from the day the
 * buyer learned of the cause, which the form asks).
 */
export function reversalOption(order: ClaimableOrder): { open: true } | { open: false; reason: string } {
  if (order.status === 'cancelado') return { open: false, reason: CLAIM_MESSAGES.cancelled }
  if (!isOnlinePaymentMethod(order.paymentMethod)) return { open: false, reason: CLAIM_MESSAGES.notOnline }
  if (!order.paymentId || (order.status !== 'pagado' && order.status !== 'Completado')) {
    return { open: false, reason: CLAIM_MESSAGES.notPaid }
  }
  return { open: true }
}

/** The order's open request, if any (at most one at a time). */
export async function openClaimOf(db: DbOrTx, orderId: string): Promise<OrderClaim | null> {
  const [claim] = await db
    .select()
    .from(orderClaims)
    .where(and(eq(orderClaims.orderId, orderId), eq(orderClaims.status, 'pendiente')))
  return claim ?? null
}

/** Every request of the order, newest first. */
export async function claimsOf(db: DbOrTx, orderId: string): Promise<OrderClaim[]> {
  return db
    .select()
    .from(orderClaims)
    .where(eq(orderClaims.orderId, orderId))
    .orderBy(desc(orderClaims.requestedAt), desc(orderClaims.id))
}

const refused = (message: string, status = 409) => new Refusal(message, { status, standsAlone: true })

function checkedDescription(description: string): string {
  const text = description.replace(/\s+/g, ' ').trim()
  if (text.length > CLAIM_TEXT_MAX) throw refused(CLAIM_MESSAGES.tooLong, 400)
  return text
}

export type ClaimNotices = {
  jobs: JobQueue
  /**
   * The business numbers told at once until the owner saves them in "Mensajes y Notificaciones"
   * (WHATSAPP_NOTIFY_NUMBERS); the saved list is read in the claim's transaction.
   */
  notifyNumbers: string[]
}

async function recordClaim(
  tx: Tx,
  notices: ClaimNotices,
  order: OrderRow,
  claim: Omit<typeof orderClaims.$inferInsert, 'orderId' | 'deadline'>,
  now: Date,
): Promise<OrderClaim> {
  const deadline = claimDeadline(claim.kind, bogotaDay(now))
  const [created] = await tx
    .insert(orderClaims)
    .values({ ...claim, orderId: order.id, deadline, requestedAt: now })
    .returning()
  const cause = claim.cause ? ` Motivo: ${REVERSAL_CAUSE_LABELS[claim.cause]}.` : ''
  await recordOrderEvent(
    tx,
    order.id,
    `claim-${claim.kind}`,
    `${CLAIM_KIND_LABELS[claim.kind]} solicitado por el cliente.${cause} Plazo de la tienda: ${spanishDay(deadline)}.`,
    { claimId: created!.id, description: claim.description },
    'cliente',
  )
  // The owner hears of it at once, on every business number (a job each, as new orders).
  const numbers = await notifyNumbersOf(tx, notices.notifyNumbers)
  if (!numbers.length) {
    await recordOrderEvent(
      tx,
      order.id,
      'notice-skipped',
      'Aviso por WhatsApp de la solicitud omitido: no hay números configurados.',
    )
  }
  for (const to of numbers) {
    await notices.jobs.send(tx, 'order-claim-notice', { claimId: created!.id, to })
  }
  return created!
}

/** Locks the order and refuses a second open request. */
async function lockClaimable(tx: Tx, orderId: string): Promise<OrderRow> {
  const order = await lockOrder(tx, orderId)
  if (!order) throw orderNotFound()
  if (await openClaimOf(tx, orderId)) throw refused(CLAIM_MESSAGES.alreadyOpen)
  return order
}

/**
 * The buyer withdraws from a delivered order (retracto), within 5 business days of delivery: the
 * request, its timeline entry and the owner's notices in one transaction.
 */
export async function requestRetracto(
  db: DbOrTx,
  notices: ClaimNotices,
  input: { orderId: string; description: string; now?: Date },
): Promise<OrderClaim> {
  const now = input.now ?? new Date()
  const description = checkedDescription(input.description)
  return db.transaction(async (tx) => {
    const order = await lockClaimable(tx, input.orderId)
    const items = await tx
      .select({ title: orderItems.title, personalUse: orderItems.personalUse })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id))
    const option = retractoOption(order, items, now)
    if (!option.open) throw refused(option.reason)
    // The owner reads which lines the withdrawal leaves out.
    const excluded = items.filter((item) => item.personalUse).map((item) => item.title)
    const note = excluded.length ? CLAIM_MESSAGES.personalUseItems(excluded) : ''
    return recordClaim(
      tx,
      notices,
      order,
      { kind: 'retracto', description: [description, note].filter(Boolean).join(' ') },
      now,
    )
  })
}

/**
 * The buyer asks for a payment reversal of an order paid online, within 5 business days of the day
 * they learned of its cause (never before the order, never after today).
 */
export async function requestReversal(
  db: DbOrTx,
  notices: ClaimNotices,
  input: { orderId: string; cause: string; learnedOn: string; description: string; now?: Date },
): Promise<OrderClaim> {
  const now = input.now ?? new Date()
  const description = checkedDescription(input.description)
  if (!(REVERSAL_CAUSES as readonly string[]).includes(input.cause)) {
    throw refused(CLAIM_MESSAGES.causeRequired, 400)
  }
  const cause = input.cause as ReversalCause
  return db.transaction(async (tx) => {
    const order = await lockClaimable(tx, input.orderId)
    const option = reversalOption(order)
    if (!option.open) throw refused(option.reason)
    const today = bogotaDay(now)
    const learnedOn = input.learnedOn.trim()
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(learnedOn) ||
      Number.isNaN(Date.parse(`${learnedOn}T00:00:00Z`)) ||
      learnedOn < bogotaDay(order.createdAt) ||
      learnedOn > today
    ) {
      throw refused(CLAIM_MESSAGES.learnedOnInvalid, 400)
    }
    const lastDay = reversalLastDay(learnedOn)
    if (today > lastDay) throw refused(CLAIM_MESSAGES.reversalExpired(lastDay))
    return recordClaim(tx, notices, order, { kind: 'reversion', cause, learnedOn, description }, now)
  })
}

/** Every request still waiting for the shop's answer, the nearest deadline first (the dashboard's). */
export async function openClaims(db: DbOrTx) {
  return db
    .select({
      id: orderClaims.id,
      orderId: orderClaims.orderId,
      orderNumber: orders.number,
      kind: orderClaims.kind,
      deadline: orderClaims.deadline,
    })
    .from(orderClaims)
    .innerJoin(orders, eq(orders.id, orderClaims.orderId))
    .where(eq(orderClaims.status, 'pendiente'))
    .orderBy(asc(orderClaims.deadline), asc(orderClaims.id))
}

/** The order's requests as the desk shows them: each with its Bogotá request day and days left to its deadline. */
export async function deskClaimsOf(db: DbOrTx, orderId: string, now = new Date()) {
  const today = Date.parse(bogotaDay(now))
  return (await claimsOf(db, orderId)).map((claim) => ({
    id: claim.id,
    kind: claim.kind,
    status: claim.status,
    cause: claim.cause,
    learnedOn: claim.learnedOn,
    description: claim.description,
    deadline: claim.deadline,
    requestedDay: bogotaDay(claim.requestedAt),
    decidedBy: claim.decidedBy,
    decisionNote: claim.decisionNote,
    daysLeft: Math.round((Date.parse(claim.deadline) - today) / 86_400_000),
  }))
}
