import { AdminForm } from '#app/components/admin/admin-form.tsx'
import { primaryButtonClass } from '#app/components/admin/form-message.tsx'
import { formatOrderDate } from '#app/components/admin/order-bits.tsx'
import { ISSUE_INVOICE_INTENT } from '#app/modules/invoicing/messages.ts'
import type { InvoiceStatus } from '#app/modules/invoicing/schema.ts'
import { adminInvoiceFilePath } from '#app/utils/admin-paths.ts'
import { Section } from './section.tsx'

/** An invoice or credit note as the desk shows it (the loader's pick of the `invoices` row). */
export type DeskInvoice = {
  status: InvoiceStatus
  number: string | null
  cufe: string | null
  qrUrl: string | null
  pdfUrl: string | null
  xmlUrl: string | null
  providerMessage: string | null
  issuedAt: Date | string | null
}

const linkClass = 'text-brand-700 underline'

function Document({
  document,
  label,
  codeLabel,
  testId,
  files,
}: {
  document: DeskInvoice
  label: string
  codeLabel: string
  testId: string
  /** The invoice's files: the provider's link, or our route that fetches it through the provider. */
  files?: { pdf: string; xml: string }
}) {
  if (document.status !== 'issued') {
    return (
      <p
        className={document.status === 'failed' ? 'font-medium text-red-700' : 'text-gray-700'}
        data-testid={`${testId}-message`}
        data-status={document.status}
      >
        {label}:{' '}
        {document.status === 'failed' ? 'no emitida. ' : document.status === 'retrying' ? 'en espera. ' : ''}
        {document.providerMessage}
      </p>
    )
  }
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" data-testid={testId}>
      <dt className="text-gray-600">{label}</dt>
      <dd data-testid={`${testId}-number`}>{document.number}</dd>
      <dt className="text-gray-600">{codeLabel}</dt>
      <dd className="font-mono text-xs break-all" data-testid={`${testId}-code`}>
        {document.cufe}
      </dd>
      {document.issuedAt ? (
        <>
          <dt className="text-gray-600">Emitida</dt>
          <dd>{formatOrderDate(new Date(document.issuedAt))}</dd>
        </>
      ) : null}
      <dt className="sr-only">Documentos</dt>
      <dd className="col-span-2 flex flex-wrap gap-3">
        {files ? (
          <>
            <a href={files.pdf} className={linkClass} target="_blank" rel="noreferrer">
              Ver PDF
            </a>
            <a href={files.xml} className={linkClass} download>
              Descargar XML
            </a>
          </>
        ) : null}
        {document.qrUrl ? (
          <a href={document.qrUrl} className={linkClass} target="_blank" rel="noreferrer">
            Consultar en la DIAN
          </a>
        ) : null}
      </dd>
    </dl>
  )
}

/**
 * "Factura electrónica": the order's DIAN invoice and credit note (number, CUFE/CUDE, files), or
 * why there is none; "Emitir factura" while it has no issued invoice.
 */
export function InvoiceSection({
  orderId,
  invoice,
  creditNote,
  canIssue,
  busy,
}: {
  orderId: string
  invoice: DeskInvoice | null
  creditNote: DeskInvoice | null
  canIssue: boolean
  busy: boolean
}) {
  return (
    <Section title="Factura electrónica" testId="order-invoice">
      <div className="flex flex-col gap-3 text-sm">
        {invoice ? (
          <Document
            document={invoice}
            label="Factura"
            codeLabel="CUFE"
            testId="invoice"
            files={{
              pdf: invoice.pdfUrl ?? adminInvoiceFilePath(orderId, 'pdf'),
              xml: invoice.xmlUrl ?? adminInvoiceFilePath(orderId, 'xml'),
            }}
          />
        ) : (
          <p className="text-gray-700">Este pedido no tiene factura electrónica todavía.</p>
        )}
        {creditNote ? (
          <Document document={creditNote} label="Nota crédito" codeLabel="CUDE" testId="credit-note" />
        ) : null}
        {canIssue ? (
          <AdminForm method="post">
            <input type="hidden" name="intent" value={ISSUE_INVOICE_INTENT} />
            <button type="submit" className={primaryButtonClass} disabled={busy}>
              Emitir factura
            </button>
          </AdminForm>
        ) : null}
      </div>
    </Section>
  )
}
