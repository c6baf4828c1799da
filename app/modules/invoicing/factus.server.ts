import {
  FINAL_CONSUMER_IDENTIFICATION,
  InvoicingRefused,
  InvoicingUnavailable,
  nitCheckDigit,
  type CreditNoteDraft,
  type IdentificationType,
  type InvoiceBuyer,
  type InvoiceDraft,
  type InvoiceLine,
  type InvoicingProvider,
  type IssuedCreditNote,
  type IssuedInvoice,
  type Vat,
} from './provider.ts'

/**
 * Factus (developers.factus.com.co), API v1: OAuth2 password grant at `POST /oauth/token`, bills at
 * `POST /v1/bills/validate`, credit notes at `POST /v1/credit-notes/validate`.
 *
 * Base URLs (configuration, so tests use a local stand-in):
 * - sandbox (DIAN habilitación): https://api-sandbox.factus.com.co
 * - production: https://api.factus.com.co
 */
export const FACTUS_SANDBOX_URL = 'https://api-sandbox.factus.com.co'
export const FACTUS_PRODUCTION_URL = 'https://api.factus.com.co'

export type FactusOptions = {
  baseUrl: string
  clientId: string
  clientSecret: string
  /** The API user's e-mail. */
  username: string
  password: string
  /** Factus's id of the active invoice numbering range (GET /v1/numbering-ranges). */
  numberingRangeId: number
  /** Factus's id of the credit-note range; Factus takes the only active one when omitted. */
  creditNoteNumberingRangeId?: number
  /** Per request, body included. Default 30 s: DIAN validation happens inside the request. */
  timeoutMs?: number
  fetch?: typeof fetch
  /** Clock for token expiry (tests). */
  now?: () => number
}

/** Factus's `identification_document_id` (its table "Documentos de identidad"). */
export const FACTUS_IDENTIFICATION_DOCUMENT_IDS: Record<IdentificationType, number> = {
  TI: 2, // Tarjeta de identidad
  CC: 3, // Cédula de ciudadanía
  CE: 5, // Cédula de extranjería
  NIT: 6,
  PP: 7, // Pasaporte
}
/** `legal_organization_id`: 1 persona jurídica, 2 persona natural. */
const LEGAL_ENTITY = 1
const NATURAL_PERSON = 2
/** Customer `tribute_id`: 18 IVA, 21 "No aplica" (ZZ). We do not collect the buyer's tax regime. */
const TRIBUTE_NOT_APPLICABLE = 21
/** Item `tribute_id` 1: IVA. */
const ITEM_TRIBUTE_IVA = 1
/** `unit_measure_id` 70: "unidad" (DIAN code 94). */
const UNIT = 70
/** `standard_code_id` 1: "Estándar de adopción del contribuyente" (our SKU). */
const OWN_STANDARD = 1
/** `payment_form` "1": pago de contado. */
const PAID_IN_FULL = '1'
/**
 * `payment_method_code` (DIAN's "medios de pago"): "10" efectivo; "ZZZ" otro (Mercado Pago and Wompi
 * may be card, PSE, Nequi or cash); "47" transferencia débito bancaria (a transfer or Bre-B).
 */
export const FACTUS_PAYMENT_METHOD_CODES = { cash_on_delivery: '10', online: 'ZZZ', transfer: '47' } as const
/** `correction_concept_code`: 1 devolución (parcial) de bienes, 2 anulación de la factura. */
export const FACTUS_CORRECTION_CONCEPT_CODES = { devolucion: 1, anulacion: 2 } as const
/** `customization_id` 20: nota crédito que referencia una factura electrónica. */
const CREDIT_NOTE_WITH_REFERENCE = 20

export type FactusItem = {
  code_reference: string
  name: string
  quantity: number
  discount_rate: number
  /** Pesos with up to 2 decimals, IVA included (Factus v1 takes the price with its taxes). */
  price: number
  tax_rate: string
  unit_measure_id: number
  standard_code_id: number
  is_excluded: 0 | 1
  tribute_id: number
  withholding_taxes: []
}

export type FactusCustomer = {
  identification: string
  dv?: string
  company?: string
  names: string
  address?: string
  email?: string
  phone?: string
  legal_organization_id: number
  tribute_id: number
  identification_document_id: number
  municipality_id: number
}

