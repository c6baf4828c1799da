import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { bearerToken, listen, sendJson, type RecordedRequest } from './http.ts'

/**
 * A local Factus (API v1, developers.factus.com.co) for adapter tests: the OAuth2 password and
 * refresh grants at `POST /oauth/token` (a form; tokens last `tokenLifetimeSeconds`, an expired or
 * unknown one gets 401 "Unauthenticated."), `GET /v1/municipalities`, `POST /v1/bills/validate`
 * with Factus's validation errors (422 `{status, message, data: {errors: {field: [..]}}}`, 409 for
 * a bill left pending), the bill list filtered by reference code, show, PDF/XML download and
 * e-mail, and the same for credit notes. Every request is recorded; switches make the next answers
 * fail or hang, and expire the tokens handed out.
 *
 * Ids, numbers and CUFEs are the stand-in's own; the real municipality ids come from Factus's table.
 */

export const FACTUS_CREDENTIALS = {
  clientId: '9dbe0b45-0000-4000-8000-standin00001',
  clientSecret: 'standin-client-secret-0123456789abcdefghij',
  username: 'api@tienda.example.co',
  password: 'standin-password',
}
export const FACTUS_NUMBERING_RANGE_ID = 8
export const FACTUS_CREDIT_NOTE_RANGE_ID = 9

/** A few rows of Factus's municipality table: its own id, the DANE code, name, department. */
export const FACTUS_MUNICIPALITIES = [
  { id: 149, code: '11001', name: 'Bogotá, D.C.', department: 'Bogotá D.C.' },
  { id: 1, code: '05001', name: 'Medellín', department: 'Antioquia' },
  { id: 1079, code: '76001', name: 'Cali', department: 'Valle del Cauca' },
  { id: 980, code: '68679', name: 'San Gil', department: 'Santander' },
]

type Json = Record<string, unknown>
type Failure = { status: number; body?: unknown; path?: string }
type Grant = { access: string; refresh: string; expiresAt: number }

export type StandInBill = {
  id: number
  number: string
  referenceCode: string
  /** 1 validada, 0 pendiente por validar. */
  status: 0 | 1
  cufe: string
  body: Json
  validated: string
  total: number
}

