import { and, eq } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import { productVatOf } from '#app/modules/catalog/product-vat.server.ts'
import { getOrder, recordOrderEvent, type OrderWithItems } from '#app/modules/order/order.server.ts'
import { isPaidBeforeShipping, orderClaims, type PaymentMethod } from '#app/modules/order/schema.ts'
import { shippingDiscountOf } from '#app/modules/order/discounts.ts'
import { logger } from '#app/utils/logger.server.ts'
import type { VatRate } from '#app/utils/vat.ts'
import { readInvoiceSettings } from '#app/modules/settings/settings.server.ts'
import {
  InvoicingRefused,
  InvoicingUnavailable,
  type CreditNoteDraft,
  type InvoiceDraft,
  type InvoiceLine,
  type InvoicePaymentMethod,
  type InvoicingProvider,
  type Vat,
} from './provider.ts'
import { discountedInvoiceLines, exactDiscountPercent } from './discount-lines.ts'
import { invoices, type InvoicedLines, type InvoiceKind, type InvoiceRow } from './schema.ts'

/** What the invoicing jobs work with: the database and the provider (null: not configured). */
export type InvoicingDeps = { db: DbOrTx; invoicing: InvoicingProvider | null }

export type InvoiceTriggerName = 'paid' | 'delivered' | 'manual'

/** Provider names as the owner reads them. */
const PROVIDER_LABELS: Record<string, string> = { factus: 'Factus' }
const providerLabel = (provider: InvoicingProvider) => PROVIDER_LABELS[provider.name] ?? provider.name

export const INVOICE_MESSAGES = {
  skipped: 'Factura electrónica omitida: la facturación no está configurada.',
  creditNoteSkipped: 'Nota crédito omitida: la facturación no está configurada.',
  missingMunicipality: 'Falta el municipio (DANE) del pedido: elígelo en el pedido y emite la factura.',
  issued: (number: string, cufe: string) => `Factura electrónica ${number} emitida (CUFE ${cufe}).`,
  refused: (provider: string, reason: string) => `${provider} rechazó la factura: ${reason}`,
  emailed: (number: string, email: string) => `Factura ${number} enviada por correo a ${email}.`,
  emailFailed: (number: string, email: string, reason: string) =>
    `No se pudo enviar la factura ${number} por correo a ${email}: ${reason}`,
  creditNoteIssued: (number: string, cude: string, invoice: string) =>
    `Nota crédito ${number} emitida para la factura ${invoice} (CUDE ${cude}).`,
  creditNoteRefused: (provider: string, reason: string) => `${provider} rechazó la nota crédito: ${reason}`,
  retrying: (provider: string, reason: string) =>
    `${provider} no respondió (${reason}). Se reintenta sola; si sigue sin respuesta aparece en «Tareas fallidas».`,
} as const

type DocumentRow = { orderId: string; kind: InvoiceKind; referenceCode: string }

/**
 * A document not issued: its row says why (skipped, failed, or waiting while the job retries) and,
 * but for a retry, the order's timeline says it too.
 */
async function keepNotIssued(
  db: DbOrTx,
  row: DocumentRow & { provider: string | null },
  status: 'skipped' | 'failed' | 'retrying',
  providerMessage: string,
  event?: { type: string; message: string; data?: Record<string, unknown> },
) {
  await saveInvoice(db, { ...row, status, providerMessage })
  if (event) await recordOrderEvent(db, row.orderId, event.type, event.message, event.data)
}

/**
 * What the provider's refusal or silence leaves: a refusal is kept as failed with its message
 * (`refusal.event`, worded by `refusal.message`) and answered `failed`, never retried; no answer is
 * kept as waiting, so the desk says why the document is late, and thrown on for the queue to retry
 * (and dead-letter when out of retries). Anything else is thrown as it is.
 */
