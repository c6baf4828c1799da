import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#app/db/client.server.ts'
import type { JobQueue } from '#app/jobs/jobs.server.ts'
import { completeOrder } from '#app/modules/order/complete.server.ts'
import {
  getOrder,
  lockOrder,
  recordOrderEvent,
  type OrderWithItems,
} from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { shipLockedOrder } from '#app/modules/order/ship.server.ts'
import { canTransition } from '#app/modules/order/status.ts'
import { readCarrierSettings, type CarrierSettings } from '#app/modules/settings/settings.server.ts'
import { CARRIER_NAMES } from '#app/modules/settings/validators.ts'
import type { Env } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { SHIPMENT_MESSAGES, SHIPMENT_STATUS_LABELS } from './messages.ts'
import { parcelOfLines } from './parcel.server.ts'
import { identificationDigits, originParty, placeParty } from './parties.server.ts'
import {
  CarrierRefused,
  CarrierUnavailable,
  type CarrierProvider,
  type Label,
  type Quote,
  type QuoteInput,
  type ShipmentParty,
  type ShipmentStatus,
  type Tracking,
} from './provider.ts'
import { shipments, type ShipmentRow, type StoredTrackingEvent } from './schema.ts'

/** What the guía jobs work with: the database, the queue, the provider (null: not configured). */
export type ShipmentDeps = {
  db: DbOrTx
  jobs: JobQueue
  carriers: CarrierProvider | null
  env: Env
  /** Fetches the label PDF (tests pass the stand-in's); default `fetch`. */
  fetch?: typeof fetch
}

/** Who the timeline says did what the jobs do on their own. */
const CARRIER_ACTOR = 'transportadora'

/** States after which the carrier has nothing more to say. */
const FINAL_STATES: readonly ShipmentStatus[] = ['delivered', 'returned', 'cancelled']
/** States the tracking job asks about. */
const TRACKED_STATES = ['created', 'picked_up', 'in_transit', 'out_for_delivery', 'exception'] as const

export const SHIPMENT_EVENTS = {
  requested: 'Guía solicitada a la transportadora.',
  skipped: 'Guía omitida: la transportadora no está configurada (ENVIA_TOKEN).',
  noOrigin:
    'Falta la dirección de recogida (calle, municipio y teléfono) en Configuraciones › Envíos con transportadora.',
  notShippable: 'El pedido ya no está pendiente de envío: no se generó la guía.',
  noQuote: 'Ninguna transportadora cotizó este envío: revisa la dirección y el municipio del pedido.',
  noQuoteFromCarrier: (carrier: string) =>
    `${carrier} no cotizó este envío; elige otra transportadora o «la más barata» en Configuraciones.`,
  refused: (reason: string) => `No se generó la guía. ${reason}`,
  mayHaveBought: (reason: string) =>
    `${reason} Puede que la guía sí se haya generado: revísala en tu cuenta de Envia antes de generar otra.`,
  retrying: (reason: string) => `${reason} Se reintenta sola.`,
  bought: (trackingNumber: string, carrier: string, price: number) =>
    `Guía ${trackingNumber} generada con ${carrier} (${formatCOP(price)}).`,
  boughtNotShipped: (trackingNumber: string, reason: string) =>
    `La guía ${trackingNumber} se generó, pero el pedido no se marcó enviado: ${reason}`,
  labelNotKept: (reason: string) =>
    `No se pudo guardar la etiqueta en PDF (${reason}); «Imprimir guía» la abre desde la transportadora.`,
  tracking: (carrier: string, description: string, location?: string) =>
    `${carrier}: ${description}${location ? ` (${location})` : ''}.`,
  delivered: (carrier: string) => `${carrier} entregó el pedido.`,
  trackRequested: 'Seguimiento pedido a la transportadora.',
  trackSkipped: 'Seguimiento omitido: la transportadora no está configurada (ENVIA_TOKEN).',
} as const

/** A carrier's name as the owner and the buyer read it ("Servientrega"), from its code. */
export function carrierName(code: string | null | undefined): string {
  if (!code) return 'La transportadora'
  return CARRIER_NAMES[code as keyof typeof CARRIER_NAMES] ?? code.charAt(0).toUpperCase() + code.slice(1)
}

const refused = (message: string, status: number) => new Refusal(message, { status, standsAlone: true })

/**
 * A shipment as the jobs and the desk read it: every column but the label's bytes (only "Imprimir
 * guía" reads those), with whether it has them.
 */
