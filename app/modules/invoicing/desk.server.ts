import type { DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { lockOrder, recordOrderEvent } from '#app/modules/order/order.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { invoiceOf, invoicesOfOrder, type InvoicingDeps } from './issue.server.ts'
import { INVOICE_DESK_MESSAGES } from './messages.ts'
import { InvoicingRefused, InvoicingUnavailable } from './provider.ts'
import type { InvoiceRow } from './schema.ts'

const refused = (message: string, status: number) => new Refusal(message, { status, standsAlone: true })

/** What the desk shows of an invoice or credit note. */
const forDesk = (row: InvoiceRow | null) =>
  row && {
    status: row.status,
    number: row.number,
    cufe: row.cufe,
    qrUrl: row.qrUrl,
    pdfUrl: row.pdfUrl,
    xmlUrl: row.xmlUrl,
    providerMessage: row.providerMessage,
    issuedAt: row.issuedAt,
  }

/**
 * The order's "Factura electrónica" section: its invoice and credit note, and whether "Emitir
 * factura" applies (no issued invoice, and the order not cancelled).
 */
export async function invoiceDeskOf(db: DbOrTx, order: { id: string; status: string }) {
  const { invoice, creditNote } = await invoicesOfOrder(db, order.id)
  return {
    invoice: forDesk(invoice),
    creditNote: forDesk(creditNote),
    canIssue: invoice?.status !== 'issued' && order.status !== 'cancelado',
  }
}

/**
 * The owner asks for the order's invoice: an `invoice-issue` job with the `manual` trigger, queued
 * in one transaction with a timeline note. Refused for an order already invoiced or cancelled.
 */
export async function requestOrderInvoice(db: DbOrTx, jobs: JobQueue, orderId: string, by: string) {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) throw refused(INVOICE_DESK_MESSAGES.notFound, 404)
    if (order.status === 'cancelado') throw refused(INVOICE_DESK_MESSAGES.cancelled, 409)
    if ((await invoiceOf(tx, orderId, 'invoice'))?.status === 'issued') {
      throw refused(INVOICE_DESK_MESSAGES.alreadyIssued, 409)
    }
    await recordOrderEvent(tx, orderId, 'invoice-requested', INVOICE_DESK_MESSAGES.requested, undefined, by)
    await jobs.send(tx, 'invoice-issue', { orderId, trigger: 'manual' })
  })
}

export type InvoiceFileKind = 'pdf' | 'xml'

export const INVOICE_FILE_TYPES: Record<InvoiceFileKind, string> = {
  pdf: 'application/pdf',
  xml: 'application/xml',
}

/** The issued invoice's PDF or XML, fetched through the provider (for providers that give no link). */
export async function invoiceFile(deps: InvoicingDeps, orderId: string, kind: InvoiceFileKind) {
  const invoice = await invoiceOf(deps.db, orderId, 'invoice')
  if (invoice?.status !== 'issued' || !invoice.number) throw refused(INVOICE_DESK_MESSAGES.noFile, 404)
  if (!deps.invoicing?.downloadInvoice) throw refused(INVOICE_DESK_MESSAGES.noDownload, 503)
  try {
    const file = await deps.invoicing.downloadInvoice(invoice.number, kind)
    const base = file.fileName.replace(/[^\w.-]/g, '_').replace(/\.(pdf|xml)$/i, '') || invoice.number
    return {
      fileName: `${base}.${kind}`,
      contentType: INVOICE_FILE_TYPES[kind],
      content: Buffer.from(file.contentBase64, 'base64'),
    }
  } catch (error) {
    if (error instanceof InvoicingRefused || error instanceof InvoicingUnavailable) {
      throw refused(INVOICE_DESK_MESSAGES.downloadFailed(error.message), 502)
    }
    throw error
  }
}

/**
 * The invoice's PDF or XML as a download (the desk's, and the buyer's from the order's page); a
 * refusal (no invoice yet, the provider down) as a short Spanish text with its status.
 */
export async function invoiceFileResponse(
  deps: InvoicingDeps,
  orderId: string,
  kind: InvoiceFileKind,
): Promise<Response> {
  try {
    const file = await invoiceFile(deps, orderId, kind)
    return new Response(new Uint8Array(file.content), {
      headers: {
        'Content-Type': file.contentType,
        'Content-Disposition': `${kind === 'pdf' ? 'inline' : 'attachment'}; filename="${file.fileName}"`,
        'Cache-Control': 'private, no-store',
      },
    })
  } catch (thrown) {
    if (thrown instanceof Refusal) return invoiceFileRefusal(thrown.message, thrown.status)
    throw thrown
  }
}

/** A file that cannot be given, said in plain text. */
export function invoiceFileRefusal(message: string, status: number): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