async function keepIssueFailure(
  db: DbOrTx,
  invoicing: InvoicingProvider,
  row: DocumentRow,
  error: unknown,
  refusal: { event: string; message: (provider: string, reason: string) => string },
): Promise<'failed'> {
  const provider = providerLabel(invoicing)
  if (error instanceof InvoicingUnavailable) {
    await keepNotIssued(
      db,
      { ...row, provider: invoicing.name },
      'retrying',
      INVOICE_MESSAGES.retrying(provider, error.message),
    )
  }
  if (!(error instanceof InvoicingRefused)) throw error
  const reason = reasonOf(error)
  await keepNotIssued(db, { ...row, provider: invoicing.name }, 'failed', reason, {
    type: refusal.event,
    message: refusal.message(provider, reason),
    data: { providerMessages: error.providerMessages, status: error.status ?? null },
  })
  return 'failed'
}

/** The credit note's reference: what the provider knows it by, one per order. */
export const creditNoteReference = (orderId: string) => `nc-${orderId}`

export type IssueOutcome =
  'issued' | 'already-issued' | 'not-this-trigger' | 'skipped' | 'failed' | 'unknown-order'

/**
 * Whether this trigger issues the order's invoice under the shop's setting: `auto` issues an online
 * order when its payment is confirmed and a cash-on-delivery order when it is delivered (an online
 * order delivered was invoiced when paid); `manual` only from the desk. The desk always may.
 */
export function triggerIssues(
  trigger: InvoiceTriggerName,
  setting: 'auto' | 'manual',
  order: Pick<OrderWithItems, 'paymentMethod' | 'status'>,
): boolean {
  if (trigger === 'manual') return order.status !== 'cancelado'
  if (setting !== 'auto' || order.status === 'cancelado') return false
  // Paid before shipping (online, or a transfer the desk confirmed): invoiced when paid.
  return trigger === 'paid' ? isPaidBeforeShipping(order.paymentMethod) : order.paymentMethod === 'acordar'
}

/** How the invoice names the way the order was paid (DIAN's "medio de pago"). */
const INVOICED_PAYMENT_METHOD: Record<PaymentMethod, InvoicePaymentMethod> = {
  acordar: 'cash_on_delivery',
  mercadopago: 'online',
  wompi: 'online',
  transferencia: 'transfer',
}

/** The order's invoice or credit note row, if any. */
export async function invoiceOf(db: DbOrTx, orderId: string, kind: InvoiceKind): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind)))
  return row ?? null
}

/** The order's invoice and credit note, for the desk. */
export async function invoicesOfOrder(db: DbOrTx, orderId: string) {
  const rows = await db.select().from(invoices).where(eq(invoices.orderId, orderId))
  return {
    invoice: rows.find((row) => row.kind === 'invoice') ?? null,
    creditNote: rows.find((row) => row.kind === 'credit_note') ?? null,
  }
}

type InvoiceWrite = Omit<typeof invoices.$inferInsert, 'id' | 'createdAt'>

/** One row per order and kind: a later attempt (a skip, then an issue from the desk) replaces it. */
async function saveInvoice(db: DbOrTx, row: InvoiceWrite) {
  const blank = {
    provider: null,
    number: null,
    cufe: null,
    qrUrl: null,
    pdfUrl: null,
    xmlUrl: null,
    providerReference: null,
    lines: null,
    providerMessage: null,
    issuedAt: null,
  }
  const values = { ...blank, ...row }
  await db
    .insert(invoices)
    .values(values)
    .onConflictDoUpdate({ target: [invoices.orderId, invoices.kind], set: values })
}

/** The provider's reason without its own "Factus rechazó la factura: " (the event adds it). */
function reasonOf(error: InvoicingRefused) {
  return error.message.replace(/^\S+ rechazó (la factura|la nota crédito): /, '').trim() || 'sin motivo'
}

const toVat = (rate: VatRate): Vat => (rate === '5' ? 5 : rate === '19' ? 19 : rate)

/**
 * Each item at the price charged, with what promotions took off it (`discountedInvoiceLines`) and the
 * product's IVA (or the shop's default); the shipping with its discount, or at its net cost when no
 * percentage says it exactly. The lines add up to the order's total.
 */