export type ShipmentState = Omit<ShipmentRow, 'labelPdf'> & { hasLabelPdf: boolean }

const { labelPdf: _labelBytes, ...shipmentStateColumns } = getTableColumns(shipments)
const SHIPMENT_STATE = {
  ...shipmentStateColumns,
  hasLabelPdf: sql<boolean>`${shipments.labelPdf} is not null`,
}

export async function shipmentOf(db: DbOrTx, orderId: string): Promise<ShipmentState | null> {
  const [row] = await db.select(SHIPMENT_STATE).from(shipments).where(eq(shipments.orderId, orderId))
  return row ?? null
}

type ShipmentWrite = Partial<Omit<typeof shipments.$inferInsert, 'id' | 'orderId' | 'createdAt'>>

async function updateShipment(db: DbOrTx, orderId: string, values: ShipmentWrite) {
  await db
    .update(shipments)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(shipments.orderId, orderId))
}

/**
 * How long a guía may stay `requested` or `retrying` without news before it counts as given up: the
 * `shipment-label` queue retries 6 times with backoff from 30 s (about half an hour in all, each
 * retry rewriting the row), then dead-letters the job and nothing buys the guía any more.
 */
export const ABANDONED_AFTER_MS = 60 * 60_000

/** A guía being bought whose job has not touched it for longer than the queue keeps trying. */
const abandoned = (row: ShipmentState, now = Date.now()) =>
  (row.status === 'requested' || row.status === 'retrying') &&
  now - row.updatedAt.getTime() > ABANDONED_AFTER_MS

/**
 * A guía that can be asked for (again): none yet, the last attempt failed or was skipped, or the
 * queue gave up on it.
 */
const canRequest = (row: ShipmentState | null) =>
  !row || row.status === 'failed' || row.status === 'skipped' || abandoned(row)

/**
 * "Generar guía": checks the order can ship (open, not shipped, units held, its municipality known)
 * and queues the `shipment-label` job in one transaction with a `requested` row and a timeline note.
 */
export async function requestShipmentLabel(
  deps: Pick<ShipmentDeps, 'db' | 'jobs' | 'carriers'>,
  orderId: string,
  by: string,
) {
  if (!deps.carriers) throw refused(SHIPMENT_MESSAGES.notConfigured, 409)
  await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) throw refused(SHIPMENT_MESSAGES.notFound, 404)
    if (order.status === 'cancelado' || order.status === 'Completado')
      throw refused(SHIPMENT_MESSAGES.closed, 409)
    if (order.shippedAt) throw refused(SHIPMENT_MESSAGES.alreadyShipped, 409)
    if (!order.reservationHeld) throw refused(SHIPMENT_MESSAGES.nothingHeld, 409)
    if (!order.customerMunicipalityCode) throw refused(SHIPMENT_MESSAGES.noMunicipality, 409)
    const existing = await shipmentOf(tx, orderId)
    if (!canRequest(existing)) {
      const inProgress = existing!.status === 'requested' || existing!.status === 'retrying'
      throw refused(inProgress ? SHIPMENT_MESSAGES.inProgress : SHIPMENT_MESSAGES.alreadyBought, 409)
    }
    const fresh = {
      status: 'requested' as const,
      provider: deps.carriers!.name,
      carrier: null,
      service: null,
      serviceName: null,
      trackingNumber: null,
      trackingUrl: null,
      labelUrl: null,
      labelPdf: null,
      providerShipmentId: null,
      price: null,
      cashOnDeliveryAmount: 0,
      statusText: null,
      events: [],
      providerMessage: null,
      requestedBy: by,
      lastTrackedAt: null,
      deliveredAt: null,
      updatedAt: new Date(),
    }
    await tx
      .insert(shipments)
      .values({ orderId, ...fresh })
      .onConflictDoUpdate({ target: shipments.orderId, set: fresh })
    await recordOrderEvent(tx, orderId, 'shipment-requested', SHIPMENT_EVENTS.requested, undefined, by)
    await deps.jobs.send(tx, 'shipment-label', { orderId, by })
  })
}

