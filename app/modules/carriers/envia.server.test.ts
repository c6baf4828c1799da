import { describe, expect, test } from 'vitest'
import { startEnviaStandIn } from '#tests/stand-ins/envia.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import { enviaProvider, enviaStatus, ENVIA_STATE_BY_DANE_DEPARTMENT } from './envia.server.ts'
import {
  CarrierRefused,
  CarrierUnavailable,
  type LabelInput,
  type QuoteInput,
  type ShipmentParty,
} from './provider.ts'

const standIn = standInForFile(startEnviaStandIn)

const provider = (
  options: { timeoutMs?: number; token?: string; baseUrl?: string; carriers?: string[] } = {},
) =>
  enviaProvider({
    baseUrl: options.baseUrl ?? standIn().url,
    token: options.token ?? standIn().token,
    timeoutMs: options.timeoutMs,
    carriers: options.carriers,
  })

const SHOP: ShipmentParty = {
  name: 'Vitrina Accesorios',
  phone: '3001234567',
  email: 'pedidos@vitrina.example.co',
  street: 'Calle 10 # 43-12, local 105',
  municipalityCode: '05001',
  municipalityName: 'Medellín',
  departmentCode: '05',
  departmentName: 'Antioquia',
  identificationNumber: '900123456',
}

const SHOPPER: ShipmentParty = {
  name: 'Ana Gómez',
  phone: '3109876543',
  street: 'Carrera 7 # 72-41, apto 502',
  municipalityCode: '11001',
  municipalityName: 'Bogotá D.C.',
  departmentCode: '11',
  departmentName: 'Bogotá, D.C.',
  identificationNumber: '1020304050',
}

function quoteInput(overrides: Partial<QuoteInput> = {}): QuoteInput {
  return {
    origin: SHOP,
    destination: SHOPPER,
    // 450 g, 20 × 15 × 8 cm, declared 89.900 pesos.
    parcel: { weightGrams: 450, lengthCm: 20, widthCm: 15, heightCm: 8, declaredValue: 8_990_000 },
    ...overrides,
  }
}

function labelInput(overrides: Partial<LabelInput> = {}): LabelInput {
  return { ...quoteInput(), carrier: 'servientrega', service: 'ground', reference: '1042', ...overrides }
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Error)
  return error as Error
}