async function linesOf(db: DbOrTx, order: OrderWithItems): Promise<InvoicedLines> {
  const { defaultVat } = await readInvoiceSettings(db)
  const vats = await productVatOf(
    db,
    order.items.map((item) => item.productSku),
  )
  const items: InvoiceLine[] = order.items.flatMap((item) =>
    discountedInvoiceLines({
      sku: item.productSku,
      name: item.title,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      discount: item.discount,
      vat: toVat(vats.get(item.productSku) ?? defaultVat),
    }),
  )
  const shippingDiscount = shippingDiscountOf(order)
  const percent = exactDiscountPercent(order.shippingCost, shippingDiscount)
  if (!shippingDiscount || shippingDiscount === order.shippingCost || percent === null) {
    return { items, shipping: order.shippingCost - shippingDiscount }
  }
  return { items, shipping: order.shippingCost, shippingDiscountPercent: percent }
}

function draftOf(order: OrderWithItems, municipalityCode: string, lines: InvoicedLines): InvoiceDraft {
  return {
    referenceCode: order.id,
    orderNumber: order.number,
    issuedFor: {
      identificationType: order.customerIdentificationType ?? null,
      identificationNumber: order.customerIdentificationNumber,
      names: [order.customerName, order.customerLastName]
        .map((part) => part.trim())
        .filter(Boolean)
        .join(' '),
      email: order.customerEmail,
      phone: order.customerPhone,
      address: order.customerAddress,
      municipalityCode,
    },
    paymentMethod: INVOICED_PAYMENT_METHOD[order.paymentMethod],
    items: lines.items,
    shipping: lines.shipping,
    shippingDiscountPercent: lines.shippingDiscountPercent,
    shippingVat: lines.shippingVat,
    observation: `Pedido ${order.number}`,
  }
}

/**
 * Job `invoice-issue`: issues the order's DIAN electronic invoice when the trigger and the shop's
 * setting (read now) say so. Never twice: an issued invoice on record ends it, and the provider is
 * asked for the reference before issuing. Not configured: a `skipped` row and a timeline note. A
 * refusal (or an order without its municipality): a `failed` row with the reason for the owner, no
 * retry. `InvoicingUnavailable` (and anything unexpected) is thrown: the queue retries with backoff
 * and dead-letters it at the end, where the dashboard shows it.
 */
export async function issueOrderInvoice(
  deps: InvoicingDeps,
  job: { orderId: string; trigger: InvoiceTriggerName },
): Promise<IssueOutcome> {
  const { db, invoicing } = deps
  const order = await getOrder(db, job.orderId)
  if (!order) {
    logger.warn(`[facturación] pedido ${job.orderId} no encontrado`)
    return 'unknown-order'
  }
  if ((await invoiceOf(db, order.id, 'invoice'))?.status === 'issued') return 'already-issued'
  const { trigger } = await readInvoiceSettings(db)
  if (!triggerIssues(job.trigger, trigger, order)) return 'not-this-trigger'

  const row: DocumentRow = { orderId: order.id, kind: 'invoice', referenceCode: order.id }
  if (!invoicing) {
    await keepNotIssued(db, { ...row, provider: null }, 'skipped', INVOICE_MESSAGES.skipped, {
      type: 'invoice-skipped',
      message: INVOICE_MESSAGES.skipped,
    })
    return 'skipped'
  }
  const municipality = order.customerMunicipalityCode
  if (!municipality) {
    const missing = INVOICE_MESSAGES.missingMunicipality
    await keepNotIssued(db, { ...row, provider: invoicing.name }, 'failed', missing, {
      type: 'invoice-failed',
      message: missing,
    })
    return 'failed'
  }

  const lines = await linesOf(db, order)
  let issued = await invoicing.findInvoice(row.referenceCode)
  if (!issued) {
    try {
      issued = await invoicing.issueInvoice(draftOf(order, municipality, lines))
    } catch (error) {
      return keepIssueFailure(db, invoicing, row, error, {
        event: 'invoice-failed',
        message: INVOICE_MESSAGES.refused,
      })
    }
  }
  await saveInvoice(db, {
    ...row,
    status: 'issued',
    provider: issued.provider,
    number: issued.number,
    cufe: issued.cufe,
    qrUrl: issued.qrUrl,
    pdfUrl: issued.pdfUrl,
    xmlUrl: issued.xmlUrl,
    providerReference: issued.providerReference,
    lines,
    issuedAt: issued.issuedAt ?? new Date(),
  })
  await recordOrderEvent(
    db,
    order.id,
    'invoice-issued',
    INVOICE_MESSAGES.issued(issued.number, issued.cufe),
    {
      number: issued.number,
      trigger: job.trigger,
    },
  )
  const email = order.customerEmail.trim()
  if (email && invoicing.sendInvoiceEmail) {
    try {
      await invoicing.sendInvoiceEmail(issued.number, email)
      await recordOrderEvent(db, order.id, 'invoice-emailed', INVOICE_MESSAGES.emailed(issued.number, email))
    } catch (error) {
      // The invoice stands; the owner can send it again from the provider.
      const reason = error instanceof Error ? error.message : String(error)
      await recordOrderEvent(
        db,
        order.id,
        'invoice-email-failed',
        INVOICE_MESSAGES.emailFailed(issued.number, email, reason),
      )
    }
  }
  return 'issued'
}