export type FactusBillBody = {
  numbering_range_id: number
  reference_code: string
  observation: string
  payment_form: string
  payment_method_code: string
  customer: FactusCustomer
  items: FactusItem[]
}

export type FactusCreditNoteBody = {
  numbering_range_id?: number
  correction_concept_code: number
  customization_id: number
  bill_id: number
  reference_code: string
  payment_method_code: string
  observation: string
  items: FactusItem[]
}

const SHIPPING_CODE = 'ENVIO'
/** Factus's observation field takes at most 250 characters. */
const OBSERVATION_LIMIT = 250

/** Centavos → pesos with at most 2 decimals, as a JSON number. */
const pesos = (centavos: number) => Number((centavos / 100).toFixed(2))

function taxOf(vat: Vat): Pick<FactusItem, 'tax_rate' | 'is_excluded'> {
  if (vat === 'excluded') return { tax_rate: '0.00', is_excluded: 1 }
  if (vat === 'exempt') return { tax_rate: '0.00', is_excluded: 0 }
  return { tax_rate: vat.toFixed(2), is_excluded: 0 }
}

function checkLine(line: InvoiceLine, document: string) {
  const label = `${document}: el producto ${line.sku || line.name}`
  if (!line.sku.trim() || !line.name.trim()) throw new InvoicingRefused(`${label} no tiene SKU o nombre.`)
  if (!Number.isInteger(line.quantity) || line.quantity < 1) {
    throw new InvoicingRefused(`${label} tiene una cantidad no válida (${line.quantity}).`)
  }
  if (!Number.isInteger(line.unitPrice) || line.unitPrice < 0) {
    throw new InvoicingRefused(`${label} tiene un precio no válido (${line.unitPrice} centavos).`)
  }
  if (!(line.discountPercent >= 0 && line.discountPercent <= 100)) {
    throw new InvoicingRefused(`${label} tiene un descuento no válido (${line.discountPercent} %).`)
  }
}

function factusItem(line: InvoiceLine): FactusItem {
  return {
    code_reference: line.sku,
    name: line.name,
    quantity: line.quantity,
    discount_rate: line.discountPercent,
    price: pesos(line.unitPrice),
    ...taxOf(line.vat),
    unit_measure_id: UNIT,
    standard_code_id: OWN_STANDARD,
    tribute_id: ITEM_TRIBUTE_IVA,
    withholding_taxes: [],
  }
}

/** The lines of a document, shipping as its own line "Envío" when not zero. */
function factusItems(
  lines: InvoiceLine[],
  shipping: number,
  shippingVat: Vat | undefined,
  document: string,
  shippingDiscountPercent = 0,
): FactusItem[] {
  if (lines.length === 0 && shipping <= 0) throw new InvoicingRefused(`${document} no tiene productos.`)
  for (const line of lines) checkLine(line, document)
  if (!Number.isInteger(shipping) || shipping < 0) {
    throw new InvoicingRefused(`${document}: el envío no es válido (${shipping} centavos).`)
  }
  const items = lines.map(factusItem)
  if (shipping > 0) {
    items.push(
      factusItem({
        sku: SHIPPING_CODE,
        name: 'Envío',
        quantity: 1,
        unitPrice: shipping,
        discountPercent: shippingDiscountPercent,
        vat: shippingVat ?? 19,
      }),
    )
  }
  return items
}

/** "900123456-7" → identification "900123456", dv "7"; the check digit is worked out when missing. */
export function splitNit(value: string): { identification: string; dv: string } {
  const [base = '', given] = value.replace(/[\s.]/g, '').split('-')
  const identification = base.replace(/\D/g, '')
  if (!/^\d{5,15}$/.test(identification)) {
    throw new InvoicingRefused(`El NIT «${value}» no es válido.`)
  }
  const dv = String(nitCheckDigit(identification))
  if (given !== undefined && given !== dv) {
    throw new InvoicingRefused(
      `El NIT «${value}» no es válido: su dígito de verificación es ${dv}, no ${given}.`,
    )
  }
  return { identification, dv }
}