describe('quote', () => {
  test('asks /ship/rate/ once per carrier, with the Bearer token and Colombian DANE places', async () => {
    await provider().quote(quoteInput())
    const requests = standIn().requests
    expect(requests.map((request) => request.path)).toEqual(['/ship/rate/', '/ship/rate/'])
    const carriers = requests.map(
      (request) => (request.body as { shipment: { carrier: string } }).shipment.carrier,
    )
    expect(carriers.sort()).toEqual(['coordinadora', 'servientrega'])
    for (const request of requests) {
      expect(request.method).toBe('POST')
      expect(request.headers.authorization).toBe(`Bearer ${standIn().token}`)
      expect(request.headers['content-type']).toMatch(/^application\/json/)
    }
    const body = requests[0]!.body as Record<string, unknown>
    expect(body.origin).toEqual({
      name: 'Vitrina Accesorios',
      phone: '3001234567',
      email: 'pedidos@vitrina.example.co',
      street: 'Calle 10 # 43-12, local 105',
      number: '',
      city: '05001000',
      state: 'AN',
      country: 'CO',
      postalCode: '05001000',
      identificationNumber: '900123456',
    })
    expect(body.destination).toMatchObject({ city: '11001000', state: 'DC', country: 'CO' })
    expect(body.packages).toEqual([
      {
        type: 'box',
        content: 'Accesorios',
        amount: 1,
        weight: 0.45,
        weightUnit: 'KG',
        lengthUnit: 'CM',
        dimensions: { length: 20, width: 15, height: 8 },
        declaredValue: 89900,
        insurance: 0,
      },
    ])
    expect(body.shipment).toMatchObject({ type: 1 })
    expect(body.settings).toEqual({ currency: 'COP' })
  })

  test('answers every service cheapest first, in centavos, with the days', async () => {
    const quotes = await provider().quote(quoteInput())
    expect(quotes).toEqual([
      {
        carrier: 'servientrega',
        service: 'ground',
        serviceName: 'Servientrega Mercancía Premier',
        price: 1_245_050,
        days: 2,
      },
      {
        carrier: 'coordinadora',
        service: 'ground',
        serviceName: 'Coordinadora Terrestre',
        price: 1_590_000,
        days: 3,
      },
    ])
    for (const quote of quotes) expect(Number.isInteger(quote.price)).toBe(true)
  })

  test("a cash-on-delivery amount goes as the package's cash_on_delivery service, in pesos", async () => {
    const quotes = await provider().quote(quoteInput({ cashOnDeliveryAmount: 12_990_000 }))
    for (const request of standIn().requests) {
      const [parcel] = (request.body as { packages: Record<string, unknown>[] }).packages
      expect(parcel!.additionalServices).toEqual([{ service: 'cash_on_delivery', data: { amount: 129900 } }])
    }
    // The stand-in adds its 3 % commission (3.897 pesos): the price is what the shop pays.
    expect(quotes.map((quote) => quote.price)).toEqual([1_634_750, 1_979_700])
  })

  test('no cash on delivery sends no additional service', async () => {
    await provider().quote(quoteInput({ cashOnDeliveryAmount: 0 }))
    const [parcel] = (standIn().requests[0]!.body as { packages: Record<string, unknown>[] }).packages
    expect(parcel).not.toHaveProperty('additionalServices')
  })

  test('only the configured carriers are asked', async () => {
    const quotes = await provider({ carriers: ['coordinadora'] }).quote(quoteInput())
    expect(standIn().requests).toHaveLength(1)
    expect(quotes.map((quote) => quote.carrier)).toEqual(['coordinadora'])
  })

  test("a carrier Envia refuses leaves the others' quotes", async () => {
    const quotes = await provider({ carriers: ['coordinadora', 'tcc'] }).quote(quoteInput())
    expect(quotes.map((quote) => quote.carrier)).toEqual(['coordinadora'])
  })

  test("a city Envia does not know is CarrierRefused with Envia's message, in Spanish", async () => {
    const destination = { ...SHOPPER, municipalityCode: '11999', municipalityName: 'Inexistente' }
    const error = await rejection(provider().quote(quoteInput({ destination })))
    expect(error).toBeInstanceOf(CarrierRefused)
    const refused = error as CarrierRefused
    expect(refused.message).toMatch(/^Envia no cotizó el envío: The destination city 11999000 was not found/)
    expect(refused.providerMessage).toMatch(/11999000 was not found for country CO/)
    expect(refused.details).toMatchObject({ status: 400, code: 1125 })
    expect(refused.retryable).toBe(false)
  })

  test("Envia's error inside a 200 is a refusal too", async () => {
    standIn().refuseWith200()
    const destination = { ...SHOPPER, municipalityCode: '11999' }
    const error = await rejection(provider().quote(quoteInput({ destination })))
    expect(error).toBeInstanceOf(CarrierRefused)
    expect((error as CarrierRefused).details.status).toBe(200)
  })

  test('a malformed DANE code or unknown department is refused before asking Envia', async () => {
    const bad = { ...SHOPPER, municipalityCode: '1101' }
    await expect(provider().quote(quoteInput({ destination: bad }))).rejects.toBeInstanceOf(CarrierRefused)
    const noDepartment = { ...SHOPPER, departmentCode: '00' }
    await expect(provider().quote(quoteInput({ destination: noDepartment }))).rejects.toThrow(
      /Departamento DANE desconocido/,
    )
    expect(standIn().requests).toHaveLength(0)
  })

  test('every DANE department has an Envia state code', () => {
    expect(Object.keys(ENVIA_STATE_BY_DANE_DEPARTMENT)).toHaveLength(33)
    expect(new Set(Object.values(ENVIA_STATE_BY_DANE_DEPARTMENT)).size).toBe(33)
  })
})

