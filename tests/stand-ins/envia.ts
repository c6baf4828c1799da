import type { ServerResponse } from 'node:http'
import { bearerToken, listen, sendJson, type RecordedRequest } from './http.ts'

/**
 * A local Envia for adapter tests: `POST /ship/rate/`, `/ship/generate/`, `/ship/generaltrack/` and
 * `/ship/cancel/` with the shapes of the real API (docs.envia.com; response shapes as Envia's own
 * client code records them), Bearer auth, Envia's error JSON `{ meta: "error", error: { code,
 * description, message } }`, the label PDF at `GET /labels/{trackingNumber}.pdf`, a shipment the
 * test moves through its states, and switches to fail or hang.
 */

export const STAND_IN_ENVIA_TOKEN = 'envia-sandbox-standin-0123456789abcdef0123456789abcdef'

/** Colombian places the stand-in covers: 8-digit DANE city → Envia state code. */
export const STAND_IN_CITIES: Readonly<Record<string, string>> = {
  '05001000': 'AN', // Medellín
  '11001000': 'DC', // Bogotá D.C.
  '76001000': 'VC', // Cali
  '08001000': 'AT', // Barranquilla
}

/** Carriers and their price in pesos for a 1 kg parcel; each extra kg adds 20 %. */
export const STAND_IN_CARRIERS: Readonly<
  Record<
    string,
    { description: string; service: string; serviceDescription: string; pesos: number; days: number }
  >
> = {
  coordinadora: {
    description: 'Coordinadora',
    service: 'ground',
    serviceDescription: 'Terrestre',
    pesos: 15900,
    days: 3,
  },
  servientrega: {
    description: 'Servientrega',
    service: 'ground',
    serviceDescription: 'Mercancía Premier',
    pesos: 12450.5,
    days: 2,
  },
}

/** Cash-on-delivery commission: 3 % of the amount collected, at least 3.000 pesos. */
const codCommission = (amount: number) => Math.max(3000, Math.round(amount * 0.03))

export type EnviaErrorBody = { meta: 'error'; error: { code: number; description: string; message: string } }

export function enviaError(code: number, description: string, message: string): EnviaErrorBody {
  return { meta: 'error', error: { code, description, message } }
}

/** Envia's status names, in the order a parcel lives them. */
export type StandInStatus =
  | 'Created'
  | 'Picked Up'
  | 'Shipped'
  | 'Out for Delivery'
  | 'Delivered'
  | 'Returned'
  | 'Exception'
  | 'Canceled'

type StandInShipment = {
  shipmentId: number
  carrier: string
  service: string
  trackingNumber: string
  status: StandInStatus
  createdAt: string
  events: { timestamp: string; location: string; description: string }[]
  cashOnDelivery: boolean
  request: Record<string, unknown>
}

type Failure = { status: number; body?: unknown }

export type EnviaStandIn = Awaited<ReturnType<typeof startEnviaStandIn>>

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''
const isPositive = (value: unknown): value is number => typeof value === 'number' && value > 0

/** The checks Envia makes on an address; null when it passes. */
function addressProblem(address: unknown, side: string, full: boolean): EnviaErrorBody | null {
  if (!isObject(address)) return enviaError(1129, 'Required field', `The ${side} address is required.`)
  const required = full
    ? ['name', 'phone', 'street', 'city', 'state', 'country', 'postalCode']
    : ['city', 'state', 'country']
  for (const field of required) {
    if (!isText(address[field])) {
      return enviaError(1129, 'Required field', `The field ${side}.${field} is required.`)
    }
  }
  if (address.country !== 'CO') {
    return enviaError(
      1125,
      'Invalid Option',
      `The ${side} country ${String(address.country)} is not available.`,
    )
  }
  const state = STAND_IN_CITIES[String(address.city)]
  if (!state) {
    return enviaError(
      1125,
      'Invalid Option',
      `The ${side} city ${String(address.city)} was not found for country CO. Use the DANE code of the city.`,
    )
  }
  if (address.state !== state) {
    return enviaError(
      1125,
      'Invalid Option',
      `The ${side} state ${String(address.state)} does not match the city.`,
    )
  }
  return null
}