/** The buyer as Factus's `customer`; without a document, DIAN's consumidor final. */
export function factusCustomer(buyer: InvoiceBuyer, municipalityId: number): FactusCustomer {
  const contact = {
    ...(buyer.address.trim() ? { address: buyer.address.trim() } : {}),
    ...(buyer.email.trim() ? { email: buyer.email.trim() } : {}),
    ...(buyer.phone.trim() ? { phone: buyer.phone.trim() } : {}),
    municipality_id: municipalityId,
  }
  if (buyer.identificationType === null) {
    return {
      identification: FINAL_CONSUMER_IDENTIFICATION,
      names: 'Consumidor final',
      legal_organization_id: NATURAL_PERSON,
      tribute_id: TRIBUTE_NOT_APPLICABLE,
      identification_document_id: FACTUS_IDENTIFICATION_DOCUMENT_IDS.CC,
      ...contact,
    }
  }
  const names = buyer.names.trim()
  if (!names) throw new InvoicingRefused('La factura no tiene el nombre del comprador.')
  if (buyer.identificationType === 'NIT') {
    return {
      ...splitNit(buyer.identificationNumber),
      // A NIT is taken as a company (persona jurídica): its razón social is the name.
      company: names,
      names,
      legal_organization_id: LEGAL_ENTITY,
      tribute_id: TRIBUTE_NOT_APPLICABLE,
      identification_document_id: FACTUS_IDENTIFICATION_DOCUMENT_IDS.NIT,
      ...contact,
    }
  }
  const identification = buyer.identificationNumber.replace(/[\s.-]/g, '')
  if (!identification) throw new InvoicingRefused('La factura no tiene el documento del comprador.')
  return {
    identification,
    names,
    legal_organization_id: NATURAL_PERSON,
    tribute_id: TRIBUTE_NOT_APPLICABLE,
    identification_document_id: FACTUS_IDENTIFICATION_DOCUMENT_IDS[buyer.identificationType],
    ...contact,
  }
}

function observationOf(prefix: string, observation: string | undefined) {
  const text = observation?.trim() ? `${prefix}. ${observation.trim()}` : prefix
  return text.slice(0, OBSERVATION_LIMIT)
}

/** Our draft as the body of `POST /v1/bills/validate`. */
export function factusBillBody(
  draft: InvoiceDraft,
  municipalityId: number,
  numberingRangeId: number,
): FactusBillBody {
  if (!draft.referenceCode.trim()) throw new InvoicingRefused('La factura no tiene código de referencia.')
  return {
    numbering_range_id: numberingRangeId,
    reference_code: draft.referenceCode,
    observation: observationOf(`Pedido ${draft.orderNumber}`, draft.observation),
    payment_form: PAID_IN_FULL,
    payment_method_code: FACTUS_PAYMENT_METHOD_CODES[draft.paymentMethod],
    customer: factusCustomer(draft.issuedFor, municipalityId),
    items: factusItems(
      draft.items,
      draft.shipping,
      draft.shippingVat,
      'La factura',
      draft.shippingDiscountPercent,
    ),
  }
}

/** Our draft as the body of `POST /v1/credit-notes/validate` (the bill's customer is kept). */
export function factusCreditNoteBody(
  draft: CreditNoteDraft,
  billId: number,
  paymentMethodCode: string,
  numberingRangeId: number | undefined,
): FactusCreditNoteBody {
  if (!draft.referenceCode.trim()) {
    throw new InvoicingRefused('La nota crédito no tiene código de referencia.')
  }
  return {
    ...(numberingRangeId === undefined ? {} : { numbering_range_id: numberingRangeId }),
    correction_concept_code: FACTUS_CORRECTION_CONCEPT_CODES[draft.reason],
    customization_id: CREDIT_NOTE_WITH_REFERENCE,
    bill_id: billId,
    reference_code: draft.referenceCode,
    payment_method_code: paymentMethodCode,
    observation: observationOf(
      `${draft.reason === 'anulacion' ? 'Anulación' : 'Devolución'} de la factura ${draft.invoiceNumber}`,
      draft.observation,
    ),
    items: factusItems(
      draft.items,
      draft.shipping,
      draft.shippingVat,
      'La nota crédito',
      draft.shippingDiscountPercent,
    ),
  }
}

// ---------------------------------------------------------------------------------------------
// Reading Factus's answers
// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null)
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))

