import { and, eq, isNull, sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { DbOrTx, Tx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { checkUpload, type Upload } from '#app/modules/media/media.server.ts'
import { markOrderPaidAtDeskIn } from '#app/modules/order/mark-paid.server.ts'
import { cancelOrder } from '#app/modules/order/cancel.server.ts'
import { staleOrderIds } from '#app/modules/order/expire.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { lockOrder, recordOrderEvent } from '#app/modules/order/order.server.ts'
import type { OrderRow } from '#app/modules/order/order.server.ts'
import { readPaymentSettings } from '#app/modules/settings/settings.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { enqueuePaidOrderPurchase } from '#app/modules/marketing/events.server.ts'
import { recordLedgerPayment } from './ledger.server.ts'
import { paymentReceipts } from './schema.ts'
import { MAX_RECEIPT_BYTES, RECEIPT_FIELD, TRANSFER_MESSAGES } from './transfer.ts'
import { uploadsFrom } from '#app/modules/media/form-uploads.server.ts'

/**
 * Transfers and Bre-B payments: the buyer pays to the shop's key or account from their bank's app,
 * uploads the receipt, and the owner, having seen the money arrive, marks the order paid.
 */

const HOUR_MS = 60 * 60 * 1000

/** What the buyer needs to pay an order by transfer. Money in centavos. */
export type TransferInstructions = {
  /** The shop's Bre-B key and account; either may be '' (never both while transfers are on). */
  brebKey: string
  account: string
  amount: number
  /** The order's number: what the buyer writes as the payment's reference. */
  reference: number
  /** When the order stops waiting for the money (ISO). */
  deadline: string
}

/**
 * Where and how much to pay, and until when: null while transfers are switched off (or nowhere
 * to send them is saved), so no page ever shows an empty key.
 */
export async function transferInstructionsOf(
  db: DbOrTx,
  order: Pick<OrderRow, 'number' | 'total' | 'createdAt'>,
): Promise<TransferInstructions | null> {
  const { transfer } = await readPaymentSettings(db)
  if (!transfer) return null
  return {
    brebKey: transfer.brebKey,
    account: transfer.account,
    amount: order.total,
    reference: order.number,
    deadline: new Date(order.createdAt.getTime() + transfer.deadlineHours * HOUR_MS).toISOString(),
  }
}

/** The receipt types the back office shows, by what the bytes are. */
const IMAGE_TYPES: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' }
export const RECEIPT_CONTENT_TYPES = ['application/pdf', ...Object.values(IMAGE_TYPES)] as const

/**
 * What an uploaded receipt is, by its bytes (never its name or declared type): a PDF by its
 * `%PDF-` header, or an image the media checks decode, of a format every browser shows.
 */
async function receiptTypeOf(upload: Upload): Promise<string> {
  const { bytes } = upload
  if (bytes.length === 0) throw new Refusal(TRANSFER_MESSAGES.empty, { status: 400 })
  if (bytes.length > MAX_RECEIPT_BYTES) throw new Refusal(TRANSFER_MESSAGES.tooLarge, { status: 400 })
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf'
  const checked = await checkUpload(upload).catch(() => null)
  if (checked?.kind !== 'image') throw new Refusal(TRANSFER_MESSAGES.notReceipt, { status: 400 })
  // sharp also decodes SVG, GIF, TIFF and AVIF: only formats a back-office browser shows inline pass.
  const { format } = await sharp(bytes).metadata()
  const type = format ? IMAGE_TYPES[format] : undefined
  if (!type) throw new Refusal(TRANSFER_MESSAGES.notReceipt, { status: 400 })
  return type
}

/** A transfer order still waiting for its money, locked for the rest of the transaction. */
async function lockPendingTransfer(tx: Tx, orderId: string): Promise<OrderRow> {
  const order = await lockOrder(tx, orderId)
  if (!order) throw new Refusal(TRANSFER_MESSAGES.orderNotFound, { status: 404 })
  if (order.paymentMethod !== 'transferencia')
    throw new Refusal(TRANSFER_MESSAGES.notTransfer, { status: 409 })
  if (order.status !== 'pendiente de pago') throw new Refusal(TRANSFER_MESSAGES.notPending, { status: 409 })
  return order
}

/**
 * Keeps the buyer's receipt of a transfer order still "pendiente de pago" (replacing an earlier
 * one) and writes it on the timeline. The file is checked before anything is written; a bad one,
 * or an order that does not wait for a transfer, is refused with nothing written.
 */
export async function saveTransferReceipt(db: DbOrTx, orderId: string, file: Upload) {
  const contentType = await receiptTypeOf(file)
  // Only the last part of the name, without control characters: it is shown, never used as a path.
  const fileName = (file.name.split(/[\\/]/).pop() ?? '').replace(/\p{Cc}/gu, '').slice(0, 200)
  await db.transaction(async (tx) => {
    await lockPendingTransfer(tx, orderId)
    const row = { orderId, contentType, bytes: file.bytes, fileName }
    await tx
      .insert(paymentReceipts)
      .values(row)
      .onConflictDoUpdate({
        target: paymentReceipts.orderId,
        set: { contentType, bytes: file.bytes, fileName, uploadedAt: sql`now()` },
      })
    await recordOrderEvent(tx, orderId, 'payment-receipt', TRANSFER_MESSAGES.receiptEventMessage, {
      contentType,
      fileName,
      size: file.bytes.length,
    })
  })
}

/** The receipt a buyer's form posted (its `comprobante` file), kept as `saveTransferReceipt` keeps it. */
export async function saveTransferReceiptFrom(db: DbOrTx, orderId: string, form: FormData) {
  const [file] = await uploadsFrom(form, RECEIPT_FIELD)
  if (!file) throw new Refusal(TRANSFER_MESSAGES.noFile, { status: 400 })
  await saveTransferReceipt(db, orderId, file)
}

/** The order's receipt as uploaded (for the back office's download), or null when there is none. */
export async function receiptOf(db: DbOrTx, orderId: string) {
  const [row] = await db.select().from(paymentReceipts).where(eq(paymentReceipts.orderId, orderId))
  return row ?? null
}

/** When the order's receipt was uploaded, without its bytes: what the pages show. Null when none. */
export async function receiptUploadOf(db: DbOrTx, orderId: string) {
  const [row] = await db
    .select({
      uploadedAt: paymentReceipts.uploadedAt,
      contentType: paymentReceipts.contentType,
      fileName: paymentReceipts.fileName,
    })
    .from(paymentReceipts)
    .where(eq(paymentReceipts.orderId, orderId))
  return row ?? null
}

/**
 * The owner saw a transfer arrive: in one transaction the order becomes "pagado" (the order
 * module's change), the ledger keeps the payment (`transferencia-{order id}`, by whom), and the
 * electronic invoice is queued, as an approved online payment does. Refused (409) for an order
 * that is not paid by transfer.
 */
export async function confirmTransferPaid(db: DbOrTx, jobs: JobQueue, orderId: string, by: string) {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) throw new Refusal(TRANSFER_MESSAGES.orderNotFound, { status: 404 })
    if (order.paymentMethod !== 'transferencia')
      throw new Refusal(TRANSFER_MESSAGES.notTransfer, { status: 409 })
    await settleTransfer(tx, jobs, order, by)
  })
}