function packageProblem(packages: unknown): EnviaErrorBody | null {
  if (!Array.isArray(packages) || packages.length === 0) {
    return enviaError(1129, 'Required field', 'At least one package is required.')
  }
  for (const item of packages as unknown[]) {
    if (!isObject(item)) return enviaError(1129, 'Required field', 'Invalid package.')
    if (!isText(item.content) || !isText(item.type) || !isPositive(item.amount) || !isPositive(item.weight)) {
      return enviaError(1129, 'Required field', 'The package content, type, amount and weight are required.')
    }
    const dimensions = item.dimensions
    if (
      !isObject(dimensions) ||
      !isPositive(dimensions.length) ||
      !isPositive(dimensions.width) ||
      !isPositive(dimensions.height)
    ) {
      return enviaError(1129, 'Required field', 'The package dimensions are required.')
    }
    if (item.weightUnit !== 'KG' || item.lengthUnit !== 'CM') {
      return enviaError(1125, 'Invalid Option', 'Units must be KG and CM.')
    }
    if (item.additionalServices !== undefined) {
      if (!Array.isArray(item.additionalServices)) {
        return enviaError(1125, 'Invalid Option', 'additionalServices must be an array.')
      }
      for (const service of item.additionalServices as unknown[]) {
        if (!isObject(service) || !isText(service.service)) {
          return enviaError(1125, 'Invalid Option', 'Each additional service needs its service name.')
        }
        if (
          service.service === 'cash_on_delivery' &&
          !(isObject(service.data) && isPositive(service.data.amount))
        ) {
          return enviaError(1125, 'Invalid Option', 'cash_on_delivery needs data.amount.')
        }
      }
    }
  }
  return null
}

/** The cash-on-delivery amount of the first package, in pesos (0 when none). */
function cashOnDeliveryOf(body: Record<string, unknown>): number {
  const first = Array.isArray(body.packages) ? (body.packages[0] as Record<string, unknown>) : undefined
  const services = Array.isArray(first?.additionalServices)
    ? (first.additionalServices as Record<string, unknown>[])
    : []
  const cod = services.find((service) => service.service === 'cash_on_delivery')
  return cod && isObject(cod.data) && typeof cod.data.amount === 'number' ? cod.data.amount : 0
}

function weightOf(body: Record<string, unknown>): number {
  const first = (body.packages as Record<string, unknown>[])[0]!
  return Number(first.weight) * Number(first.amount)
}