function parseObject(body: string): Json | null {
  try {
    const value: unknown = JSON.parse(body)
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

/** Every message of an error body: `data.errors` or `errors` field by field, else `message`. */
export function factusErrorMessages(payload: Json | null): string[] {
  if (!payload) return []
  const messages: string[] = []
  const collect = (errors: unknown) => {
    if (Array.isArray(errors)) {
      for (const entry of errors) {
        const message = isObject(entry) ? text(entry.message) : text(entry)
        if (message) messages.push(message)
      }
    } else if (isObject(errors)) {
      for (const [field, value] of Object.entries(errors)) {
        for (const message of Array.isArray(value) ? value : [value]) {
          const said = text(message)
          if (!said) continue
          // Factus's messages name their field ("customer.municipality id"); DIAN's rule messages
          // name their rule ("Regla: FAK24, …"). Any other gets the field in front.
          const named = said.includes(field) || said.includes(field.replace(/_/g, ' '))
          messages.push(named || said.startsWith('Regla') ? said : `${field}: ${said}`)
        }
      }
    }
  }
  collect(isObject(payload.data) ? payload.data.errors : undefined)
  collect(payload.errors)
  if (messages.length === 0) {
    const message = text(payload.message) ?? text(payload.error_description) ?? text(payload.error)
    if (message) messages.push(message)
  }
  return messages
}

/** Factus writes dates as "16-09-2024 02:58:34 PM", Bogotá time (UTC−5, no daylight saving). */
export function parseFactusDate(value: unknown): Date | null {
  const match = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})(?: ?([AP]M))?$/i.exec(String(value ?? ''))
  if (!match) return null
  const [, day, month, year, hour, minute, second, half] = match
  let hours = Number(hour)
  if (half) hours = (hours % 12) + (half.toUpperCase() === 'PM' ? 12 : 0)
  const date = new Date(
    Date.UTC(Number(year), Number(month) - 1, Number(day), hours + 5, Number(minute), Number(second)),
  )
  return Number.isNaN(date.getTime()) ? null : date
}

/** The validated bill of a validate or show answer (`data.bill`), or null when it is not there. */
function toIssuedInvoice(data: unknown): IssuedInvoice | null {
  if (!isObject(data) || !isObject(data.bill)) return null
  const bill = data.bill
  const number = text(bill.number)
  const cufe = text(bill.cufe)
  if (!number || !cufe || (typeof bill.id !== 'number' && typeof bill.id !== 'string')) return null
  const links = isObject(data.links) ? data.links : {}
  return {
    provider: 'factus',
    number,
    cufe,
    qrUrl: text(bill.qr) ?? text(links.qr),
    pdfUrl: text(bill.public_url) ?? text(links.public_url),
    xmlUrl: null,
    issuedAt: parseFactusDate(bill.validated),
    providerReference: String(bill.id),
  }
}

function toIssuedCreditNote(data: unknown): IssuedCreditNote | null {
  if (!isObject(data) || !isObject(data.credit_note)) return null
  const note = data.credit_note
  const number = text(note.number)
  const cude = text(note.cude)
  if (!number || !cude || (typeof note.id !== 'number' && typeof note.id !== 'string')) return null
  return {
    provider: 'factus',
    number,
    cude,
    qrUrl: text(note.qr),
    issuedAt: parseFactusDate(note.validated),
    providerReference: String(note.id),
    invoiceNumber: text(note.number_bill),
  }
}

/** Rows of a paginated list (`data.data`) for one reference code, validated ones only. */
function validatedRows(payload: Json, referenceCode: string): Json[] {
  const page = isObject(payload.data) ? payload.data.data : undefined
  if (!Array.isArray(page)) {
    throw new InvoicingUnavailable('Factus respondió la búsqueda sin la lista data.data.', 'invalid-response')
  }
  // Factus answers status 1 = validada, 0 = pendiente por validar; only the first is a document.
  return page.filter(
    (row): row is Json =>
      isObject(row) && row.reference_code === referenceCode && Number(row.status) === 1 && !!text(row.number),
  )
}

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

type Token = { access: string; refresh: string | null; expiresAt: number }
type Call = {
  method: 'GET' | 'POST'
  path: string
  body?: unknown
  query?: Record<string, string>
  /** What the owner reads the refusal as: "Factus rechazó {what}: …". */
  what: string
  /** Answer null on 404 instead of refusing (lookups). */
  notFoundIsNull?: boolean
}

