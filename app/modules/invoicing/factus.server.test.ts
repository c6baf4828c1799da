import { describe, expect, test } from 'vitest'
import { startFactusStandIn } from '#tests/stand-ins/factus.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import {
  factusBillBody,
  factusProvider,
  parseFactusDate,
  type FactusBillBody,
  type FactusOptions,
} from './factus.server.ts'
import {
  InvoicingRefused,
  InvoicingUnavailable,
  nitCheckDigit,
  type CreditNoteDraft,
  type InvoiceDraft,
} from './provider.ts'

const standIn = standInForFile(startFactusStandIn)

function provider(overrides: Partial<FactusOptions> = {}) {
  const { credentials } = standIn()
  return factusProvider({
    baseUrl: standIn().url,
    ...credentials,
    numberingRangeId: standIn().numberingRangeId,
    creditNoteNumberingRangeId: standIn().creditNoteNumberingRangeId,
    ...overrides,
  })
}

const ORDER_ID = 'ord_01JFACTUS0001'

function draft(overrides: Partial<InvoiceDraft> = {}): InvoiceDraft {
  return {
    referenceCode: ORDER_ID,
    orderNumber: 1042,
    issuedFor: {
      identificationType: 'CC',
      identificationNumber: '1020304050',
      names: 'Ana Gómez',
      email: 'ana@example.co',
      phone: '3001234567',
      address: 'Calle 10 # 5-20',
      municipalityCode: '11001',
    },
    paymentMethod: 'cash_on_delivery',
    items: [
      {
        sku: 'ACC-COL-001',
        name: 'Collar Luna',
        quantity: 2,
        unitPrice: 4_550_000,
        discountPercent: 0,
        vat: 19,
      },
    ],
    shipping: 1_200_000,
    ...overrides,
  }
}

const nitBuyer = {
  identificationType: 'NIT' as const,
  identificationNumber: `900123456-${nitCheckDigit('900123456')}`,
  names: 'Accesorios del Norte S.A.S.',
  email: 'compras@norte.example.co',
  phone: '6015550101',
  address: 'Carrera 7 # 71-21',
  municipalityCode: '05001',
}

const sent = (path: string) => standIn().requests.filter((request) => request.path === path)
const billBody = () => sent('/v1/bills/validate').at(-1)!.body as FactusBillBody

async function rejection<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(type)
  return error as T
}