export async function startEnviaStandIn(options: { token?: string } = {}) {
  const token = options.token ?? STAND_IN_ENVIA_TOKEN
  const requests: RecordedRequest[] = []
  const shipments = new Map<string, StandInShipment>()
  const failures: Failure[] = []
  const mode = { hang: null as null | 'headers' | 'body', errorWith200: false }
  let nextShipmentId = 880001
  let nextTracking = 36000000001
  let origin = ''

  /** Envia refuses with 400 (or, switched, a 200 carrying meta "error"). */
  const refuse = (response: ServerResponse, body: EnviaErrorBody) =>
    sendJson(response, mode.errorWith200 ? 200 : 400, body)

  function rateFor(carrier: string, body: Record<string, unknown>) {
    const offer = STAND_IN_CARRIERS[carrier]!
    const base = Math.round(offer.pesos * (1 + 0.2 * Math.max(0, Math.ceil(weightOf(body)) - 1)) * 100) / 100
    const cod = cashOnDeliveryOf(body)
    const commission = cod > 0 ? codCommission(cod) : 0
    const delivery = new Date(Date.now() + offer.days * 86_400_000).toISOString().slice(0, 10)
    return {
      carrierId: carrier === 'coordinadora' ? 151 : 152,
      carrier,
      carrierDescription: offer.description,
      serviceId: carrier === 'coordinadora' ? 1201 : 1301,
      service: offer.service,
      serviceDescription: offer.serviceDescription,
      dropOff: 0,
      zone: 1,
      deliveryEstimate: `${offer.days} días`,
      deliveryDate: { date: delivery, dateDifference: offer.days, timeUnit: 'days', time: '' },
      quantity: 1,
      basePrice: base,
      insurance: 0,
      additionalServices: commission,
      taxes: 0,
      totalPrice: Math.round((base + commission) * 100) / 100,
      currency: 'COP',
      customKey: false,
      cashOnDeliveryCommission: commission,
      cashOnDeliveryAmount: cod,
    }
  }

  function validShipmentRequest(body: unknown, full: boolean): EnviaErrorBody | Record<string, unknown> {
    if (!isObject(body)) return enviaError(1129, 'Required field', 'Invalid JSON body.')
    const problem =
      addressProblem(body.origin, 'origin', full) ??
      addressProblem(body.destination, 'destination', full) ??
      packageProblem(body.packages)
    if (problem) return problem
    const shipment = body.shipment
    if (!isObject(shipment) || shipment.type !== 1 || !isText(shipment.carrier)) {
      return enviaError(1129, 'Required field', 'The shipment type and carrier are required.')
    }
    if (!STAND_IN_CARRIERS[shipment.carrier]) {
      return enviaError(1125, 'Invalid Option', `The carrier ${shipment.carrier} is not available for CO.`)
    }
    return body
  }

  function rate(body: unknown, response: ServerResponse) {
    const checked = validShipmentRequest(body, false)
    if (checked.meta === 'error') return refuse(response, checked as EnviaErrorBody)
    const request = checked as Record<string, unknown>
    const shipment = request.shipment as Record<string, unknown>
    if (!isObject(request.settings) || request.settings.currency !== 'COP') {
      return refuse(response, enviaError(1125, 'Invalid Option', 'settings.currency must be COP for CO.'))
    }
    return sendJson(response, 200, { meta: 'rate', data: [rateFor(String(shipment.carrier), request)] })
  }

  function generate(body: unknown, response: ServerResponse) {
    const checked = validShipmentRequest(body, true)
    if (checked.meta === 'error') return refuse(response, checked as EnviaErrorBody)
    const request = checked as Record<string, unknown>
    const shipment = request.shipment as Record<string, unknown>
    const carrier = String(shipment.carrier)
    if (shipment.service !== STAND_IN_CARRIERS[carrier]!.service) {
      return refuse(
        response,
        enviaError(1125, 'Invalid Option', `The service ${String(shipment.service)} is not available.`),
      )
    }
    const settings = request.settings
    if (!isObject(settings) || settings.printFormat !== 'PDF' || !isText(settings.printSize)) {
      return refuse(
        response,
        enviaError(1129, 'Required field', 'settings.printFormat and printSize are required.'),
      )
    }
    const trackingNumber = String(nextTracking++)
    const createdAt = new Date().toISOString()
    const rated = rateFor(carrier, request)
    shipments.set(trackingNumber, {
      shipmentId: nextShipmentId++,
      carrier,
      service: String(shipment.service),
      trackingNumber,
      status: 'Created',
      createdAt,
      events: [],
      cashOnDelivery: cashOnDeliveryOf(request) > 0,
      request,
    })
    return sendJson(response, 200, {
      meta: 'generate',
      data: [
        {
          carrier,
          service: String(shipment.service),
          shipmentId: shipments.get(trackingNumber)!.shipmentId,
          trackingNumber,
          trackingNumbers: [trackingNumber],
          trackUrl: `https://envia.com/es-CO/rastreo?label=${trackingNumber}`,
          label: `${origin}/labels/${trackingNumber}.pdf`,
          additionalFiles: [],
          totalPrice: rated.totalPrice,
          currentBalance: 500000,
          currency: 'COP',
        },
      ],
    })
  }

  function generaltrack(body: unknown, response: ServerResponse) {
    if (!isObject(body) || !Array.isArray(body.trackingNumbers) || body.trackingNumbers.length === 0) {
      return refuse(response, enviaError(1129, 'Required field', 'trackingNumbers is required.'))
    }
    const found = (body.trackingNumbers as unknown[]).flatMap((number) => {
      const shipment = shipments.get(String(number))
      return shipment ? [shipment] : []
    })
    // Unknown numbers are left out of data (what Envia does with them is not documented).
    return sendJson(response, 200, {
      meta: 'generaltrack',
      data: found.map((shipment) => ({
        company: 'Vitrina',
        carrier: shipment.carrier,
        carrierDescription: STAND_IN_CARRIERS[shipment.carrier]!.description,
        service: shipment.service,
        country: 'CO',
        shipmentId: shipment.shipmentId,
        trackingNumber: shipment.trackingNumber,
        folio: null,
        cashOnDelivery: shipment.cashOnDelivery,
        trackUrl: `https://envia.com/es-CO/rastreo?label=${shipment.trackingNumber}`,
        status: shipment.status,
        estimatedDelivery: null,
        deliveredAt: shipment.status === 'Delivered' ? (shipment.events.at(-1)?.timestamp ?? null) : null,
        signedBy: null,
        createdAt: shipment.createdAt,
        // Envia sends the history newest first.
        eventHistory: [...shipment.events].reverse(),
      })),
    })
  }

  function cancel(body: unknown, response: ServerResponse) {
    if (!isObject(body) || !isText(body.carrier) || !isText(body.trackingNumber)) {
      return refuse(response, enviaError(1129, 'Required field', 'carrier and trackingNumber are required.'))
    }
    const shipment = shipments.get(body.trackingNumber)
    if (!shipment || shipment.carrier !== body.carrier) {
      return refuse(response, enviaError(1105, 'Not found', 'The shipment does not exist.'))
    }
    if (shipment.status === 'Canceled') {
      return refuse(response, enviaError(1115, 'Already cancelled', 'The shipment was already cancelled.'))
    }
    if (shipment.status !== 'Created') {
      return refuse(
        response,
        enviaError(1140, 'Invalid Option', 'The shipment cannot be cancelled: the carrier already has it.'),
      )
    }
    shipment.status = 'Canceled'
    return sendJson(response, 200, {
      meta: 'cancel',
      data: {
        carrier: shipment.carrier,
        service: shipment.service,
        trackingNumber: shipment.trackingNumber,
        balanceReturned: true,
        balanceReturnDate: new Date().toISOString(),
      },
    })
  }

  const server = await listen(requests, (request, response) => {
    const failure = failures.shift()
    if (failure) {
      if (typeof failure.body === 'string') {
        response.writeHead(failure.status, { 'Content-Type': 'text/html' })
        return response.end(failure.body)
      }
      return sendJson(
        response,
        failure.status,
        failure.body ??
          enviaError(failure.status, 'Error', failure.status >= 500 ? 'Internal Server Error' : 'Error'),
      )
    }
    if (mode.hang === 'headers') return // never answers
    if (mode.hang === 'body') {
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.write('{"meta":"rate","data":[') // and stalls
      return
    }
    const label = /^\/labels\/(\d+)\.pdf$/.exec(request.path)
    if (request.method === 'GET' && label) {
      if (!shipments.has(label[1]!))
        return sendJson(response, 404, enviaError(404, 'Not found', 'Label not found.'))
      const pdf = Buffer.from(
        `%PDF-1.4\n1 0 obj <<>> endobj\n% Guia ${label[1]}\ntrailer <<>>\n%%EOF\n`,
        'latin1',
      )
      response.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': pdf.length })
      return response.end(pdf)
    }
    if (bearerToken(request.headers) !== token) {
      // Envia's 401 keeps its error shape (code 401).
      return sendJson(response, 401, enviaError(401, 'Unauthorized', 'Invalid or expired token.'))
    }
    if (request.method !== 'POST') {
      return sendJson(response, 405, enviaError(405, 'Method Not Allowed', 'Method not allowed.'))
    }
    if (!/^application\/json/.test(request.headers['content-type'] ?? '')) {
      return refuse(response, enviaError(1129, 'Required field', 'The body must be JSON.'))
    }
    if (request.path === '/ship/rate/') return rate(request.body, response)
    if (request.path === '/ship/generate/') return generate(request.body, response)
    if (request.path === '/ship/generaltrack/') return generaltrack(request.body, response)
    if (request.path === '/ship/cancel/') return cancel(request.body, response)
    return sendJson(response, 404, enviaError(404, 'Not found', `Route ${request.path} not found.`))
  })
  origin = server.origin

  return {
    url: server.origin,
    token,
    /** Every request received, in order. */
    requests,
    /** Shipments generated, by tracking number. */
    shipments,
    /** Moves a shipment to `status`, adding the carrier's event (newest last here). */
    advance(trackingNumber: string, status: StandInStatus, description: string, location = '') {
      const shipment = shipments.get(trackingNumber)
      if (!shipment) throw new Error(`No shipment ${trackingNumber} in the Envia stand-in`)
      shipment.status = status
      // Now, as a carrier reports it, and always after the previous event.
      const last = shipment.events.at(-1)
      const at = new Date(Math.max(Date.now(), last ? Date.parse(last.timestamp) + 1 : 0))
      shipment.events.push({ timestamp: at.toISOString(), location, description })
    },
    /** The next `count` requests answer `status` with Envia's error JSON, or `body` (a string goes as text). */
    failNext(count: number, status: number, body?: unknown) {
      for (let i = 0; i < count; i++) failures.push({ status, body })
    },
    /** 'headers': never answers; 'body': sends 200 and half a JSON body, then stalls; null: normal. */
    hang(how: 'headers' | 'body' | null = 'headers') {
      mode.hang = how
    },
    /** Refusals come as HTTP 200 with `meta: "error"` instead of 400. */
    refuseWith200(on = true) {
      mode.errorWith200 = on
    },
    /** Forgets requests, shipments and switches (between tests). */
    reset() {
      requests.length = 0
      failures.length = 0
      shipments.clear()
      mode.hang = null
      mode.errorWith200 = false
    },
    stop: server.close,
  }
}