export type CreditNoteOutcome =
  'issued' | 'already-issued' | 'no-invoice' | 'skipped' | 'failed' | 'unknown-order'

/**
 * Job `invoice-credit-note`: credits the whole invoice of an order cancelled after it was paid or
 * delivered, when it has an issued invoice and no credit note yet. The reason is `devolucion` when
 * the order ended by an accepted withdrawal or reversal, `anulacion` otherwise. Failures as for the
 * invoice.
 */
export async function issueOrderCreditNote(
  deps: InvoicingDeps,
  job: { orderId: string },
): Promise<CreditNoteOutcome> {
  const { db, invoicing } = deps
  const order = await getOrder(db, job.orderId)
  if (!order) {
    logger.warn(`[facturación] pedido ${job.orderId} no encontrado (nota crédito)`)
    return 'unknown-order'
  }
  const invoice = await invoiceOf(db, order.id, 'invoice')
  if (invoice?.status !== 'issued' || !invoice.number) return 'no-invoice'
  if ((await invoiceOf(db, order.id, 'credit_note'))?.status === 'issued') return 'already-issued'

  const row: DocumentRow = {
    orderId: order.id,
    kind: 'credit_note',
    referenceCode: creditNoteReference(order.id),
  }
  if (!invoicing) {
    const skipped = INVOICE_MESSAGES.creditNoteSkipped
    await keepNotIssued(db, { ...row, provider: null }, 'skipped', skipped, {
      type: 'credit-note-skipped',
      message: skipped,
    })
    return 'skipped'
  }
  const [accepted] = await db
    .select({ id: orderClaims.id })
    .from(orderClaims)
    .where(and(eq(orderClaims.orderId, order.id), eq(orderClaims.status, 'aceptada')))
  // What the invoice carried; an invoice recorded without its lines is credited as the order is now.
  const lines = invoice.lines ?? (await linesOf(db, order))
  const draft: CreditNoteDraft = {
    referenceCode: row.referenceCode,
    invoiceNumber: invoice.number,
    providerReference: invoice.providerReference ?? undefined,
    reason: accepted ? 'devolucion' : 'anulacion',
    items: lines.items,
    shipping: lines.shipping,
    shippingDiscountPercent: lines.shippingDiscountPercent,
    shippingVat: lines.shippingVat,
    observation: `Pedido ${order.number}: ${accepted ? 'devolución' : 'anulación'}`,
  }
  let note = await invoicing.findCreditNote(row.referenceCode)
  if (!note) {
    try {
      note = await invoicing.issueCreditNote(draft)
    } catch (error) {
      return keepIssueFailure(db, invoicing, row, error, {
        event: 'credit-note-failed',
        message: INVOICE_MESSAGES.creditNoteRefused,
      })
    }
  }
  await saveInvoice(db, {
    ...row,
    status: 'issued',
    provider: note.provider,
    number: note.number,
    cufe: note.cude,
    qrUrl: note.qrUrl,
    providerReference: note.providerReference,
    lines,
    issuedAt: note.issuedAt ?? new Date(),
  })
  await recordOrderEvent(
    db,
    order.id,
    'credit-note-issued',
    INVOICE_MESSAGES.creditNoteIssued(note.number, note.cude, invoice.number),
    { number: note.number, invoiceNumber: invoice.number, reason: draft.reason },
  )
  return 'issued'
}