describe('issueInvoice', () => {
  test('a NIT buyer: token, lookup, municipality, then the validated bill with number, CUFE and QR', async () => {
    const invoice = await provider().issueInvoice(draft({ issuedFor: nitBuyer, paymentMethod: 'online' }))

    expect(standIn().requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /oauth/token',
      'GET /v1/bills',
      'GET /v1/municipalities',
      'POST /v1/bills/validate',
    ])
    const tokenRequest = standIn().requests[0]!
    expect(tokenRequest.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(tokenRequest.rawBody))).toEqual({
      grant_type: 'password',
      username: standIn().credentials.username,
      password: standIn().credentials.password,
      client_id: standIn().credentials.clientId,
      client_secret: standIn().credentials.clientSecret,
    })
    expect(sent('/v1/bills')[0]!.query.get('filter[reference_code]')).toBe(ORDER_ID)

    const validate = sent('/v1/bills/validate')[0]!
    expect(validate.headers.authorization).toMatch(/^Bearer standin-access-/)
    expect(validate.headers['content-type']).toBe('application/json')
    expect(validate.headers.accept).toBe('application/json')
    const body = billBody()
    expect(body).toMatchObject({
      numbering_range_id: standIn().numberingRangeId,
      reference_code: ORDER_ID,
      observation: 'Pedido 1042',
      payment_form: '1',
      payment_method_code: 'ZZZ',
    })
    expect(body.customer).toEqual({
      identification: '900123456',
      dv: String(nitCheckDigit('900123456')),
      company: 'Accesorios del Norte S.A.S.',
      names: 'Accesorios del Norte S.A.S.',
      address: 'Carrera 7 # 71-21',
      email: 'compras@norte.example.co',
      phone: '6015550101',
      legal_organization_id: 1,
      tribute_id: 21,
      identification_document_id: 6,
      municipality_id: 1, // Factus's id of Medellín (DANE 05001) in its table
    })

    const [bill] = standIn().bills
    expect(invoice).toEqual({
      provider: 'factus',
      number: bill!.number,
      cufe: bill!.cufe,
      qrUrl: `https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${bill!.cufe}`,
      pdfUrl: null,
      xmlUrl: null,
      issuedAt: expect.any(Date),
      providerReference: String(bill!.id),
    })
    expect(invoice.number).toMatch(/^SETP\d+$/)
    expect(invoice.cufe).toMatch(/^[0-9a-f]{96}$/)
    expect(Math.abs(invoice.issuedAt!.getTime() - Date.now())).toBeLessThan(60_000)
  })

  test("a buyer without a document is DIAN's consumidor final (222222222222), still reachable by e-mail", async () => {
    await provider().issueInvoice(
      draft({ issuedFor: { ...draft().issuedFor, identificationType: null, identificationNumber: '' } }),
    )
    expect(billBody().customer).toEqual({
      identification: '222222222222',
      names: 'Consumidor final',
      legal_organization_id: 2,
      tribute_id: 21,
      identification_document_id: 3,
      address: 'Calle 10 # 5-20',
      email: 'ana@example.co',
      phone: '3001234567',
      municipality_id: 149,
    })
    expect(billBody().payment_method_code).toBe('10')
  })

  test("CC, CE, PP and TI go as Factus's document ids 3, 5, 7 and 2", () => {
    const ids = (['CC', 'CE', 'PP', 'TI'] as const).map(
      (identificationType) =>
        factusBillBody(draft({ issuedFor: { ...draft().issuedFor, identificationType } }), 149, 8).customer
          .identification_document_id,
    )
    expect(ids).toEqual([3, 5, 7, 2])
  })

  test('items: pesos with 2 decimals from centavos, VAT kinds, discount, and shipping as the line "Envío"', async () => {
    await provider().issueInvoice(
      draft({
        items: [
          {
            sku: 'A-19',
            name: 'Aretes Sol',
            quantity: 1,
            unitPrice: 1_234_567,
            discountPercent: 10,
            vat: 19,
          },
          { sku: 'B-5', name: 'Bolso', quantity: 3, unitPrice: 9_990_000, discountPercent: 0, vat: 5 },
          {
            sku: 'C-EX',
            name: 'Libro',
            quantity: 1,
            unitPrice: 3_500_050,
            discountPercent: 0,
            vat: 'excluded',
          },
          { sku: 'D-0', name: 'Exento', quantity: 2, unitPrice: 100, discountPercent: 12.5, vat: 'exempt' },
        ],
        shipping: 1_500_000,
        observation: 'Entregar en portería',
      }),
    )
    const common = { unit_measure_id: 70, standard_code_id: 1, tribute_id: 1, withholding_taxes: [] }
    expect(billBody().items).toEqual([
      {
        code_reference: 'A-19',
        name: 'Aretes Sol',
        quantity: 1,
        discount_rate: 10,
        price: 12345.67,
        tax_rate: '19.00',
        is_excluded: 0,
        ...common,
      },
      {
        code_reference: 'B-5',
        name: 'Bolso',
        quantity: 3,
        discount_rate: 0,
        price: 99900,
        tax_rate: '5.00',
        is_excluded: 0,
        ...common,
      },
      {
        code_reference: 'C-EX',
        name: 'Libro',
        quantity: 1,
        discount_rate: 0,
        price: 35000.5,
        tax_rate: '0.00',
        is_excluded: 1,
        ...common,
      },
      {
        code_reference: 'D-0',
        name: 'Exento',
        quantity: 2,
        discount_rate: 12.5,
        price: 1,
        tax_rate: '0.00',
        is_excluded: 0,
        ...common,
      },
      {
        code_reference: 'ENVIO',
        name: 'Envío',
        quantity: 1,
        discount_rate: 0,
        price: 15000,
        tax_rate: '19.00',
        is_excluded: 0,
        ...common,
      },
    ])
    expect(billBody().observation).toBe('Pedido 1042. Entregar en portería')
  })

  test('free shipping sends no "Envío" line; a shipping VAT other than 19 goes as given', () => {
    expect(factusBillBody(draft({ shipping: 0 }), 149, 8).items.map((item) => item.code_reference)).toEqual([
      'ACC-COL-001',
    ])
    const shipping = factusBillBody(draft({ shippingVat: 'excluded' }), 149, 8).items.at(-1)!
    expect(shipping).toMatchObject({ code_reference: 'ENVIO', tax_rate: '0.00', is_excluded: 1 })
  })

  test('a NIT with a wrong check digit, a bad quantity or an unknown DANE code is refused before Factus sees it', async () => {
    const badNit = await rejection(
      provider().issueInvoice(draft({ issuedFor: { ...nitBuyer, identificationNumber: '900123456-0' } })),
      InvoicingRefused,
    )
    expect(badNit.message).toMatch(/^El NIT «900123456-0» no es válido: su dígito de verificación es \d/)
    const badQuantity = await rejection(
      provider().issueInvoice(
        draft({ items: [{ sku: 'X', name: 'X', quantity: 0, unitPrice: 100, discountPercent: 0, vat: 19 }] }),
      ),
      InvoicingRefused,
    )
    expect(badQuantity.message).toContain('cantidad no válida')
    const unknownPlace = await rejection(
      provider().issueInvoice(draft({ issuedFor: { ...draft().issuedFor, municipalityCode: '99999' } })),
      InvoicingRefused,
    )
    expect(unknownPlace.message).toBe('Factus no reconoce el municipio con código DANE 99999.')
    expect(sent('/v1/bills/validate')).toHaveLength(0)
    expect(unknownPlace.retryable).toBe(false)
  })

  test('a NIT without its check digit gets it worked out (DIAN modulo 11)', () => {
    expect(nitCheckDigit('900825759')).toBe(7) // Factus's own sample company, NIT 900825759-7
    expect(nitCheckDigit('800197268')).toBe(4) // DIAN, NIT 800.197.268-4
    const body = factusBillBody(
      draft({ issuedFor: { ...nitBuyer, identificationNumber: '900.825.759' } }),
      1,
      8,
    )
    expect(body.customer).toMatchObject({ identification: '900825759', dv: '7' })
  })
})

