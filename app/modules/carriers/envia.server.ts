import { pesosToCentavos } from '#app/utils/money.ts'
import {
  CarrierRefused,
  CarrierUnavailable,
  type CarrierProvider,
  type Label,
  type LabelInput,
  type Parcel,
  type Quote,
  type QuoteInput,
  type ShipmentParty,
  type ShipmentStatus,
  type Tracking,
  type TrackingEvent,
} from './provider.ts'

/**
 * The Envia shipping API (docs.envia.com): one integration for quotes, guías, tracking and
 * cancellation across Colombian carriers.
 *
 * Base URLs (configuration, never hard-coded here): sandbox `https://api-test.envia.com`,
 * production `https://api.envia.com` (docs.envia.com/docs/quickstart, /docs/core-workflow).
 * Every call is `POST` with `Authorization: Bearer <token>` and a JSON body. The token is never
 * logged and never put in an error message.
 */
export type EnviaOptions = {
  baseUrl: string
  token: string
  /** Per request, body included. Default 15 s. */
  timeoutMs?: number
  fetch?: typeof fetch
  /**
   * Carriers asked for quotes. `/ship/rate/` quotes one carrier per request (docs.envia.com,
   * quickstart: "The rate endpoint supports one carrier per request"), so `quote` asks each one.
   */
  carriers?: readonly string[]
  /** Label size for `settings.printSize` (Envia's carrier print options). Default "STOCK_4X6". */
  printSize?: string
  /** What the parcel holds, as `packages[].content` on the guía. Default "Accesorios". */
  content?: string
}

/** Envia's carrier codes for Colombia we quote unless configured otherwise. */
export const ENVIA_DEFAULT_CARRIERS = ['coordinadora', 'servientrega'] as const

/**
 * Envia's 2-letter state code for each DANE department code. docs.envia.com/reference/locatecolombiacity
 * names the field ("2-letter Colombian department code (e.g. AT for Atlántico, CN for Cundinamarca)")
 * but lists no table: AT and CN are from the docs, the rest follow the codes Envia's state catalog
 * (queries.envia.com/state?country_code=CO) is reported to use. Check any change in the sandbox.
 */
export const ENVIA_STATE_BY_DANE_DEPARTMENT: Readonly<Record<string, string>> = {
  '05': 'AN', // Antioquia
  '08': 'AT', // Atlántico (docs)
  '11': 'DC', // Bogotá, D.C.
  '13': 'BL', // Bolívar
  '15': 'BY', // Boyacá
  '17': 'CL', // Caldas
  '18': 'CA', // Caquetá
  '19': 'CU', // Cauca
  '20': 'CE', // Cesar
  '23': 'CO', // Córdoba
  '25': 'CN', // Cundinamarca (docs)
  '27': 'CH', // Chocó
  '41': 'HU', // Huila
  '44': 'LG', // La Guajira
  '47': 'MA', // Magdalena
  '50': 'ME', // Meta
  '52': 'NA', // Nariño
  '54': 'NS', // Norte de Santander
  '63': 'QU', // Quindío
  '66': 'RI', // Risaralda
  '68': 'SN', // Santander
  '70': 'SU', // Sucre
  '73': 'TO', // Tolima
  '76': 'VC', // Valle del Cauca
  '81': 'AR', // Arauca
  '85': 'CS', // Casanare
  '86': 'PU', // Putumayo
  '88': 'SA', // San Andrés, Providencia y Santa Catalina
  '91': 'AM', // Amazonas
  '94': 'GU', // Guainía
  '95': 'GA', // Guaviare
  '97': 'VA', // Vaupés
  '99': 'VI', // Vichada
}

/**
 * Envia's city for a DANE municipality: Colombian carriers want "the DANE code in the city field …
 * not the human-readable city name", an "8-digit DANE municipal code" (docs.envia.com/reference/
 * locatecolombiacity). Eight digits are the municipality's 5 plus the centro poblado; "000" is its
 * cabecera (the town itself), which is where we deliver: 05001 → "05001000".
 */