describe('createLabel', () => {
  test('POSTs /ship/generate/ with carrier, service, our order number and a PDF label', async () => {
    await provider().createLabel(labelInput({ cashOnDeliveryAmount: 12_990_000 }))
    const request = standIn().requests[0]!
    expect(request.path).toBe('/ship/generate/')
    const body = request.body as Record<string, Record<string, unknown>>
    expect(body.shipment).toEqual({
      type: 1,
      carrier: 'servientrega',
      service: 'ground',
      orderReference: '1042',
    })
    expect(body.settings).toEqual({ currency: 'COP', printFormat: 'PDF', printSize: 'STOCK_4X6' })
    expect(body.destination).toMatchObject({
      name: 'Ana Gómez',
      phone: '3109876543',
      street: 'Carrera 7 # 72-41, apto 502',
      city: '11001000',
      state: 'DC',
      identificationNumber: '1020304050',
    })
    expect(body.destination).not.toHaveProperty('email')
    const [parcel] = body.packages as unknown as Record<string, unknown>[]
    expect(parcel!.additionalServices).toEqual([{ service: 'cash_on_delivery', data: { amount: 129900 } }])
  })

  test('answers the tracking number, the label URL (a PDF), the tracking page and the price in centavos', async () => {
    const label = await provider().createLabel(labelInput())
    const [shipment] = [...standIn().shipments.values()]
    expect(label).toEqual({
      carrier: 'servientrega',
      service: 'ground',
      trackingNumber: shipment!.trackingNumber,
      labelUrl: `${standIn().url}/labels/${shipment!.trackingNumber}.pdf`,
      trackingUrl: `https://envia.com/es-CO/rastreo?label=${shipment!.trackingNumber}`,
      price: 1_245_050,
      providerShipmentId: String(shipment!.shipmentId),
    })
    const pdf = await fetch(label.labelUrl)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect((await pdf.text()).startsWith('%PDF-')).toBe(true)
  })

  test('a service the carrier does not have is CarrierRefused "Envia no generó la guía: …"', async () => {
    const error = await rejection(provider().createLabel(labelInput({ service: 'express' })))
    expect(error).toBeInstanceOf(CarrierRefused)
    expect(error.message).toBe('Envia no generó la guía: The service express is not available.')
  })

  test('a 200 without tracking number is CarrierUnavailable that may have bought the guía', async () => {
    standIn().failNext(1, 200, { meta: 'generate', data: [{ carrier: 'servientrega' }] })
    const error = await rejection(provider().createLabel(labelInput()))
    expect(error).toBeInstanceOf(CarrierUnavailable)
    expect((error as CarrierUnavailable).details.mayHaveSucceeded).toBe(true)
  })
})

