/**
 * What the shop needs from a DIAN electronic-invoicing provider (Factus first; Alegra or Siigo
 * later). Provider-neutral: amounts are integer centavos, the price charged to the buyer (IVA
 * included), and the buyer is described the way DIAN does.
 */

/** DIAN's buyer document types the shop collects. */
export const IDENTIFICATION_TYPES = ['CC', 'CE', 'NIT', 'PP', 'TI'] as const
/** How an invoice says the order was paid: at the door, online, or by a bank transfer (Bre-B too). */
export type InvoicePaymentMethod = 'cash_on_delivery' | 'online' | 'transfer'

export type IdentificationType = (typeof IDENTIFICATION_TYPES)[number]

/** DIAN's generic buyer for a sale to someone who gives no document. */
export const FINAL_CONSUMER_IDENTIFICATION = '222222222222'

/** IVA of a line: excluded (not subject), exempt (taxed at 0 %), or a rate in percent. */
export type Vat = 'excluded' | 'exempt' | 5 | 19

export type InvoiceBuyer = {
  /** null: the buyer gave no document and is invoiced as DIAN's "consumidor final". */
  identificationType: IdentificationType | null
  /** A NIT keeps its check digit: "900123456-7". Ignored for the consumidor final. */
  identificationNumber: string
  names: string
  email: string
  phone: string
  address: string
  /** DANE DIVIPOLA municipality code, 5 digits ("11001" is Bogotá). */
  municipalityCode: string
}

export type InvoiceLine = {
  sku: string
  name: string
  quantity: number
  /** Centavos, the price charged for one unit, IVA included, before the line discount. */
  unitPrice: number
  /** 0–100, at most 2 decimals: what promotions took off price × quantity. */
  discountPercent: number
  vat: Vat
}

export type InvoiceDraft = {
  /** Our order id: the idempotency key, one invoice per reference. */
  referenceCode: string
  orderNumber: number
  issuedFor: InvoiceBuyer
  paymentMethod: InvoicePaymentMethod
  items: InvoiceLine[]
  /** Centavos, IVA included; 0 when free. Sent the way the provider expects (Factus: a line "Envío"). */
  shipping: number
  /** What promotions took off the shipping, 0–100 (none when absent). */
  shippingDiscountPercent?: number
  /** IVA of the shipping line; 19 when not given (ask the accountant). */
  shippingVat?: Vat
  observation?: string
}

export type IssuedInvoice = {
  provider: string
  /** Prefix and consecutive, as DIAN knows it ("SETP990000203"). */
  number: string
  cufe: string
  /** DIAN's lookup page for the document (what the QR encodes). */
  qrUrl: string | null
  /** Links as the provider gives them; null when it gives none (Factus v1 serves files by API). */
  pdfUrl: string | null
  xmlUrl: string | null
  /** When DIAN validated it; null when the provider does not say. */
  issuedAt: Date | null
  /** The provider's own id of the document (Factus: the bill id a credit note needs). */
  providerReference: string
}

export type CreditNoteDraft = {
  /** Our id for this correction (e.g. the return's id): the idempotency key. */
  referenceCode: string
  /** The invoice it corrects. */
  invoiceNumber: string
  /** The invoice's providerReference, when kept; otherwise it is looked up by number. */
  providerReference?: string
  reason: 'devolucion' | 'anulacion'
  /** What is credited, in the invoice's terms. */
  items: InvoiceLine[]
  /** Centavos of shipping credited; 0 when none. */
  shipping: number
  shippingDiscountPercent?: number
  shippingVat?: Vat
  observation?: string
}

export type IssuedCreditNote = {
  provider: string
  number: string
  /** The credit note's CUDE. */
  cude: string
  qrUrl: string | null
  issuedAt: Date | null
  providerReference: string
  /** The invoice it corrects. */
  invoiceNumber: string | null
}

export type InvoiceFile = { fileName: string; contentBase64: string }

export interface InvoicingProvider {
  readonly name: string
  /** Validates an invoice with DIAN through the provider. */
  issueInvoice(draft: InvoiceDraft): Promise<IssuedInvoice>
  /** The invoice DIAN validated for this reference, or null: call it before issuing again. */
  findInvoice(referenceCode: string): Promise<IssuedInvoice | null>
  issueCreditNote(draft: CreditNoteDraft): Promise<IssuedCreditNote>
  findCreditNote(referenceCode: string): Promise<IssuedCreditNote | null>
  /** Has the provider e-mail the invoice (its PDF and XML) to an address. */
  sendInvoiceEmail?(number: string, email: string): Promise<void>
  /** The invoice's PDF or XML, for our own download routes. */
  downloadInvoice?(number: string, kind: 'pdf' | 'xml'): Promise<InvoiceFile>
}

/**
 * The provider validated the document and said no (or would: our own checks before sending). Not
 * retryable: the data must change first. `message` is the Spanish summary for the owner;
 * `providerMessages` are the provider's own texts, field by field when it gives them.
 */
export class InvoicingRefused extends Error {
  readonly retryable = false
  constructor(
    message: string,
    readonly providerMessages: string[] = [],
    readonly status?: number,
  ) {
    super(message)
    this.name = 'InvoicingRefused'
  }
}

/**
 * No usable answer: network, timeout, 5xx, 429, a body that makes no sense, or credentials the
 * provider does not accept. Retryable: look the document up before trying again.
 */
export class InvoicingUnavailable extends Error {
  readonly retryable = true
  constructor(
    message: string,
    readonly reason: 'network' | 'timeout' | 'server' | 'rate-limit' | 'credentials' | 'invalid-response',
    readonly status?: number,
  ) {
    super(message)
    this.name = 'InvoicingUnavailable'
  }
}

/** DIAN's modulo-11 check digit of a NIT (weights 3, 7, 13, … from the rightmost digit). */
export function nitCheckDigit(nit: string): number {
  const weights = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71]
  const digits = nit.replace(/\D/g, '')
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    sum += Number(digits[digits.length - 1 - i]) * (weights[i] ?? 0)
  }
  const rest = sum % 11
  return rest > 1 ? 11 - rest : rest
}