/** The buyer as the guía's recipient. */
function recipientOf(order: OrderWithItems, municipalityCode: string): ShipmentParty | null {
  const place = placeParty(municipalityCode)
  if (!place) return null
  const identification = identificationDigits(order.customerIdentificationNumber)
  return {
    name: [order.customerName, order.customerLastName]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' '),
    phone: order.customerPhone.replace(/\D/g, '').replace(/^57(?=\d{10}$)/, ''),
    ...(order.customerEmail.trim() ? { email: order.customerEmail.trim() } : {}),
    street: order.customerAddress,
    ...place,
    ...(identification ? { identificationNumber: identification } : {}),
  }
}

/** The quote the guía is bought at: the chosen carrier's cheapest service, or the cheapest of all. */
export function chosenQuote(quotes: readonly Quote[], setting: CarrierSettings['quotes']): Quote | null {
  const wanted =
    setting === 'flat' || setting === 'cheapest' ? quotes : quotes.filter((q) => q.carrier === setting)
  return [...wanted].sort((a, b) => a.price - b.price)[0] ?? null
}

/** The carrier's PDF, fetched once so printing never depends on its link staying up. */
async function fetchLabelPdf(doFetch: typeof fetch, url: string): Promise<Buffer> {
  const response = await doFetch(url, { signal: AbortSignal.timeout(15_000) })
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  const bytes = Buffer.from(await response.arrayBuffer())
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('la respuesta no es un PDF')
  return bytes
}

export type LabelOutcome = 'bought' | 'not-requested' | 'skipped' | 'failed' | 'unknown-order'

/** A guía not bought: its row and the timeline say why, in the owner's words. */
async function keepFailed(db: DbOrTx, orderId: string, message: string, data?: Record<string, unknown>) {
  await updateShipment(db, orderId, { status: 'failed', providerMessage: message })
  await recordOrderEvent(db, orderId, 'shipment-failed', message, data)
  return 'failed' as const
}

/**
 * Job `shipment-label`: buys the guía of a requested shipment: quotes the order's box (cash on
 * delivery collecting the order's total when it is unpaid cash on delivery), buys the chosen
 * carrier's service, keeps its label PDF, and marks the order shipped through the order module (its
 * reservation becomes exits in the ledger). A refusal is kept as `failed` with the provider's
 * reason, never retried; no answer while quoting is retried by the queue; no answer while buying
 * is `failed` too, since the guía may exist (Envia cannot be asked by our reference).
 */