async function settleTransfer(tx: Tx, jobs: JobQueue, order: OrderRow, by: string) {
  await markOrderPaidAtDeskIn(tx, order.id, by, TRANSFER_MESSAGES.confirmedEventMessage)
  await recordLedgerPayment(tx, {
    provider: 'transferencia',
    providerPaymentId: `transferencia-${order.id}`,
    orderId: order.id,
    method: 'transferencia',
    status: 'approved',
    amount: order.total,
    recordedBy: by,
  })
  await jobs.send(tx, 'invoice-issue', { orderId: order.id, trigger: 'paid' })
  // Meta's Purchase of an order paid before shipping is its payment, here the owner's confirmation.
  await enqueuePaidOrderPurchase(tx, jobs, order.id)
}

/**
 * The desk's "Marcar como pagado": a transfer is confirmed with its ledger row and invoice
 * (`confirmTransferPaid`); any other order (cash on delivery) only changes state, as always.
 */
export async function markPaidAtDesk(db: DbOrTx, jobs: JobQueue, orderId: string, by: string) {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (order?.paymentMethod === 'transferencia') await settleTransfer(tx, jobs, order, by)
    else await markOrderPaidAtDeskIn(tx, orderId, by)
  })
}

/**
 * Cancels transfer and Bre-B orders nobody marked paid within the shop's deadline ("Pagos" in
 * "Configuraciones"), releasing their units. There is no provider to ask; an order whose buyer
 * sent a receipt waits for the owner instead (the money may be in the bank: only a person can
 * tell), and one already shipped is never expired (checked again on the locked row).
 */
export async function expireUnpaidTransfers(
  db: DbOrTx,
  jobs: JobQueue,
  deadlineHours: number,
  now = new Date(),
) {
  const stale = await staleOrderIds(
    db,
    and(
      eq(orders.status, 'pendiente de pago'),
      eq(orders.paymentMethod, 'transferencia'),
      isNull(orders.shippedAt),
      sql`not exists (select 1 from ${paymentReceipts} where ${paymentReceipts.orderId} = ${orders.id})`,
    ),
    deadlineHours,
    now,
  )
  const reason = `Cancelado: la transferencia no llegó en ${deadlineHours} horas; unidades liberadas.`
  let cancelled = 0
  for (const id of stale) {
    if (await cancelOrder(db, jobs, id, reason, { onlyIfPending: true, unlessShipped: true })) cancelled++
  }
  return { cancelled }
}