describe('Factus refusals', () => {
  test("Factus's 422 becomes InvoicingRefused with its Spanish message, field by field", async () => {
    const client = provider()
    await client.municipalityId('11001') // the table is loaded and kept by the client
    standIn().forgetMunicipality(149) // …and Factus no longer takes that id
    const error = await rejection(client.issueInvoice(draft()), InvoicingRefused)
    expect(error.message).toBe(
      'Factus rechazó la factura: El campo customer.municipality id seleccionado es inválido.',
    )
    expect(error.providerMessages).toEqual(['El campo customer.municipality id seleccionado es inválido.'])
    expect(error.status).toBe(422)
    expect(error.retryable).toBe(false)
  })

  test("the stand-in answers a bill without the customer's identification the way Factus does", async () => {
    const client = provider()
    await client.findInvoice('calentar') // gets a token
    const access = /^Bearer (.+)$/.exec(standIn().requests[1]!.headers.authorization ?? '')![1]!
    const body = factusBillBody(draft(), 149, standIn().numberingRangeId)
    const { identification: _, ...customer } = body.customer
    const response = await fetch(`${standIn().url}/v1/bills/validate`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${access}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({ ...body, customer }),
    })
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({
      status: 'Validation error',
      message: 'Error de validación',
      data: { errors: { 'customer.identification': ['El campo customer.identification es obligatorio.'] } },
    })
  })

  test('a 422 with several fields lists every message for the owner', async () => {
    standIn().failNext(
      1,
      422,
      {
        status: 'Validation error',
        message: 'Error de validación',
        data: {
          errors: {
            'customer.identification': ['El campo customer.identification es obligatorio.'],
            FAK24: 'Regla: FAK24, Rechazo: No está informado el documento de identificación del adquiriente.',
          },
        },
      },
      '/v1/bills/validate',
    )
    const error = await rejection(provider().issueInvoice(draft()), InvoicingRefused)
    expect(error.providerMessages).toEqual([
      'El campo customer.identification es obligatorio.',
      'Regla: FAK24, Rechazo: No está informado el documento de identificación del adquiriente.',
    ])
    expect(error.message).toBe(
      'Factus rechazó la factura: El campo customer.identification es obligatorio.; Regla: FAK24, Rechazo: No está informado el documento de identificación del adquiriente.',
    )
  })

  test('a bill Factus keeps pending for the reference is its 409, refused until someone acts in Factus', async () => {
    standIn().addPendingBill(ORDER_ID)
    const error = await rejection(provider().issueInvoice(draft()), InvoicingRefused)
    expect(error.status).toBe(409)
    expect(error.message).toBe(
      'Factus rechazó la factura: Se encontró una factura pendiente por enviar a la DIAN',
    )
  })

  test('a reference already validated (the lookup missed it) answers with the invoice Factus has', async () => {
    const first = await provider().issueInvoice(draft())
    // The lookup before issuing comes back empty (a lost race); Factus then refuses the reference…
    standIn().failNext(
      1,
      200,
      { status: 'OK', message: 'Solicitud exitosa', data: { data: [], pagination: {} } },
      '/v1/bills',
    )
    const again = await provider().issueInvoice(draft())
    expect(again).toEqual(first)
    expect(standIn().bills).toHaveLength(1)
    expect(sent('/v1/bills/validate')).toHaveLength(2) // …and the second lookup finds the first bill
  })
})