export function enviaCity(municipalityCode: string): string {
  if (!/^\d{5}$/.test(municipalityCode)) {
    throw new CarrierRefused(
      `Código DANE de municipio inválido: "${municipalityCode}" (deben ser 5 dígitos).`,
      'invalid municipality code',
    )
  }
  return `${municipalityCode}000`
}

function enviaState(party: ShipmentParty): string {
  const state = ENVIA_STATE_BY_DANE_DEPARTMENT[party.departmentCode]
  if (!state) {
    throw new CarrierRefused(
      `Departamento DANE desconocido para Envia: "${party.departmentCode}" (${party.departmentName}).`,
      'unknown department code',
    )
  }
  return state
}

/** Pesos as Envia takes them; centavos kept as decimals (COP amounts are whole pesos in practice). */
const toPesos = (centavos: number) => Math.round(centavos) / 100

/**
 * An address as `/ship/rate/` and `/ship/generate/` take it (docs: name, phone, street, city,
 * state, country, postalCode). Colombia has no postal code in the order: Envia keys Colombian places
 * by DANE code, so `postalCode` carries the same 8-digit code as `city` (the docs are silent on what
 * else to send). `number` is empty: outside Mexico the house number is part of `street`.
 */
export function enviaAddress(party: ShipmentParty) {
  const city = enviaCity(party.municipalityCode)
  return {
    name: party.name,
    phone: party.phone,
    ...(party.email ? { email: party.email } : {}),
    street: party.street,
    number: '',
    city,
    state: enviaState(party),
    country: 'CO',
    postalCode: city,
    ...(party.identificationNumber ? { identificationNumber: party.identificationNumber } : {}),
  }
}

/**
 * One package (docs: type, content, amount, weight, weightUnit, lengthUnit, dimensions,
 * declaredValue, insurance). Cash on delivery is an additional service of the package:
 * `additionalServices: [{ service: "cash_on_delivery", data: { amount } }]` (docs.envia.com/docs/
 * additional-services: "a service identifier and optionally a data object"; COD is parcel-only).
 */
export function enviaPackage(parcel: Parcel, content: string, cashOnDeliveryAmount?: number) {
  return {
    type: 'box',
    content,
    amount: 1,
    weight: parcel.weightGrams / 1000,
    weightUnit: 'KG',
    lengthUnit: 'CM',
    dimensions: { length: parcel.lengthCm, width: parcel.widthCm, height: parcel.heightCm },
    declaredValue: toPesos(parcel.declaredValue),
    // Envia's own insurance is a paid extra: none; the declared value stays the carrier's liability.
    insurance: 0,
    ...(cashOnDeliveryAmount && cashOnDeliveryAmount > 0
      ? {
          additionalServices: [
            { service: 'cash_on_delivery', data: { amount: toPesos(cashOnDeliveryAmount) } },
          ],
        }
      : {}),
  }
}

/** `POST /ship/rate/` for one carrier (shipment.type 1: parcel). */
export function rateBody(input: QuoteInput, carrier: string, content = 'Accesorios') {
  return {
    origin: enviaAddress(input.origin),
    destination: enviaAddress(input.destination),
    packages: [enviaPackage(input.parcel, content, input.cashOnDeliveryAmount)],
    shipment: { type: 1, carrier },
    settings: { currency: 'COP' },
  }
}

/**
 * `POST /ship/generate/`. `shipment.orderReference` carries our order number (the field of Envia's
 * generate schema for it; the public docs page does not list it). `settings.printFormat` "PDF" and
 * `printSize` are required by generate.
 */
export function generateBody(input: LabelInput, printSize = 'STOCK_4X6', content = 'Accesorios') {
  return {
    origin: enviaAddress(input.origin),
    destination: enviaAddress(input.destination),
    packages: [enviaPackage(input.parcel, content, input.cashOnDeliveryAmount)],
    shipment: { type: 1, carrier: input.carrier, service: input.service, orderReference: input.reference },
    settings: { currency: 'COP', printFormat: 'PDF', printSize },
  }
}