/** Renew the access token this long before Factus says it expires (it lasts an hour). */
const TOKEN_MARGIN_MS = 60_000

export type FactusProvider = InvoicingProvider & {
  readonly name: 'factus'
  sendInvoiceEmail(number: string, email: string): Promise<void>
  downloadInvoice(number: string, kind: 'pdf' | 'xml'): Promise<{ fileName: string; contentBase64: string }>
  /** Factus's id for a DANE municipality code (its table, loaded once per client). */
  municipalityId(daneCode: string): Promise<number>
}

export function factusProvider(options: FactusOptions): FactusProvider {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl.replace(/\/$/, '')
  const timeoutMs = options.timeoutMs ?? 30_000
  const now = options.now ?? Date.now
  let token: Token | null = null
  let pendingToken: Promise<Token> | null = null
  let municipalities: Promise<Map<string, number>> | null = null

  /** One HTTP exchange: network trouble, timeouts and bodies cut half-way are InvoicingUnavailable. */
  async function exchange(url: string, init: RequestInit): Promise<{ status: number; payload: Json | null }> {
    let response: Response
    let body: string
    try {
      response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
      body = await response.text()
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new InvoicingUnavailable(
          `Factus no respondió en ${Math.round(timeoutMs / 100) / 10} s; se intentará de nuevo.`,
          'timeout',
        )
      }
      throw new InvoicingUnavailable(`No se pudo conectar con Factus: ${errorMessage(error)}.`, 'network')
    }
    return { status: response.status, payload: parseObject(body) }
  }

  function unavailableFor(status: number, payload: Json | null): InvoicingUnavailable {
    const said = factusErrorMessages(payload).join('; ')
    if (status === 429) {
      return new InvoicingUnavailable(
        `Factus pidió esperar antes de más solicitudes (HTTP 429)${said ? `: ${said}` : ''}.`,
        'rate-limit',
        status,
      )
    }
    return new InvoicingUnavailable(
      `Factus falló (HTTP ${status})${said ? `: ${said}` : ''}; se intentará de nuevo.`,
      'server',
      status,
    )
  }

  /** `POST /oauth/token` as a form: the password grant, or the refresh grant. Secrets never go in messages. */
  async function grant(fields: Record<string, string>): Promise<Token> {
    const { status, payload } = await exchange(`${base}/oauth/token`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...fields,
        client_id: options.clientId,
        client_secret: options.clientSecret,
      }).toString(),
    })
    if (status === 429 || status >= 500) throw unavailableFor(status, payload)
    if (status >= 400) {
      const said = factusErrorMessages(payload).join('; ')
      throw new InvoicingUnavailable(
        `Factus no aceptó las credenciales de la API (HTTP ${status}${said ? `: ${said}` : ''}). Revise el usuario, la contraseña y el cliente de Factus.`,
        'credentials',
        status,
      )
    }
    const access = text(payload?.access_token)
    const expiresIn = Number(payload?.expires_in)
    if (!access || !Number.isFinite(expiresIn)) {
      throw new InvoicingUnavailable(
        'Factus respondió el token sin access_token o expires_in.',
        'invalid-response',
      )
    }
    return { access, refresh: text(payload?.refresh_token), expiresAt: now() + expiresIn * 1000 }
  }

  async function renewToken(): Promise<Token> {
    const refresh = token?.refresh
    if (refresh) {
      try {
        return (token = await grant({ grant_type: 'refresh_token', refresh_token: refresh }))
      } catch (error) {
        // A refresh token Factus no longer takes: sign in again with the password.
        if (!(error instanceof InvoicingUnavailable && error.reason === 'credentials')) throw error
      }
    }
    return (token = await grant({
      grant_type: 'password',
      username: options.username,
      password: options.password,
    }))
  }

  async function accessToken(): Promise<string> {
    if (token && now() < token.expiresAt - TOKEN_MARGIN_MS) return token.access
    // Calls at the same moment share one renewal.
    pendingToken ??= renewToken().finally(() => {
      pendingToken = null
    })
    return (await pendingToken).access
  }

  /** An API call with the Bearer token; a 401 renews the token once and tries again. */
  async function call({ method, path, body, query, what, notFoundIsNull }: Call): Promise<Json | null> {
    const url = `${base}${path}${query ? `?${new URLSearchParams(query)}` : ''}`
    for (let attempt = 0; ; attempt++) {
      const access = await accessToken()
      const { status, payload } = await exchange(url, {
        method,
        headers: {
          Authorization: `Bearer ${access}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (status === 401) {
        if (attempt === 0) {
          // Expired or revoked early: the refresh token (or the password) gets a new one.
          if (token?.access === access) token = { ...token, expiresAt: 0 }
          continue
        }
        throw new InvoicingUnavailable(
          'Factus no aceptó el token de acceso recién renovado (HTTP 401).',
          'credentials',
          401,
        )
      }
      if (status === 404 && notFoundIsNull) return null
      if (status === 429 || status >= 500) throw unavailableFor(status, payload)
      if (status >= 400) {
        const messages = factusErrorMessages(payload)
        throw new InvoicingRefused(
          `Factus rechazó ${what}: ${messages.length ? messages.join('; ') : `HTTP ${status}`}`,
          messages,
          status,
        )
      }
      if (!payload) {
        throw new InvoicingUnavailable(
          `Factus respondió ${what} sin JSON (HTTP ${status}).`,
          'invalid-response',
          status,
        )
      }
      return payload
    }
  }

  async function municipalityId(daneCode: string): Promise<number> {
    if (!/^\d{5}$/.test(daneCode)) {
      throw new InvoicingRefused(`El municipio «${daneCode}» no es un código DANE de 5 dígitos.`)
    }
    municipalities ??= call({ method: 'GET', path: '/v1/municipalities', what: 'la consulta de municipios' })
      .then((payload) => {
        const rows = payload?.data
        if (!Array.isArray(rows)) {
          throw new InvoicingUnavailable(
            'Factus respondió los municipios sin la lista data.',
            'invalid-response',
          )
        }
        const byCode = new Map<string, number>()
        for (const row of rows) {
          if (isObject(row) && typeof row.code === 'string' && Number.isFinite(Number(row.id))) {
            byCode.set(row.code, Number(row.id))
          }
        }
        return byCode
      })
      .catch((error: unknown) => {
        municipalities = null // a failed load is tried again next time
        throw error
      })
    const id = (await municipalities).get(daneCode)
    if (id === undefined) {
      throw new InvoicingRefused(`Factus no reconoce el municipio con código DANE ${daneCode}.`)
    }
    return id
  }

  async function showInvoice(number: string): Promise<IssuedInvoice | null> {
    const payload = await call({
      method: 'GET',
      path: `/v1/bills/show/${encodeURIComponent(number)}`,
      what: `la consulta de la factura ${number}`,
      notFoundIsNull: true,
    })
    if (!payload) return null
    const invoice = toIssuedInvoice(payload.data)
    if (!invoice) {
      throw new InvoicingUnavailable(
        `Factus respondió la factura ${number} sin número o CUFE.`,
        'invalid-response',
      )
    }
    return invoice
  }

  async function findInvoice(referenceCode: string): Promise<IssuedInvoice | null> {
    const payload = await call({
      method: 'GET',
      path: '/v1/bills',
      query: { 'filter[reference_code]': referenceCode },
      what: 'la búsqueda de facturas',
    })
    const [row] = validatedRows(payload ?? {}, referenceCode)
    return row ? showInvoice(String(row.number)) : null
  }

  async function findCreditNote(referenceCode: string): Promise<IssuedCreditNote | null> {
    const payload = await call({
      method: 'GET',
      path: '/v1/credit-notes',
      query: { 'filter[reference_code]': referenceCode },
      what: 'la búsqueda de notas crédito',
    })
    const [row] = validatedRows(payload ?? {}, referenceCode)
    if (!row) return null
    const number = String(row.number)
    const shown = await call({
      method: 'GET',
      path: `/v1/credit-notes/${encodeURIComponent(number)}`,
      what: `la consulta de la nota crédito ${number}`,
      notFoundIsNull: true,
    })
    if (!shown) return null
    const note = toIssuedCreditNote(shown.data)
    if (!note) {
      throw new InvoicingUnavailable(
        `Factus respondió la nota crédito ${number} sin número o CUDE.`,
        'invalid-response',
      )
    }
    return note
  }

  /** A refusal that may mean "already done with this reference" (a retry after a lost answer). */
  const mayBeDuplicate = (error: unknown) =>
    error instanceof InvoicingRefused &&
    (error.status === 409 ||
      error.providerMessages.some((message) => /referencia|reference_code/i.test(message)))

  return {
    name: 'factus',
    municipalityId,
    findInvoice,
    findCreditNote,

    async issueInvoice(draft) {
      // A retried job never issues twice: what DIAN already validated for this reference is returned.
      const existing = await findInvoice(draft.referenceCode)
      if (existing) return existing
      const body = factusBillBody(
        draft,
        await municipalityId(draft.issuedFor.municipalityCode),
        options.numberingRangeId,
      )
      let payload: Json | null
      try {
        payload = await call({ method: 'POST', path: '/v1/bills/validate', body, what: 'la factura' })
      } catch (error) {
        if (mayBeDuplicate(error)) {
          const done = await findInvoice(draft.referenceCode)
          if (done) return done
        }
        throw error
      }
      const invoice = toIssuedInvoice(payload?.data)
      if (!invoice) {
        // Factus kept it but DIAN has not validated it (no CUFE yet): looked up again on the retry.
        throw new InvoicingUnavailable(
          `Factus recibió la factura del pedido ${draft.orderNumber} pero no devolvió su número y CUFE.`,
          'invalid-response',
        )
      }
      return invoice
    },

    async issueCreditNote(draft) {
      const existing = await findCreditNote(draft.referenceCode)
      if (existing) return existing
      // The bill id Factus needs, and the payment method of the bill it corrects.
      const bill = await call({
        method: 'GET',
        path: `/v1/bills/show/${encodeURIComponent(draft.invoiceNumber)}`,
        what: `la consulta de la factura ${draft.invoiceNumber}`,
        notFoundIsNull: true,
      })
      const shown = isObject(bill?.data) && isObject(bill.data.bill) ? bill.data.bill : null
      if (!shown) {
        throw new InvoicingRefused(
          `Factus rechazó la nota crédito: no encuentra la factura ${draft.invoiceNumber}.`,
        )
      }
      const billId = Number(draft.providerReference ?? shown.id)
      if (!Number.isInteger(billId)) {
        throw new InvoicingUnavailable(
          `Factus respondió la factura ${draft.invoiceNumber} sin id.`,
          'invalid-response',
        )
      }
      const method = isObject(shown.payment_method) ? text(shown.payment_method.code) : null
      const body = factusCreditNoteBody(
        draft,
        billId,
        method ?? FACTUS_PAYMENT_METHOD_CODES.online,
        options.creditNoteNumberingRangeId,
      )
      let payload: Json | null
      try {
        payload = await call({
          method: 'POST',
          path: '/v1/credit-notes/validate',
          body,
          what: 'la nota crédito',
        })
      } catch (error) {
        if (mayBeDuplicate(error)) {
          const done = await findCreditNote(draft.referenceCode)
          if (done) return done
        }
        throw error
      }
      const note = toIssuedCreditNote(payload?.data)
      if (!note) {
        throw new InvoicingUnavailable(
          `Factus recibió la nota crédito de la factura ${draft.invoiceNumber} pero no devolvió su número y CUDE.`,
          'invalid-response',
        )
      }
      return note
    },

    async sendInvoiceEmail(number, email) {
      await call({
        method: 'POST',
        path: `/v1/bills/send-email/${encodeURIComponent(number)}`,
        body: { email },
        what: `el envío por correo de la factura ${number}`,
      })
    },

    async downloadInvoice(number, kind) {
      const payload = await call({
        method: 'GET',
        path: `/v1/bills/download-${kind}/${encodeURIComponent(number)}`,
        what: `la descarga de la factura ${number}`,
      })
      const data = isObject(payload?.data) ? payload.data : {}
      const content = text(data[`${kind}_base_64_encoded`])
      if (!content) {
        throw new InvoicingUnavailable(
          `Factus respondió la descarga de la factura ${number} sin el archivo.`,
          'invalid-response',
        )
      }
      return { fileName: text(data.file_name) ?? `${number}.${kind}`, contentBase64: content }
    },
  }
}