export async function buyShipmentLabel(deps: ShipmentDeps, job: { orderId: string }): Promise<LabelOutcome> {
  const { db, carriers } = deps
  const row = await shipmentOf(db, job.orderId)
  if (!row || (row.status !== 'requested' && row.status !== 'retrying')) return 'not-requested'
  const order = await getOrder(db, job.orderId)
  if (!order) return 'unknown-order'
  if (!carriers) {
    await updateShipment(db, order.id, { status: 'skipped', providerMessage: SHIPMENT_EVENTS.skipped })
    await recordOrderEvent(db, order.id, 'shipment-skipped', SHIPMENT_EVENTS.skipped)
    return 'skipped'
  }
  if (order.shippedAt || order.status === 'cancelado' || order.status === 'Completado') {
    return keepFailed(db, order.id, SHIPMENT_EVENTS.notShippable)
  }
  const settings = await readCarrierSettings(db, deps.env)
  const origin = originParty(settings)
  if (!origin) return keepFailed(db, order.id, SHIPMENT_EVENTS.noOrigin)
  const destination = order.customerMunicipalityCode
    ? recipientOf(order, order.customerMunicipalityCode)
    : null
  if (!destination) return keepFailed(db, order.id, SHIPMENT_MESSAGES.noMunicipality)

  const cashOnDeliveryAmount =
    order.paymentMethod === 'acordar' && order.status === 'pendiente de pago' ? order.total : 0
  const parcel = await parcelOfLines(
    db,
    order.items.map((item) => ({ sku: item.productSku, quantity: item.quantity })),
    settings.defaultPackage,
    order.subtotal,
  )
  const input: QuoteInput = { origin, destination, parcel, cashOnDeliveryAmount }

  let label: Label
  let quote: Quote | null
  try {
    quote = chosenQuote(await carriers.quote(input), settings.quotes)
  } catch (error) {
    if (error instanceof CarrierRefused)
      return keepFailed(db, order.id, SHIPMENT_EVENTS.refused(error.message))
    if (error instanceof CarrierUnavailable) {
      await updateShipment(db, order.id, {
        status: 'retrying',
        providerMessage: SHIPMENT_EVENTS.retrying(error.message),
      })
    }
    throw error
  }
  if (!quote) {
    const carrier = settings.quotes === 'flat' || settings.quotes === 'cheapest' ? null : settings.quotes
    return keepFailed(
      db,
      order.id,
      carrier ? SHIPMENT_EVENTS.noQuoteFromCarrier(carrierName(carrier)) : SHIPMENT_EVENTS.noQuote,
    )
  }
  try {
    label = await carriers.createLabel({
      ...input,
      carrier: quote.carrier,
      service: quote.service,
      reference: String(order.number),
    })
  } catch (error) {
    if (error instanceof CarrierRefused)
      return keepFailed(db, order.id, SHIPMENT_EVENTS.refused(error.message))
    if (error instanceof CarrierUnavailable && !error.details.mayHaveSucceeded) {
      await updateShipment(db, order.id, {
        status: 'retrying',
        providerMessage: SHIPMENT_EVENTS.retrying(error.message),
      })
      throw error
    }
    const reason = error instanceof Error ? error.message : String(error)
    return keepFailed(db, order.id, SHIPMENT_EVENTS.mayHaveBought(reason), { mayHaveSucceeded: true })
  }

  let labelPdf: Buffer | null = null
  let labelProblem: string | null = null
  try {
    labelPdf = await fetchLabelPdf(deps.fetch ?? fetch, label.labelUrl)
  } catch (error) {
    labelProblem = error instanceof Error ? error.message : String(error)
    logger.warn({ orderId: order.id, err: error }, '[guías] etiqueta sin guardar')
  }
  const name = carrierName(label.carrier)
  // The guía is paid for: it is recorded first, on its own, so that nothing failing afterwards
  // leaves the row `requested` for the queue's retry to buy a second one.
  await db.transaction(async (tx) => {
    await updateShipment(tx, order.id, {
      status: 'created',
      carrier: label.carrier,
      service: label.service,
      serviceName: quote.serviceName,
      trackingNumber: label.trackingNumber,
      trackingUrl: label.trackingUrl || null,
      labelUrl: label.labelUrl,
      labelPdf,
      providerShipmentId: label.providerShipmentId,
      price: label.price,
      cashOnDeliveryAmount,
      statusText: null,
      providerMessage: null,
    })
    await recordOrderEvent(
      tx,
      order.id,
      'shipment-bought',
      SHIPMENT_EVENTS.bought(label.trackingNumber, name, label.price),
      { carrier: label.carrier, service: label.service, price: label.price, cashOnDeliveryAmount },
    )
    if (labelProblem) {
      await recordOrderEvent(
        tx,
        order.id,
        'shipment-label-missing',
        SHIPMENT_EVENTS.labelNotKept(labelProblem),
      )
    }
  })
  try {
    await db.transaction(async (tx) => {
      const locked = await lockOrder(tx, order.id)
      try {
        // A savepoint: a refusal to ship is written on the timeline in the same transaction.
        await tx.transaction(async (savepoint) => {
          if (!locked) throw new Refusal(SHIPMENT_MESSAGES.notFound, { status: 404 })
          await shipLockedOrder(
            savepoint,
            deps.jobs,
            locked,
            { carrier: name, trackingNumber: label.trackingNumber, trackingUrl: label.trackingUrl || null },
            row.requestedBy ?? CARRIER_ACTOR,
          )
        })
      } catch (error) {
        if (!(error instanceof Refusal)) throw error
        await recordOrderEvent(
          tx,
          order.id,
          'shipment-not-shipped',
          SHIPMENT_EVENTS.boughtNotShipped(label.trackingNumber, error.message),
        )
      }
    })
  } catch (error) {
    // Not thrown on: a retry finds the guía bought and would not ship the order either. The owner
    // reads it on the timeline and marks the order shipped by hand.
    logger.error({ orderId: order.id, err: error }, '[guías] guía comprada, pedido sin marcar enviado')
    const reason = error instanceof Error ? error.message : String(error)
    await recordOrderEvent(
      db,
      order.id,
      'shipment-not-shipped',
      SHIPMENT_EVENTS.boughtNotShipped(label.trackingNumber, `${reason}. Márcalo enviado a mano.`),
    ).catch((again: unknown) =>
      logger.error({ orderId: order.id, err: again }, '[guías] tampoco se anotó en el historial'),
    )
  }
  return 'bought'
}

const eventKey = (event: { at: string; description: string }) => `${event.at}|${event.description}`