type Operation = 'quote' | 'label' | 'track' | 'cancel'

/** "Envia no …" for a refusal, "… al …" for no answer. */
const REFUSED: Record<Operation, string> = {
  quote: 'Envia no cotizó el envío',
  label: 'Envia no generó la guía',
  track: 'Envia no dio el rastreo',
  cancel: 'Envia no anuló la guía',
}
const DOING: Record<Operation, string> = {
  quote: 'cotizar el envío',
  label: 'generar la guía',
  track: 'consultar el rastreo',
  cancel: 'anular la guía',
}
/** Operations that change something at Envia: a lost answer may hide a done deed. */
const MUTATING: Record<Operation, boolean> = { quote: false, label: true, track: false, cancel: true }

/** Envia's "already cancelled" error code on `/ship/cancel/` (not in the public docs: assumed). */
const ALREADY_CANCELLED_CODE = 1115

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function parseObject(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

/** Envia's error body `{ meta: "error", error: { code, description, message } }`. */
function enviaError(payload: Json | null): { message: string; code?: string | number } | null {
  if (!payload) return null
  const error = isObject(payload.error) ? payload.error : null
  const text = [error?.message, error?.description, payload.message].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  )
  const code = typeof error?.code === 'number' || typeof error?.code === 'string' ? error.code : undefined
  if (!text && payload.meta !== 'error') return null
  return { message: text ?? 'error sin descripción', ...(code === undefined ? {} : { code }) }
}

/** Why fetch gave no answer, in Spanish, and whether the request could have reached Envia. */
function networkFailure(error: unknown, timeoutMs: number) {
  const name = error instanceof Error ? error.name : ''
  if (name === 'TimeoutError' || name === 'AbortError') {
    return { reason: `se agotó el tiempo de espera (${timeoutMs / 1000} s)`, reached: true }
  }
  const cause = error instanceof Error && isObject(error.cause) ? error.cause : null
  const code = typeof cause?.code === 'string' ? cause.code : ''
  // Refused or unresolved: the request never left; anything else may have arrived.
  const reached = !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)
  const detail = code || (error instanceof Error ? error.message : String(error))
  return { reason: `sin conexión (${detail})`, reached }
}

const asNumber = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof number === 'number' && Number.isFinite(number) ? number : null
}
const asText = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : typeof value === 'number'
      ? String(value)
      : null

/**
 * Envia's (and the carriers') status words → ours. Envia reports English names ("Created",
 * "Picked Up", "Shipped", "Out for Delivery", "Delivered", "Canceled", "Returned", "Exception");
 * carriers' own Spanish words are mapped too. The full catalogue is not in the public docs: a word
 * we do not know is "in_transit", which changes nothing in the order and is polled again;
 * `statusText` keeps the original.
 */
export function enviaStatus(text: string): ShipmentStatus {
  const words = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[_-]+/g, ' ')
    .trim()
  if (/cancel|anulad/.test(words)) return 'cancelled'
  if (/return|devuel|devoluc|retorn/.test(words)) return 'returned'
  if (/out for delivery|en reparto|en distribucion|en ruta de entrega|en ruta/.test(words)) {
    return 'out_for_delivery'
  }
  // "Not delivered" / "No entregado" is a failed attempt, not a delivery.
  if (/\b(not|no|un)\s?(delivered|entregad)/.test(words)) return 'exception'
  if (/^(delivered|entregad)/.test(words)) return 'delivered'
  if (
    /exception|incident|novedad|lost|perdid|damaged|averia|failed|fallid|undeliverable|rechazad/.test(words)
  ) {
    return 'exception'
  }
  if (/picked up|pickup|recolectad|recogid|collected|admitid/.test(words)) return 'picked_up'
  if (/shipped|transit|transito|en camino|recibido en/.test(words)) return 'in_transit'
  if (/created|creado|creada|generad|information received|pending|pendiente/.test(words)) return 'created'
  return 'in_transit'
}