describe('Factus unavailable (retryable)', () => {
  test('a 500 is InvoicingUnavailable "server", with Factus\'s message', async () => {
    standIn().failNext(1, 500, undefined, '/v1/bills/validate')
    const error = await rejection(provider().issueInvoice(draft()), InvoicingUnavailable)
    expect(error).toMatchObject({ reason: 'server', status: 500, retryable: true })
    expect(error.message).toBe('Factus falló (HTTP 500): Server Error; se intentará de nuevo.')
    expect(standIn().bills).toHaveLength(0)
  })

  test('a 502 page without JSON and a 429 are retryable too', async () => {
    standIn().failNext(1, 502, '<html>Bad Gateway</html>')
    await expect(provider().findInvoice(ORDER_ID)).rejects.toMatchObject({ reason: 'server', status: 502 })
    standIn().failNext(1, 429, { message: 'Too Many Attempts.' }, '/v1/bills')
    const error = await rejection(provider().findInvoice(ORDER_ID), InvoicingUnavailable)
    expect(error).toMatchObject({ reason: 'rate-limit', status: 429 })
    expect(error.message).toContain('Too Many Attempts.')
  })

  test('a Factus that never answers is a timeout after timeoutMs', async () => {
    standIn().hang('headers')
    const started = Date.now()
    const error = await rejection(provider({ timeoutMs: 200 }).issueInvoice(draft()), InvoicingUnavailable)
    expect(error.reason).toBe('timeout')
    expect(error.message).toBe('Factus no respondió en 0.2 s; se intentará de nuevo.')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  test('a body that stalls half-way is a timeout too, never a half-read answer', async () => {
    standIn().hang('body')
    const error = await rejection(provider({ timeoutMs: 200 }).findInvoice(ORDER_ID), InvoicingUnavailable)
    expect(error.reason).toBe('timeout')
  })

  test('connection refused is "network"', async () => {
    const error = await rejection(
      provider({ baseUrl: await refusedUrl() }).issueInvoice(draft()),
      InvoicingUnavailable,
    )
    expect(error.reason).toBe('network')
    expect(error.message).toMatch(/^No se pudo conectar con Factus/)
  })

  test('wrong credentials are "credentials", and no message carries a secret', async () => {
    const error = await rejection(
      provider({ password: 'clave-equivocada-123' }).issueInvoice(draft()),
      InvoicingUnavailable,
    )
    expect(error).toMatchObject({ reason: 'credentials', status: 400 })
    expect(error.message).toContain('The user credentials were incorrect.')
    expect(error.message).not.toContain('clave-equivocada-123')
    expect(error.message).not.toContain(standIn().credentials.clientSecret)
  })
})

describe('the access token', () => {
  test('is asked once and reused by later calls of the same client', async () => {
    const client = provider()
    await client.issueInvoice(draft())
    await client.issueInvoice(draft({ referenceCode: 'ord_2', orderNumber: 1043 }))
    await client.findInvoice(ORDER_ID)
    expect(sent('/oauth/token')).toHaveLength(1)
    expect(sent('/v1/municipalities')).toHaveLength(1) // the table is kept too
  })

  test('calls at the same moment share one token request', async () => {
    const client = provider()
    await Promise.all([client.findInvoice('a'), client.findInvoice('b'), client.findInvoice('c')])
    expect(sent('/oauth/token')).toHaveLength(1)
  })

  test('near its expiry it is renewed with the refresh token, not the password', async () => {
    let clock = Date.now()
    const client = provider({ now: () => clock })
    await client.findInvoice(ORDER_ID)
    clock += 3600_000 - 30_000 // half a minute before Factus's hour runs out
    await client.findInvoice(ORDER_ID)
    const grants = sent('/oauth/token').map((request) => new URLSearchParams(request.rawBody))
    expect(grants.map((form) => form.get('grant_type'))).toEqual(['password', 'refresh_token'])
    expect(grants[1]!.get('refresh_token')).toMatch(/^standin-refresh-1-/)
    expect(grants[1]!.has('password')).toBe(false)
    expect(grants[1]!.get('client_id')).toBe(standIn().credentials.clientId)
  })

  test('a 401 (token expired early at Factus) refreshes and repeats the call once', async () => {
    const client = provider()
    await client.findInvoice(ORDER_ID)
    standIn().expireTokens()
    const invoice = await client.issueInvoice(draft())
    expect(invoice.number).toMatch(/^SETP/)
    expect(standIn().requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /oauth/token',
      'GET /v1/bills',
      'GET /v1/bills', // 401
      'POST /oauth/token', // refresh grant
      'GET /v1/bills',
      'GET /v1/municipalities',
      'POST /v1/bills/validate',
    ])
    expect(new URLSearchParams(sent('/oauth/token')[1]!.rawBody).get('grant_type')).toBe('refresh_token')
  })

  test('a refresh token Factus no longer takes falls back to the password grant', async () => {
    let clock = Date.now()
    const client = provider({ now: () => clock })
    await client.findInvoice(ORDER_ID)
    standIn().reset() // Factus forgot every token
    clock += 3600_000
    await client.findInvoice(ORDER_ID)
    expect(
      sent('/oauth/token').map((request) => new URLSearchParams(request.rawBody).get('grant_type')),
    ).toEqual(['refresh_token', 'password'])
  })
})

describe('findInvoice', () => {
  test('after issuing finds the same invoice by reference, and a retried issue sends nothing new', async () => {
    const client = provider()
    const issued = await client.issueInvoice(draft())
    expect(await provider().findInvoice(ORDER_ID)).toEqual(issued)
    expect(await client.issueInvoice(draft())).toEqual(issued)
    expect(sent('/v1/bills/validate')).toHaveLength(1)
    expect(standIn().bills).toHaveLength(1)
  })

  test('null for an unknown reference and for a bill DIAN has not validated', async () => {
    expect(await provider().findInvoice('ord_desconocido')).toBeNull()
    standIn().addPendingBill('ord_pendiente')
    expect(await provider().findInvoice('ord_pendiente')).toBeNull()
  })
})

describe('credit notes', () => {
  function creditNote(invoiceNumber: string, overrides: Partial<CreditNoteDraft> = {}): CreditNoteDraft {
    return {
      referenceCode: 'ret_01JRETURN0001',
      invoiceNumber,
      reason: 'devolucion',
      items: [
        {
          sku: 'ACC-COL-001',
          name: 'Collar Luna',
          quantity: 1,
          unitPrice: 4_550_000,
          discountPercent: 0,
          vat: 19,
        },
      ],
      shipping: 0,
      ...overrides,
    }
  }

  test("a return references the bill by Factus's id, with concept 1 and the bill's payment method", async () => {
    const invoice = await provider().issueInvoice(draft())
    const note = await provider().issueCreditNote(
      creditNote(invoice.number, { providerReference: invoice.providerReference }),
    )
    const body = sent('/v1/credit-notes/validate')[0]!.body
    expect(body).toEqual({
      numbering_range_id: standIn().creditNoteNumberingRangeId,
      correction_concept_code: 1,
      customization_id: 20,
      bill_id: Number(invoice.providerReference),
      reference_code: 'ret_01JRETURN0001',
      payment_method_code: '10',
      observation: `Devolución de la factura ${invoice.number}`,
      items: [
        expect.objectContaining({
          code_reference: 'ACC-COL-001',
          quantity: 1,
          price: 45500,
          tax_rate: '19.00',
        }),
      ],
    })
    const [stored] = standIn().creditNotes
    expect(note).toEqual({
      provider: 'factus',
      number: stored!.number,
      cude: stored!.cude,
      qrUrl: expect.stringContaining(stored!.cude),
      issuedAt: expect.any(Date),
      providerReference: String(stored!.id),
      invoiceNumber: invoice.number,
    })
  })

  test('a cancellation without the provider reference looks the bill up, credits shipping, and is found afterwards', async () => {
    const invoice = await provider().issueInvoice(draft())
    const note = await provider().issueCreditNote(
      creditNote(invoice.number, { referenceCode: 'anul_1042', reason: 'anulacion', shipping: 1_200_000 }),
    )
    const body = sent('/v1/credit-notes/validate')[0]!.body as {
      correction_concept_code: number
      items: { code_reference: string }[]
    }
    expect(body.correction_concept_code).toBe(2)
    expect(body.items.map((item) => item.code_reference)).toEqual(['ACC-COL-001', 'ENVIO'])
    expect(await provider().findCreditNote('anul_1042')).toEqual(note)
    expect(
      await provider().issueCreditNote(creditNote(invoice.number, { referenceCode: 'anul_1042' })),
    ).toEqual(note)
    expect(sent('/v1/credit-notes/validate')).toHaveLength(1)
    expect(await provider().findCreditNote('otra')).toBeNull()
  })

  test('a credit note for a bill Factus does not have is refused', async () => {
    const error = await rejection(provider().issueCreditNote(creditNote('SETP999')), InvoicingRefused)
    expect(error.message).toBe('Factus rechazó la nota crédito: no encuentra la factura SETP999.')
  })
})

describe('e-mail and files', () => {
  test('Factus e-mails the invoice, and serves its PDF and XML as base64', async () => {
    const client = provider()
    const invoice = await client.issueInvoice(draft())
    await client.sendInvoiceEmail(invoice.number, 'ana@example.co')
    expect(standIn().emails).toEqual([{ number: invoice.number, email: 'ana@example.co' }])
    const pdf = await client.downloadInvoice(invoice.number, 'pdf')
    expect(Buffer.from(pdf.contentBase64, 'base64').toString()).toBe(`pdf de ${invoice.number}`)
    expect(pdf.fileName).toMatch(/^fv/)
    const xml = await client.downloadInvoice(invoice.number, 'xml')
    expect(Buffer.from(xml.contentBase64, 'base64').toString()).toBe(`xml de ${invoice.number}`)
  })

  test('an address Factus refuses is InvoicingRefused', async () => {
    const client = provider()
    const invoice = await client.issueInvoice(draft())
    const error = await rejection(client.sendInvoiceEmail(invoice.number, 'no-es-correo'), InvoicingRefused)
    expect(error.message).toBe(
      `Factus rechazó el envío por correo de la factura ${invoice.number}: El campo email debe ser una dirección de correo válida.`,
    )
  })
})

test('Factus dates are Bogotá time', () => {
  expect(parseFactusDate('16-09-2024 02:58:34 PM')).toEqual(new Date('2024-09-16T19:58:34Z'))
  expect(parseFactusDate('01-01-2025 12:05:00 AM')).toEqual(new Date('2025-01-01T05:05:00Z'))
  expect(parseFactusDate(null)).toBeNull()
})

test('a shipping discount goes on the line "Envío" as its rate', async () => {
  await provider().issueInvoice(draft({ shipping: 1_200_000, shippingDiscountPercent: 50 }))
  expect(billBody().items.at(-1)).toMatchObject({ code_reference: 'ENVIO', price: 12000, discount_rate: 50 })
})