/** The carrier's events not yet on the order's timeline, oldest first. */
function newEvents(row: ShipmentState, tracking: Tracking): StoredTrackingEvent[] {
  const known = new Set(row.events.map(eventKey))
  return tracking.events
    .map((event) => ({
      at: event.at.toISOString(),
      description: event.description,
      ...(event.location ? { location: event.location } : {}),
    }))
    .filter((event) => !known.has(eventKey(event)))
}

export type TrackOutcome = { checked: number; changed: number; completed: number } | 'skipped'

/**
 * Job `shipment-track` (every 30 minutes, and from the desk's "Actualizar seguimiento" for one
 * order): asks the carrier about every guía still on its way and writes each new event on the
 * order's timeline once. "Entregado" dates the delivery and, when the owner turned "Completar al
 * entregar" on, completes the order (the buyer's 5 business days of withdrawal run from it).
 */
export async function trackShipments(deps: ShipmentDeps, job: { orderId?: string }): Promise<TrackOutcome> {
  const { db, carriers } = deps
  const rows = await db
    .select(SHIPMENT_STATE)
    .from(shipments)
    .where(
      and(
        inArray(shipments.status, [...TRACKED_STATES]),
        job.orderId ? eq(shipments.orderId, job.orderId) : undefined,
      ),
    )
  if (!carriers) {
    if (job.orderId)
      await recordOrderEvent(db, job.orderId, 'shipment-track-skipped', SHIPMENT_EVENTS.trackSkipped)
    return 'skipped'
  }
  const settings = rows.length ? await readCarrierSettings(db, deps.env) : null
  const byCarrier = new Map<string, ShipmentState[]>()
  for (const row of rows) byCarrier.set(row.carrier ?? '', [...(byCarrier.get(row.carrier ?? '') ?? []), row])
  let changed = 0
  let completed = 0
  for (const [carrier, group] of byCarrier) {
    let answers: Tracking[]
    try {
      answers = await carriers.track(
        carrier,
        group.map((row) => row.trackingNumber!),
      )
    } catch (error) {
      // One order asked from the desk: the queue retries it. The schedule tries again in 30 minutes.
      if (job.orderId) throw error
      logger.warn({ carrier, err: error }, '[guías] seguimiento sin respuesta')
      continue
    }
    const byNumber = new Map(answers.map((tracking) => [tracking.trackingNumber, tracking]))
    for (const row of group) {
      const tracking = byNumber.get(row.trackingNumber!)
      if (!tracking) continue
      const result = await recordTracking(deps, row, tracking, settings!)
      if (result.changed) changed++
      if (result.completed) completed++
    }
  }
  return { checked: rows.length, changed, completed }
}

async function recordTracking(
  deps: ShipmentDeps,
  polled: ShipmentState,
  tracking: Tracking,
  settings: CarrierSettings,
) {
  const name = carrierName(polled.carrier)
  // One transaction on the locked row: two runs at once (the schedule and the desk's button) never
  // write an event twice, and a completion that fails leaves the delivery unrecorded, so the next
  // run tries both again.
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select(SHIPMENT_STATE)
      .from(shipments)
      .where(eq(shipments.id, polled.id))
      .for('update')
    if (!row) return { changed: false, completed: false }
    const added = newEvents(row, tracking)
    const statusChanged = tracking.status !== row.status
    if (!added.length && !statusChanged) {
      await updateShipment(tx, row.orderId, { lastTrackedAt: new Date() })
      return { changed: false, completed: false }
    }
    const delivered = tracking.status === 'delivered' && !row.deliveredAt
    // The carrier's time of delivery, never later than now: a date to come would stretch the
    // buyer's withdrawal term, which runs from it.
    const now = new Date()
    const carrierAt = tracking.events.at(-1)?.at
    const deliveredAt = delivered ? (carrierAt && carrierAt < now ? carrierAt : now) : row.deliveredAt
    await updateShipment(tx, row.orderId, {
      status: tracking.status,
      statusText: tracking.statusText,
      events: [...row.events, ...added],
      lastTrackedAt: new Date(),
      deliveredAt,
    })
    for (const event of added) {
      await recordOrderEvent(
        tx,
        row.orderId,
        'shipment-tracking',
        SHIPMENT_EVENTS.tracking(name, event.description, event.location),
        { status: tracking.status, at: event.at },
        CARRIER_ACTOR,
      )
    }
    if (statusChanged && !added.length) {
      const said = SHIPMENT_STATUS_LABELS[tracking.status] ?? tracking.statusText
      await recordOrderEvent(
        tx,
        row.orderId,
        'shipment-tracking',
        SHIPMENT_EVENTS.tracking(name, said),
        { status: tracking.status },
        CARRIER_ACTOR,
      )
    }
    if (!delivered) return { changed: true, completed: false }
    await recordOrderEvent(
      tx,
      row.orderId,
      'shipment-delivered',
      SHIPMENT_EVENTS.delivered(name),
      undefined,
      CARRIER_ACTOR,
    )
    if (!settings.completeOnDelivery) return { changed: true, completed: false }
    const [order] = await tx
      .select({ status: orders.status, paymentMethod: orders.paymentMethod })
      .from(orders)
      .where(eq(orders.id, row.orderId))
    // Only an order paid, or paid on delivery: an unpaid online order is never completed on its own.
    const settled = order?.status === 'pagado' || order?.paymentMethod === 'acordar'
    if (!order || !settled || !canTransition(order.status, 'Completado')) {
      return { changed: true, completed: false }
    }
    await completeOrder(tx, deps.jobs, row.orderId, CARRIER_ACTOR, deliveredAt!)
    return { changed: true, completed: true }
  })
}