function toQuote(item: unknown, carrier: string): Quote | null {
  if (!isObject(item)) return null
  const total = asNumber(item.totalPrice)
  const service = asText(item.service)
  if (total === null || !service) return null
  // Asked in COP (settings.currency); anything else cannot be shown as pesos.
  if (typeof item.currency === 'string' && item.currency.toUpperCase() !== 'COP') {
    throw new CarrierRefused(
      `${REFUSED.quote}: Envia cotizó en ${item.currency}, no en pesos colombianos.`,
      `currency ${item.currency}`,
    )
  }
  const carrierName = asText(item.carrierDescription) ?? asText(item.carrier) ?? carrier
  const serviceName = asText(item.serviceDescription) ?? service
  // `deliveryDate.dateDifference` (+ `timeUnit`) is Envia's estimate; `deliveryEstimate` is text.
  const delivery = isObject(item.deliveryDate) ? item.deliveryDate : null
  const difference = asNumber(delivery?.dateDifference)
  const unit = typeof delivery?.timeUnit === 'string' ? delivery.timeUnit.toLowerCase() : 'days'
  const days = difference !== null && /day|dia/.test(unit) ? Math.max(0, Math.round(difference)) : undefined
  return {
    carrier: asText(item.carrier) ?? carrier,
    service,
    serviceName: serviceName.toLowerCase().includes(carrierName.toLowerCase())
      ? serviceName
      : `${carrierName} ${serviceName}`,
    price: pesosToCentavos(total),
    ...(days === undefined ? {} : { days }),
  }
}

