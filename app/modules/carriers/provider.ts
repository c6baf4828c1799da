/**
 * What the shop needs from a shipping provider (Envia first): quotes, labels (guías), tracking and
 * cancellation, in our own terms. Money is integer centavos; places are DANE DIVIPOLA codes.
 */

/** Sender or recipient of a shipment. */
export type ShipmentParty = {
  name: string
  /** 10-digit Colombian mobile or landline (integrations.md, "Colombian addresses and phones"). */
  phone: string
  email?: string
  street: string
  /** DANE municipality code, 5 digits ("05001" Medellín, "11001" Bogotá D.C.). */
  municipalityCode: string
  municipalityName: string
  /** DANE department code, 2 digits ("05" Antioquia, "11" Bogotá D.C.). */
  departmentCode: string
  departmentName: string
  /** Cédula or NIT, digits only; Colombian carriers ask for it on the guía. */
  identificationNumber?: string
}

/** One box. */
export type Parcel = {
  weightGrams: number
  lengthCm: number
  widthCm: number
  heightCm: number
  /** Centavos: the value declared to the carrier (its insurance and liability). */
  declaredValue: number
}

export type QuoteInput = {
  origin: ShipmentParty
  destination: ShipmentParty
  parcel: Parcel
  /** Centavos the carrier collects from the recipient (contra entrega); absent or 0: none. */
  cashOnDeliveryAmount?: number
}

export type Quote = {
  /** The provider's carrier code, e.g. "coordinadora", "servientrega". */
  carrier: string
  /** The provider's service code, e.g. "ground". */
  service: string
  /** A name to show, e.g. "Coordinadora Terrestre". */
  serviceName: string
  /** Centavos, everything included (cash-on-delivery commission too, when asked for). */
  price: number
  /** Estimated days to deliver, when the carrier says. */
  days?: number
}

export type LabelInput = QuoteInput & {
  carrier: string
  service: string
  /** Our order number, printed on the guía and sent as the shipment's reference. */
  reference: string
}

export type Label = {
  carrier: string
  service: string
  trackingNumber: string
  /** The carrier's PDF. */
  labelUrl: string
  /** Public tracking page for the shopper. */
  trackingUrl: string
  /** Centavos charged for the guía. */
  price: number
  /** The provider's own id of the shipment. */
  providerShipmentId: string
}

export const SHIPMENT_STATUSES = [
  'created',
  'picked_up',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'returned',
  'exception',
  'cancelled',
] as const
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number]

export type TrackingEvent = { at: Date; description: string; location?: string }

export type Tracking = {
  trackingNumber: string
  status: ShipmentStatus
  /** The carrier's (or provider's) own words for the status, as sent. */
  statusText: string
  /** Oldest first. */
  events: TrackingEvent[]
}

export interface CarrierProvider {
  readonly name: 'envia'
  /** Every service the configured carriers offer for this parcel, cheapest first. */
  quote(input: QuoteInput): Promise<Quote[]>
  /** Buys the guía: the provider charges for it. */
  createLabel(input: LabelInput): Promise<Label>
  /** The shipments the provider knows among these tracking numbers (unknown ones are left out). */
  track(carrier: string, trackingNumbers: string[]): Promise<Tracking[]>
  /** Voids an unused guía; cancelling one already cancelled is not an error. */
  cancel(carrier: string, trackingNumber: string): Promise<void>
}

/**
 * The provider answered and said no (bad address, no coverage, wrong token, no balance…). Asking
 * again with the same data gets the same answer: not retryable. `message` is the Spanish summary
 * for the owner ("Envia no generó la guía: …"); `providerMessage` is the provider's own text.
 */
export class CarrierRefused extends Error {
  readonly retryable = false
  constructor(
    message: string,
    readonly providerMessage: string,
    readonly details: { status?: number; code?: string | number } = {},
  ) {
    super(message)
    this.name = 'CarrierRefused'
  }
}

/**
 * No usable answer: network error, timeout, 5xx, 429. Worth retrying later. `mayHaveSucceeded`
 * is true when the request reached the provider and could have taken effect (a guía bought, a
 * cancellation done) before the answer was lost: check before buying the same guía again.
 */
export class CarrierUnavailable extends Error {
  readonly retryable = true
  constructor(
    message: string,
    readonly details: { status?: number; mayHaveSucceeded?: boolean } = {},
  ) {
    super(message)
    this.name = 'CarrierUnavailable'
  }
}