describe('track', () => {
  test('POSTs the tracking numbers to /ship/generaltrack/ and maps each state up to delivered', async () => {
    const envia = provider()
    const { trackingNumber } = await envia.createLabel(labelInput())
    const track = async () => {
      const [tracking] = await envia.track('servientrega', [trackingNumber])
      return tracking!
    }

    expect(await track()).toEqual({ trackingNumber, status: 'created', statusText: 'Created', events: [] })
    const request = standIn().requests.at(-1)!
    expect(request.path).toBe('/ship/generaltrack/')
    expect(request.body).toEqual({ trackingNumbers: [trackingNumber] })
    expect(request.headers.authorization).toBe(`Bearer ${standIn().token}`)

    const steps = [
      ['Picked Up', 'Recogido en bodega del remitente', 'Medellín', 'picked_up'],
      ['Shipped', 'En tránsito hacia Bogotá', 'Medellín', 'in_transit'],
      ['Out for Delivery', 'En reparto', 'Bogotá', 'out_for_delivery'],
      ['Delivered', 'Entregado a Ana Gómez', 'Bogotá', 'delivered'],
    ] as const
    for (const [enviaState, description, location, ours] of steps) {
      standIn().advance(trackingNumber, enviaState, description, location)
      expect(await track()).toMatchObject({ status: ours, statusText: enviaState })
    }

    const delivered = await track()
    // Envia lists the history newest first; ours is oldest first, with dates.
    expect(delivered.events.map((event) => event.description)).toEqual(steps.map((step) => step[1]))
    expect(delivered.events[3]).toEqual({
      at: expect.any(Date),
      description: 'Entregado a Ana Gómez',
      location: 'Bogotá',
    })
    expect(delivered.events[0]!.at.getTime()).toBeLessThan(delivered.events[3]!.at.getTime())
  })

  test('unknown numbers are left out; no numbers asks nothing', async () => {
    expect(await provider().track('servientrega', ['99999999'])).toEqual([])
    const requests = standIn().requests.length
    expect(await provider().track('servientrega', [])).toEqual([])
    expect(standIn().requests).toHaveLength(requests)
  })

  test.each([
    ['Created', 'created'],
    ['Picked Up', 'picked_up'],
    ['Pickup', 'picked_up'],
    ['Shipped', 'in_transit'],
    ['In Transit', 'in_transit'],
    ['En tránsito', 'in_transit'],
    ['Out for Delivery', 'out_for_delivery'],
    ['En reparto', 'out_for_delivery'],
    ['Delivered', 'delivered'],
    ['Entregado', 'delivered'],
    ['Returned', 'returned'],
    ['Devuelto al remitente', 'returned'],
    ['Exception', 'exception'],
    ['Novedad', 'exception'],
    ['Delivery failed', 'exception'],
    ['Not delivered', 'exception'],
    ['No entregado - dirección errada', 'exception'],
    ['Undelivered', 'exception'],
    ['Canceled', 'cancelled'],
    ['Cancelled', 'cancelled'],
    ['Something new', 'in_transit'],
  ] as const)('Envia status "%s" is %s', (text, status) => {
    expect(enviaStatus(text)).toBe(status)
  })
})

describe('cancel', () => {
  test('POSTs carrier and tracking number to /ship/cancel/', async () => {
    const envia = provider()
    const { trackingNumber } = await envia.createLabel(labelInput())
    await envia.cancel('servientrega', trackingNumber)
    expect(standIn().requests.at(-1)!).toMatchObject({
      path: '/ship/cancel/',
      body: { carrier: 'servientrega', trackingNumber },
    })
    expect(standIn().shipments.get(trackingNumber)!.status).toBe('Canceled')
    const [tracking] = await envia.track('servientrega', [trackingNumber])
    expect(tracking!.status).toBe('cancelled')
  })

  test('cancelling twice is not an error (a retried job)', async () => {
    const envia = provider()
    const { trackingNumber } = await envia.createLabel(labelInput())
    await envia.cancel('servientrega', trackingNumber)
    await expect(envia.cancel('servientrega', trackingNumber)).resolves.toBeUndefined()
  })

  test("a guía the carrier already has is CarrierRefused with Envia's reason", async () => {
    const envia = provider()
    const { trackingNumber } = await envia.createLabel(labelInput())
    standIn().advance(trackingNumber, 'Picked Up', 'Recogido')
    const error = await rejection(envia.cancel('servientrega', trackingNumber))
    expect(error).toBeInstanceOf(CarrierRefused)
    expect(error.message).toBe(
      'Envia no anuló la guía: The shipment cannot be cancelled: the carrier already has it.',
    )
  })
})