function toEvents(history: unknown): TrackingEvent[] {
  if (!Array.isArray(history)) return []
  return history
    .flatMap((event): TrackingEvent[] => {
      if (!isObject(event)) return []
      const at = new Date(String(event.timestamp ?? event.date ?? ''))
      const description = asText(event.description) ?? asText(event.event)
      if (Number.isNaN(at.getTime()) || !description) return []
      const location = asText(event.location)
      return [{ at, description, ...(location ? { location } : {}) }]
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime())
}

function toTracking(item: unknown): Tracking | null {
  if (!isObject(item)) return null
  const trackingNumber = asText(item.trackingNumber)
  const statusText = asText(item.status)
  if (!trackingNumber || !statusText) return null
  return {
    trackingNumber,
    status: enviaStatus(statusText),
    statusText,
    events: toEvents(item.eventHistory),
  }
}

/** The Envia client: a CarrierProvider at a configurable base URL (tests use a local stand-in). */
export function enviaProvider(options: EnviaOptions): CarrierProvider {
  const doFetch = options.fetch ?? fetch
  const base = options.baseUrl.replace(/\/+$/, '')
  const timeoutMs = options.timeoutMs ?? 15_000
  const carriers = options.carriers ?? ENVIA_DEFAULT_CARRIERS
  const content = options.content ?? 'Accesorios'

  const unavailable = (operation: Operation, reason: string, status?: number, reached = true) =>
    new CarrierUnavailable(
      `Envia no respondió al ${DOING[operation]}: ${reason}. Intente de nuevo en unos minutos.`,
      {
        ...(status === undefined ? {} : { status }),
        mayHaveSucceeded: MUTATING[operation] && reached,
      },
    )

  /** One POST; the answer's JSON object, or the right error. */
  async function call(operation: Operation, path: string, body: unknown): Promise<Json> {
    let response: Response
    try {
      response = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${options.token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      const { reason, reached } = networkFailure(error, timeoutMs)
      throw unavailable(operation, reason, undefined, reached)
    }
    // The timeout covers the body: a body cut or stalled half-way is no answer.
    let text: string
    try {
      text = await response.text()
    } catch (error) {
      throw unavailable(operation, networkFailure(error, timeoutMs).reason, response.status)
    }
    const payload = parseObject(text)
    const status = response.status
    if (status === 401 || status === 403) {
      const said = enviaError(payload)?.message ?? `HTTP ${status}`
      throw new CarrierRefused(
        `${REFUSED[operation]}: Envia rechazó el token de acceso (HTTP ${status}: ${said}). Revise el token de Envia en la configuración; un token de pruebas solo sirve con api-test.envia.com y uno de producción con api.envia.com.`,
        said,
        { status },
      )
    }
    if (status === 429) throw unavailable(operation, 'demasiadas solicitudes (HTTP 429)', status, false)
    if (status >= 500) throw unavailable(operation, `error del servidor (HTTP ${status})`, status)
    const refusal = !response.ok || payload?.meta === 'error' ? enviaError(payload) : null
    if (!response.ok || refusal) {
      const said = refusal?.message ?? `HTTP ${status}`
      throw new CarrierRefused(`${REFUSED[operation]}: ${said}`, said, {
        status,
        ...(refusal?.code === undefined ? {} : { code: refusal.code }),
      })
    }
    if (!payload) throw unavailable(operation, `respuesta sin JSON (HTTP ${status})`, status)
    return payload
  }

  async function quoteCarrier(input: QuoteInput, carrier: string): Promise<Quote[]> {
    const payload = await call('quote', '/ship/rate/', rateBody(input, carrier, content))
    if (!Array.isArray(payload.data)) throw unavailable('quote', 'la respuesta no trae data')
    return payload.data.flatMap((item) => {
      const quote = toQuote(item, carrier)
      return quote ? [quote] : []
    })
  }

  return {
    name: 'envia',

    async quote(input) {
      // Address problems are ours to fix: refuse before asking anyone.
      rateBody(input, '', content)
      const results = await Promise.allSettled(carriers.map((carrier) => quoteCarrier(input, carrier)))
      const quotes = results.flatMap((result) => (result.status === 'fulfilled' ? result.value : []))
      const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
      // A carrier without coverage or without an answer leaves the others' quotes standing.
      if (quotes.length > 0 || failures.length === 0) {
        return quotes.sort((a, b) => a.price - b.price || (a.days ?? Infinity) - (b.days ?? Infinity))
      }
      throw failures.find((failure) => failure instanceof CarrierUnavailable) ?? failures[0]
    },

    async createLabel(input): Promise<Label> {
      const payload = await call('label', '/ship/generate/', generateBody(input, options.printSize, content))
      const item = Array.isArray(payload.data) && isObject(payload.data[0]) ? payload.data[0] : null
      const trackingNumber = asText(item?.trackingNumber)
      const labelUrl = asText(item?.label)
      const price = asNumber(item?.totalPrice)
      if (!item || !trackingNumber || !labelUrl || price === null) {
        // Envia answered 200: the guía may exist and be charged. Never buy it again blindly.
        throw unavailable('label', 'la respuesta no trae número de guía, etiqueta o precio')
      }
      return {
        carrier: asText(item.carrier) ?? input.carrier,
        service: asText(item.service) ?? input.service,
        trackingNumber,
        labelUrl,
        trackingUrl: asText(item.trackUrl) ?? '',
        price: pesosToCentavos(price),
        providerShipmentId: asText(item.shipmentId) ?? trackingNumber,
      }
    },

    // `/ship/generaltrack/` takes only `trackingNumbers` (it finds each one's carrier itself): the
    // carrier argument is part of our interface for providers that need it, unused here.
    async track(_carrier, trackingNumbers) {
      if (trackingNumbers.length === 0) return []
      const payload = await call('track', '/ship/generaltrack/', { trackingNumbers })
      if (!Array.isArray(payload.data)) throw unavailable('track', 'la respuesta no trae data')
      const asked = new Set(trackingNumbers)
      return payload.data.flatMap((item) => {
        const tracking = toTracking(item)
        return tracking && asked.has(tracking.trackingNumber) ? [tracking] : []
      })
    },

    async cancel(carrier, trackingNumber) {
      try {
        await call('cancel', '/ship/cancel/', { carrier, trackingNumber })
      } catch (error) {
        // Already cancelled is what we wanted: a retried cancellation must not fail.
        if (error instanceof CarrierRefused && Number(error.details.code) === ALREADY_CANCELLED_CODE) return
        throw error
      }
    },
  }
}