/**
 * "Actualizar seguimiento" on the desk: one order's guía asked about now (a `shipment-track` job).
 */
export async function requestShipmentTracking(
  deps: Pick<ShipmentDeps, 'db' | 'jobs'>,
  orderId: string,
  by: string,
) {
  await deps.db.transaction(async (tx) => {
    const row = await shipmentOf(tx, orderId)
    if (!row?.trackingNumber) throw refused(SHIPMENT_MESSAGES.noShipment, 409)
    await recordOrderEvent(
      tx,
      orderId,
      'shipment-track-requested',
      SHIPMENT_EVENTS.trackRequested,
      undefined,
      by,
    )
    await deps.jobs.send(tx, 'shipment-track', { orderId })
  })
}

/** What the desk shows of the order's guía, and whether "Generar guía" applies. */
export async function shipmentDeskOf(
  deps: Pick<ShipmentDeps, 'db' | 'carriers'>,
  order: { id: string; status: string; shippedAt: Date | null; reservationHeld: boolean },
) {
  const row = await shipmentOf(deps.db, order.id)
  const open = order.status === 'pendiente de pago' || order.status === 'pagado'
  return {
    configured: deps.carriers !== null,
    shipment: row && {
      status: row.status,
      statusLabel: SHIPMENT_STATUS_LABELS[row.status] ?? row.status,
      statusText: row.statusText,
      carrier: row.carrier && carrierName(row.carrier),
      serviceName: row.serviceName,
      trackingNumber: row.trackingNumber,
      trackingUrl: row.trackingUrl,
      price: row.price,
      cashOnDeliveryAmount: row.cashOnDeliveryAmount,
      providerMessage: row.providerMessage,
      hasLabel: row.hasLabelPdf || Boolean(row.labelUrl),
      lastTrackedAt: row.lastTrackedAt,
      deliveredAt: row.deliveredAt,
      tracked: !FINAL_STATES.includes(row.status as ShipmentStatus) && Boolean(row.trackingNumber),
    },
    canBuy: deps.carriers !== null && open && !order.shippedAt && order.reservationHeld && canRequest(row),
  }
}

/** "Imprimir guía": the kept PDF, or the carrier's link when it could not be kept. */
export async function shipmentLabelResponse(db: DbOrTx, orderId: string): Promise<Response> {
  const [row] = await db
    .select({
      trackingNumber: shipments.trackingNumber,
      labelUrl: shipments.labelUrl,
      labelPdf: shipments.labelPdf,
    })
    .from(shipments)
    .where(eq(shipments.orderId, orderId))
  const text = (message: string, status: number) =>
    new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  if (!row?.trackingNumber) return text(SHIPMENT_MESSAGES.noShipment, 404)
  if (row.labelPdf) {
    return new Response(new Uint8Array(row.labelPdf), {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="guia-${row.trackingNumber.replace(/[^\w-]/g, '_')}.pdf"`,
        'Cache-Control': 'private, no-store',
      },
    })
  }
  if (row.labelUrl) return Response.redirect(row.labelUrl, 302)
  return text(SHIPMENT_MESSAGES.noLabel, 404)
}