describe('the token', () => {
  test('a wrong token is CarrierRefused naming the token, and the token is in no message', async () => {
    const wrong = 'envia-wrong-token-0000'
    const error = await rejection(provider({ token: wrong }).createLabel(labelInput()))
    expect(error).toBeInstanceOf(CarrierRefused)
    expect(error.message).toMatch(/^Envia no generó la guía: Envia rechazó el token de acceso \(HTTP 401/)
    expect(error.message).toMatch(/Revise el token de Envia/)
    expect((error as CarrierRefused).details.status).toBe(401)
    expect(error.message).not.toContain(wrong)
    expect(standIn().requests[0]!.headers.authorization).toBe(`Bearer ${wrong}`)
  })

  test('a wrong token refuses the quote too (every carrier the same)', async () => {
    const error = await rejection(provider({ token: 'nope' }).quote(quoteInput()))
    expect(error).toBeInstanceOf(CarrierRefused)
    expect(error.message).toMatch(/^Envia no cotizó el envío: Envia rechazó el token/)
  })
})

describe('no answer: CarrierUnavailable', () => {
  test('a 500 is CarrierUnavailable, retryable, with the status', async () => {
    standIn().failNext(1, 500)
    const error = await rejection(provider().createLabel(labelInput()))
    expect(error).toBeInstanceOf(CarrierUnavailable)
    expect(error.message).toBe(
      'Envia no respondió al generar la guía: error del servidor (HTTP 500). Intente de nuevo en unos minutos.',
    )
    expect((error as CarrierUnavailable).retryable).toBe(true)
    expect((error as CarrierUnavailable).details).toEqual({ status: 500, mayHaveSucceeded: true })
  })

  test('a 502 page without JSON and a 429 are CarrierUnavailable', async () => {
    standIn().failNext(1, 502, '<html><body>Bad Gateway</body></html>')
    await expect(provider().track('servientrega', ['1'])).rejects.toBeInstanceOf(CarrierUnavailable)
    standIn().failNext(1, 429)
    const error = await rejection(provider().createLabel(labelInput()))
    expect(error).toBeInstanceOf(CarrierUnavailable)
    expect((error as CarrierUnavailable).details).toEqual({ status: 429, mayHaveSucceeded: false })
  })

  test('quotes: all carriers failing with 500 is CarrierUnavailable; one failing leaves the other', async () => {
    standIn().failNext(2, 500)
    await expect(provider().quote(quoteInput())).rejects.toBeInstanceOf(CarrierUnavailable)
    standIn().failNext(1, 503)
    expect(await provider().quote(quoteInput())).toHaveLength(1)
  })

  test('a server that never answers is CarrierUnavailable after timeoutMs', async () => {
    standIn().hang('headers')
    const started = Date.now()
    const error = await rejection(provider({ timeoutMs: 200 }).createLabel(labelInput()))
    expect(error).toBeInstanceOf(CarrierUnavailable)
    expect(error.message).toMatch(/se agotó el tiempo de espera \(0\.2 s\)/)
    expect((error as CarrierUnavailable).details.mayHaveSucceeded).toBe(true)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  test('a body that stalls half-way is CarrierUnavailable, never an empty quote list', async () => {
    standIn().hang('body')
    await expect(provider({ timeoutMs: 200 }).quote(quoteInput())).rejects.toBeInstanceOf(CarrierUnavailable)
  })

  test('connection refused is CarrierUnavailable that did not reach Envia', async () => {
    const error = await rejection(provider({ baseUrl: await refusedUrl() }).createLabel(labelInput()))
    expect(error).toBeInstanceOf(CarrierUnavailable)
    expect((error as CarrierUnavailable).details.mayHaveSucceeded).toBe(false)
  })

  test('a base URL with a trailing slash gives the same paths', async () => {
    await provider({ baseUrl: `${standIn().url}/` }).track('servientrega', ['1'])
    expect(standIn().requests[0]!.path).toBe('/ship/generaltrack/')
  })
})