export type StandInCreditNote = {
  id: number
  number: string
  referenceCode: string
  status: 0 | 1
  cude: string
  bill: StandInBill
  body: Json
  validated: string
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isText = (value: unknown) => typeof value === 'string' && value.trim() !== ''
const isId = (value: unknown) => /^\d+$/.test(String(value ?? ''))

/** Factus's date format: "16-09-2024 02:58:34 PM", Bogotá time. */
function factusDate(at: Date) {
  const bogota = new Date(at.getTime() - 5 * 3600_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  const hours = bogota.getUTCHours()
  return `${pad(bogota.getUTCDate())}-${pad(bogota.getUTCMonth() + 1)}-${bogota.getUTCFullYear()} ${pad(
    hours % 12 || 12,
  )}:${pad(bogota.getUTCMinutes())}:${pad(bogota.getUTCSeconds())} ${hours < 12 ? 'AM' : 'PM'}`
}

const sha384 = (value: string) => createHash('sha384').update(value).digest('hex')
const qrOf = (key: string) => `https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${key}`

const PAYMENT_METHODS: Record<string, string> = {
  '10': 'Efectivo',
  '20': 'Cheque',
  '42': 'Consignación',
  '47': 'Transferencia',
  '48': 'Tarjeta Crédito',
  '49': 'Tarjeta Débito',
  '71': 'Bonos',
  '72': 'Vales',
  '1': 'Medio de pago no definido',
  ZZZ: 'Otro',
}

/** Validation errors the way Factus answers them (Laravel's messages, in Spanish). */
type Errors = Record<string, string[]>
function addError(errors: Errors, field: string, message: string) {
  ;(errors[field] ??= []).push(message)
}

function validateItems(body: Json, errors: Errors) {
  const items = body.items
  if (!Array.isArray(items) || items.length === 0) {
    addError(errors, 'items', 'El campo items es obligatorio.')
    return
  }
  items.forEach((item: unknown, i) => {
    const at = (field: string) => `items.${i}.${field}`
    if (!isObject(item)) return addError(errors, `items.${i}`, `El campo items.${i} debe ser un objeto.`)
    for (const field of ['code_reference', 'name']) {
      if (!isText(item[field])) addError(errors, at(field), `El campo ${at(field)} es obligatorio.`)
    }
    if (!Number.isInteger(item.quantity) || (item.quantity as number) < 1) {
      addError(errors, at('quantity'), `El campo ${at('quantity')} debe ser un número entero mayor a 0.`)
    }
    const price = item.price
    if (typeof price !== 'number' || price < 0 || Math.round(price * 100) !== price * 100) {
      addError(errors, at('price'), `El campo ${at('price')} debe ser un número con máximo 2 decimales.`)
    }
    const discount = item.discount_rate
    if (typeof discount !== 'number' || discount < 0 || discount > 100) {
      addError(errors, at('discount_rate'), `El campo ${at('discount_rate')} debe estar entre 0 y 100.`)
    }
    if (typeof item.tax_rate !== 'string' || !/^\d{1,2}\.\d{2}$/.test(item.tax_rate)) {
      addError(errors, at('tax_rate'), `El campo ${at('tax_rate')} no tiene un formato válido.`)
    }
    if (item.is_excluded !== 0 && item.is_excluded !== 1) {
      addError(errors, at('is_excluded'), `El campo ${at('is_excluded')} debe ser 0 o 1.`)
    }
    for (const field of ['unit_measure_id', 'standard_code_id', 'tribute_id']) {
      if (!isId(item[field])) addError(errors, at(field), `El campo ${at(field)} es obligatorio.`)
    }
  })
}

/** Totals the way Factus reports them: prices carry their tax. */
function totalOf(body: Json) {
  let total = 0
  for (const item of body.items as Json[]) {
    const line =
      (item.price as number) * (item.quantity as number) * (1 - (item.discount_rate as number) / 100)
    total += line
  }
  return Math.round(total * 100) / 100
}

export type FactusStandIn = Awaited<ReturnType<typeof startFactusStandIn>>

export async function startFactusStandIn(options: { tokenLifetimeSeconds?: number } = {}) {
  const requests: RecordedRequest[] = []
  const failures: Failure[] = []
  const grants: Grant[] = []
  const bills: StandInBill[] = []
  const creditNotes: StandInCreditNote[] = []
  const emails: { number: string; email: string }[] = []
  const municipalities = new Map(FACTUS_MUNICIPALITIES.map((row) => [row.id, row]))
  const mode = {
    hang: null as null | 'headers' | 'body',
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
  }
  let sequence = 0

  function grantToken(response: ServerResponse) {
    sequence += 1
    const grant: Grant = {
      access: `standin-access-${sequence}-${sha384(String(sequence)).slice(0, 24)}`,
      refresh: `standin-refresh-${sequence}-${sha384(`r${sequence}`).slice(0, 24)}`,
      expiresAt: Date.now() + mode.tokenLifetimeSeconds * 1000,
    }
    grants.push(grant)
    return sendJson(response, 200, {
      token_type: 'Bearer',
      expires_in: mode.tokenLifetimeSeconds,
      access_token: grant.access,
      refresh_token: grant.refresh,
    })
  }

  /** Laravel Passport's answers, as Factus gives them. */
  function token(request: RecordedRequest, response: ServerResponse) {
    const form = new URLSearchParams(request.rawBody)
    if (
      form.get('client_id') !== FACTUS_CREDENTIALS.clientId ||
      form.get('client_secret') !== FACTUS_CREDENTIALS.clientSecret
    ) {
      return sendJson(response, 401, {
        error: 'invalid_client',
        error_description: 'Client authentication failed',
        message: 'Client authentication failed',
      })
    }
    const grantType = form.get('grant_type')
    if (grantType === 'password') {
      if (
        form.get('username') !== FACTUS_CREDENTIALS.username ||
        form.get('password') !== FACTUS_CREDENTIALS.password
      ) {
        return sendJson(response, 400, {
          error: 'invalid_grant',
          error_description: 'The user credentials were incorrect.',
          message: 'The user credentials were incorrect.',
        })
      }
      return grantToken(response)
    }
    if (grantType === 'refresh_token') {
      const index = grants.findIndex((grant) => grant.refresh === form.get('refresh_token'))
      if (index < 0) {
        return sendJson(response, 400, {
          error: 'invalid_request',
          error_description: 'The refresh token is invalid.',
          hint: 'Token has been revoked',
          message: 'The refresh token is invalid.',
        })
      }
      grants.splice(index, 1) // a refresh token is used once; its access token goes with it
      return grantToken(response)
    }
    return sendJson(response, 400, {
      error: 'unsupported_grant_type',
      error_description: 'The authorization grant type is not supported by the authorization server.',
      message: 'The authorization grant type is not supported by the authorization server.',
    })
  }

  const validationError = (response: ServerResponse, errors: Errors) =>
    sendJson(response, 422, { status: 'Validation error', message: 'Error de validación', data: { errors } })

  function customerOf(body: Json) {
    const customer = body.customer as Json
    const municipality = municipalities.get(Number(customer.municipality_id))
    return {
      identification: customer.identification,
      dv: customer.dv ?? null,
      graphic_representation_name: isText(customer.company) ? customer.company : customer.names,
      trade_name: customer.trade_name ?? '',
      company: customer.company ?? '',
      names: customer.names,
      address: customer.address ?? null,
      email: customer.email ?? null,
      phone: customer.phone ?? null,
      legal_organization: { id: Number(customer.legal_organization_id) },
      tribute: { id: Number(customer.tribute_id) },
      municipality: municipality
        ? { id: municipality.id, code: municipality.code, name: municipality.name }
        : null,
    }
  }

  function billData(bill: StandInBill) {
    const method = String(bill.body.payment_method_code)
    return {
      company: {
        nit: '900825759',
        dv: '7',
        company: 'TIENDA DE PRUEBA S.A.S.',
        municipality: 'Bogotá, D.C.',
      },
      customer: customerOf(bill.body),
      numbering_range: { prefix: 'SETP', from: 990000000, to: 995000000, resolution_number: '18760000001' },
      billing_period: [],
      bill: {
        id: bill.id,
        document: { code: '01', name: 'Factura electrónica de Venta' },
        number: bill.number,
        reference_code: bill.referenceCode,
        status: bill.status,
        send_email: 0,
        qr: bill.status === 1 ? qrOf(bill.cufe) : null,
        cufe: bill.status === 1 ? bill.cufe : null,
        validated: bill.status === 1 ? bill.validated : null,
        total: bill.total.toFixed(2),
        observation: bill.body.observation ?? null,
        errors: [],
        created_at: bill.validated,
        qr_image: 'data:image/png;base64, iVBORw0KGgo=',
        payment_form: { code: String(bill.body.payment_form), name: 'Pago de contado' },
        payment_method: { code: method, name: PAYMENT_METHODS[method] ?? method },
      },
      items: bill.body.items,
      credit_notes: creditNotes
        .filter((note) => note.bill === bill)
        .map((note) => ({ id: note.id, number: note.number })),
    }
  }

  function validateBill(body: unknown, response: ServerResponse) {
    if (!isObject(body)) return validationError(response, { body: ['El cuerpo debe ser JSON.'] })
    const errors: Errors = {}
    if (
      body.numbering_range_id !== undefined &&
      Number(body.numbering_range_id) !== FACTUS_NUMBERING_RANGE_ID
    ) {
      addError(errors, 'numbering_range_id', 'El campo numbering range id seleccionado es inválido.')
    }
    if (!isText(body.reference_code)) {
      addError(errors, 'reference_code', 'El campo código de referencia es obligatorio.')
    } else if (bills.some((bill) => bill.referenceCode === body.reference_code && bill.status === 1)) {
      addError(errors, 'reference_code', 'El campo código de referencia ya ha sido registrado.')
    }
    if (!['1', '2'].includes(String(body.payment_form))) {
      addError(errors, 'payment_form', 'El campo forma de pago seleccionado es inválido.')
    }
    if (!(String(body.payment_method_code) in PAYMENT_METHODS)) {
      addError(errors, 'payment_method_code', 'El campo método de pago seleccionado es inválido.')
    }
    const customer = body.customer
    if (!isObject(customer)) {
      addError(errors, 'customer', 'El campo customer es obligatorio.')
    } else {
      if (!isText(customer.identification)) {
        addError(errors, 'customer.identification', 'El campo customer.identification es obligatorio.')
      }
      const documentId = Number(customer.identification_document_id)
      if (!(documentId >= 1 && documentId <= 11)) {
        addError(
          errors,
          'customer.identification_document_id',
          'El campo customer.identification document id seleccionado es inválido.',
        )
      }
      if (documentId === 6 && !/^\d$/.test(String(customer.dv ?? ''))) {
        addError(errors, 'customer.dv', 'El campo customer.dv es obligatorio cuando el documento es NIT.')
      }
      if (!isText(customer.names) && !isText(customer.company)) {
        addError(errors, 'customer.names', 'El campo customer.names es obligatorio.')
      }
      if (![1, 2].includes(Number(customer.legal_organization_id))) {
        addError(
          errors,
          'customer.legal_organization_id',
          'El campo customer.legal organization id seleccionado es inválido.',
        )
      }
      if (![18, 21].includes(Number(customer.tribute_id))) {
        addError(errors, 'customer.tribute_id', 'El campo customer.tribute id seleccionado es inválido.')
      }
      if (customer.municipality_id !== undefined && !municipalities.has(Number(customer.municipality_id))) {
        addError(
          errors,
          'customer.municipality_id',
          'El campo customer.municipality id seleccionado es inválido.',
        )
      }
      if (customer.email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(String(customer.email))) {
        addError(errors, 'customer.email', 'El campo customer.email debe ser una dirección de correo válida.')
      }
    }
    validateItems(body, errors)
    if (Object.keys(errors).length > 0) return validationError(response, errors)
    if (bills.some((bill) => bill.referenceCode === body.reference_code && bill.status === 0)) {
      return sendJson(response, 409, {
        status: 'Conflict',
        message: 'Se encontró una factura pendiente por enviar a la DIAN',
      })
    }
    const bill = createBill(body, 1)
    return sendJson(response, 201, {
      status: 'Created',
      message: `Documento con el número ${bill.number} ha sido validado`,
      data: billData(bill),
    })
  }

  function createBill(body: Json, status: 0 | 1): StandInBill {
    const id = 500 + bills.length + 1
    const number = `SETP${990000000 + bills.length + 1}`
    const bill: StandInBill = {
      id,
      number,
      referenceCode: String(body.reference_code),
      status,
      cufe: sha384(`${number}|${String(body.reference_code)}`),
      body,
      validated: factusDate(new Date()),
      total: Array.isArray(body.items) ? totalOf(body) : 0,
    }
    bills.push(bill)
    return bill
  }

  function creditNoteData(note: StandInCreditNote) {
    return {
      customer: customerOf(note.bill.body),
      credit_note: {
        id: note.id,
        number: note.number,
        reference_code: note.referenceCode,
        status: note.status,
        send_email: 0,
        qr: qrOf(note.cude),
        cude: note.cude,
        validated: note.validated,
        total: totalOf(note.body).toFixed(2),
        observation: note.body.observation ?? null,
        errors: [],
        created_at: note.validated,
        bill_id: note.bill.id,
        cufe: note.bill.cufe,
        number_bill: note.bill.number,
        payment_method: { code: String(note.body.payment_method_code) },
        customization_id: { code: String(note.body.customization_id) },
        correction_concept: { code: String(note.body.correction_concept_code) },
      },
      items: note.body.items,
    }
  }

  function validateCreditNote(body: unknown, response: ServerResponse) {
    if (!isObject(body)) return validationError(response, { body: ['El cuerpo debe ser JSON.'] })
    const errors: Errors = {}
    if (
      body.numbering_range_id !== undefined &&
      Number(body.numbering_range_id) !== FACTUS_CREDIT_NOTE_RANGE_ID
    ) {
      addError(errors, 'numbering_range_id', 'El campo numbering range id seleccionado es inválido.')
    }
    if (![1, 2, 3, 4, 5, 6].includes(Number(body.correction_concept_code))) {
      addError(
        errors,
        'correction_concept_code',
        'El campo correction concept code seleccionado es inválido.',
      )
    }
    if (![20, 22].includes(Number(body.customization_id))) {
      addError(errors, 'customization_id', 'El campo customization id seleccionado es inválido.')
    }
    const bill = bills.find((candidate) => candidate.id === Number(body.bill_id) && candidate.status === 1)
    if (Number(body.customization_id) === 20 && !bill) {
      addError(errors, 'bill_id', 'El campo bill id seleccionado es inválido.')
    }
    if (!isText(body.reference_code)) {
      addError(errors, 'reference_code', 'El campo código de referencia es obligatorio.')
    } else if (creditNotes.some((note) => note.referenceCode === body.reference_code)) {
      addError(errors, 'reference_code', 'El campo código de referencia ya ha sido registrado.')
    }
    if (!(String(body.payment_method_code) in PAYMENT_METHODS)) {
      addError(errors, 'payment_method_code', 'El campo método de pago seleccionado es inválido.')
    }
    validateItems(body, errors)
    if (Object.keys(errors).length > 0 || !bill) return validationError(response, errors)
    const number = `NC${creditNotes.length + 1}`
    const note: StandInCreditNote = {
      id: 120 + creditNotes.length + 1,
      number,
      referenceCode: String(body.reference_code),
      status: 1,
      cude: sha384(`${number}|${String(body.reference_code)}`),
      bill,
      body,
      validated: factusDate(new Date()),
    }
    creditNotes.push(note)
    return sendJson(response, 201, {
      status: 'Created',
      message: `Documento con el número ${note.number} ha sido validado`,
      data: creditNoteData(note),
    })
  }

  /** `GET /v1/bills` and `/v1/credit-notes`: filters, 10 per page, Factus's pagination block. */
  function list<T extends { number: string; referenceCode: string; status: 0 | 1 }>(
    rows: T[],
    query: URLSearchParams,
    row: (value: T) => Json,
    response: ServerResponse,
  ) {
    const reference = query.get('filter[reference_code]')
    const number = query.get('filter[number]')
    const status = query.get('filter[status]')
    const matching = rows.filter(
      (value) =>
        (!reference || value.referenceCode === reference) &&
        (!number || value.number === number) &&
        (status === null || String(value.status) === status),
    )
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1)
    const slice = matching.slice((page - 1) * 10, page * 10)
    return sendJson(response, 200, {
      status: 'OK',
      message: 'Solicitud exitosa',
      data: {
        data: slice.map(row),
        pagination: {
          total: matching.length,
          per_page: 10,
          current_page: page,
          last_page: Math.max(Math.ceil(matching.length / 10), 1),
          from: slice.length ? (page - 1) * 10 + 1 : null,
          to: slice.length ? (page - 1) * 10 + slice.length : null,
          links: [],
        },
      },
    })
  }

  const billRow = (bill: StandInBill) => ({
    id: bill.id,
    document: { code: '01', name: 'Factura electrónica de Venta' },
    number: bill.number,
    api_client_name: 'Vitrina',
    reference_code: bill.referenceCode,
    identification: (bill.body.customer as Json).identification,
    graphic_representation_name: (bill.body.customer as Json).names,
    company: '',
    trade_name: null,
    names: (bill.body.customer as Json).names,
    email: (bill.body.customer as Json).email ?? null,
    total: bill.total.toFixed(2),
    status: bill.status,
    errors: [],
    send_email: 0,
    has_claim: 0,
    is_negotiable_instrument: 0,
    payment_form: { code: '1', name: 'Pago de contado' },
    created_at: bill.validated,
    credit_notes: [],
    debit_notes: [],
  })

  const creditNoteRow = (note: StandInCreditNote) => ({
    id: note.id,
    api_client_name: 'Vitrina',
    reference_code: note.referenceCode,
    number: note.number,
    identification: (note.bill.body.customer as Json).identification,
    names: (note.bill.body.customer as Json).names,
    total: totalOf(note.body).toFixed(2),
    status: note.status,
    errors: [],
    send_email: 0,
    created_at: note.validated,
  })

  const notFound = (response: ServerResponse, message: string) =>
    sendJson(response, 404, { status: 'Not Found', message })

  const { origin, close } = await listen(requests, (request, response) => {
    try {
      answer(request, response)
    } catch (error) {
      // A stand-in bug must fail the test at once, not leave the client waiting.
      sendJson(response, 500, { status: 'Internal Server Error', message: String(error) })
    }
  })

  function answer(request: RecordedRequest, response: ServerResponse) {
    const index = failures.findIndex((failure) => !failure.path || failure.path === request.path)
    const failure = index >= 0 ? failures.splice(index, 1)[0] : undefined
    if (failure) {
      if (typeof failure.body === 'string') {
        response.writeHead(failure.status, { 'Content-Type': 'text/html' })
        return response.end(failure.body)
      }
      return sendJson(
        response,
        failure.status,
        failure.body ?? { status: 'Internal Server Error', message: 'Server Error' },
      )
    }
    if (mode.hang === 'headers') return // never answers
    if (mode.hang === 'body') {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.write('{"status":"OK","data":') // and stalls
      return
    }
    if (request.method === 'POST' && request.path === '/oauth/token') return token(request, response)

    const bearer = bearerToken(request.headers)
    const grant = grants.find((candidate) => candidate.access === bearer)
    if (!grant || grant.expiresAt <= Date.now()) {
      return sendJson(response, 401, { message: 'Unauthenticated.' })
    }
    const { method, path, query, body } = request
    if (method === 'GET' && path === '/v1/municipalities') {
      const name = query.get('name')?.toLowerCase()
      return sendJson(response, 200, {
        status: 'OK',
        message: 'Solicitud exitosa',
        data: [...municipalities.values()].filter((row) => !name || row.name.toLowerCase().includes(name)),
      })
    }
    if (method === 'POST' && path === '/v1/bills/validate') return validateBill(body, response)
    if (method === 'GET' && path === '/v1/bills') return list(bills, query, billRow, response)
    let match = /^\/v1\/bills\/show\/([^/]+)$/.exec(path)
    if (method === 'GET' && match) {
      const bill = bills.find((candidate) => candidate.number === decodeURIComponent(match![1]!))
      if (!bill) return notFound(response, 'Factura no encontrada')
      return sendJson(response, 200, { status: 'OK', message: 'Solicitud exitosa', data: billData(bill) })
    }
    match = /^\/v1\/bills\/download-(pdf|xml)\/([^/]+)$/.exec(path)
    if (method === 'GET' && match) {
      const kind = match[1]!
      const bill = bills.find((candidate) => candidate.number === decodeURIComponent(match![2]!))
      if (!bill) return notFound(response, 'Factura no encontrada')
      return sendJson(response, 200, {
        status: 'OK',
        message: 'Solicitud exitosa',
        data: {
          file_name: `fv09008257590002400000001${bill.id}`,
          [`${kind}_base_64_encoded`]: Buffer.from(`${kind} de ${bill.number}`).toString('base64'),
        },
      })
    }
    match = /^\/v1\/bills\/send-email\/([^/]+)$/.exec(path)
    if (method === 'POST' && match) {
      const bill = bills.find((candidate) => candidate.number === decodeURIComponent(match![1]!))
      if (!bill) return notFound(response, 'Factura no encontrada')
      const email = isObject(body) ? body.email : undefined
      if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
        return validationError(response, {
          email: ['El campo email debe ser una dirección de correo válida.'],
        })
      }
      emails.push({ number: bill.number, email })
      return sendJson(response, 200, { status: 'OK', message: 'Correo enviado exitosamente' })
    }
    if (method === 'POST' && path === '/v1/credit-notes/validate') return validateCreditNote(body, response)
    if (method === 'GET' && path === '/v1/credit-notes') {
      return list(creditNotes, query, creditNoteRow, response)
    }
    match = /^\/v1\/credit-notes\/([^/]+)$/.exec(path)
    if (method === 'GET' && match) {
      const note = creditNotes.find((candidate) => candidate.number === decodeURIComponent(match![1]!))
      if (!note) return notFound(response, 'Nota crédito no encontrada')
      return sendJson(response, 200, {
        status: 'OK',
        message: 'Solicitud exitosa',
        data: creditNoteData(note),
      })
    }
    return notFound(response, `La ruta ${path} no existe.`)
  }

  return {
    url: origin,
    credentials: FACTUS_CREDENTIALS,
    numberingRangeId: FACTUS_NUMBERING_RANGE_ID,
    creditNoteNumberingRangeId: FACTUS_CREDIT_NOTE_RANGE_ID,
    /** Every request received, in order. */
    requests,
    bills,
    creditNotes,
    /** Invoices sent by e-mail. */
    emails,
    /** A bill Factus kept without DIAN's validation (status 0): validating the reference again is a 409. */
    addPendingBill(referenceCode: string) {
      return createBill(
        {
          reference_code: referenceCode,
          payment_form: '1',
          payment_method_code: '10',
          customer: { identification: '222222222222', names: 'Consumidor final', municipality_id: 149 },
          items: [],
        },
        0,
      )
    },
    /** Drops a municipality from the table validate checks (the list the client cached keeps it). */
    forgetMunicipality(id: number) {
      municipalities.delete(id)
    },
    /** Every access token handed out so far expires now (their refresh tokens still work). */
    expireTokens() {
      for (const grant of grants) grant.expiresAt = 0
    },
    /** How long the next tokens last. */
    tokenLifetime(seconds: number) {
      mode.tokenLifetimeSeconds = seconds
    },
    /**
     * The next `count` requests (to `path` only, when given) answer `status` with `body` (a string
     * goes as HTML), or a 500's JSON.
     */
    failNext(count: number, status: number, body?: unknown, path?: string) {
      for (let i = 0; i < count; i++) failures.push({ status, body, path })
    },
    /** 'headers': never answers; 'body': 200 and half a JSON body, then stalls; null: normal. */
    hang(how: 'headers' | 'body' | null = 'headers') {
      mode.hang = how
    },
    /** Forgets requests, documents, tokens and switches (between tests). */
    reset() {
      requests.length = 0
      failures.length = 0
      grants.length = 0
      bills.length = 0
      creditNotes.length = 0
      emails.length = 0
      municipalities.clear()
      for (const row of FACTUS_MUNICIPALITIES) municipalities.set(row.id, row)
      mode.hang = null
      sequence = 0
      mode.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3600
    },
    stop: close,
  }
}
