import { eq, inArray } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { cancelOrderAtDesk } from '#app/modules/order/cancel.server.ts'
import { markOrderPaid } from '#app/modules/order/mark-paid.server.ts'
import { ORDER_DESK_MESSAGES } from '#app/modules/order/messages.ts'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { shipOrder } from '#app/modules/order/ship.server.ts'
import { settings } from '#app/modules/settings/schema.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/logger.server.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { PICKUP, quoteFlat, quoteLive, saveSettings } from '#tests/carrier-quotes.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct, stockOf } from '#tests/orders.ts'
import { startEnviaStandIn, STAND_IN_CARRIERS, type StandInStatus } from '#tests/stand-ins/envia.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { enviaProvider } from './envia.server.ts'
import { SHIPMENT_MESSAGES } from './messages.ts'
import { shipments } from './schema.ts'
import {
  buyShipmentLabel,
  carrierName,
  chosenQuote,
  requestShipmentLabel,
  requestShipmentTracking,
  SHIPMENT_EVENTS,
  shipmentDeskOf,
  shipmentLabelResponse,
  shipmentOf,
  trackShipments,
  type ShipmentDeps,
} from './shipments.server.ts'

/**
 * The guía workflow on the test database against the local Envia: "Generar guía" and its refusals,
 * the job that buys the guía and ships the order, every failure where the owner reads it, and the
 * tracking job that writes the carrier's events once and completes a delivered order when asked.
 */

const t = setupTestDatabase()
const standIn = standInForFile(startEnviaStandIn)
const env = parseEnv({})
let jobs = recordingJobQueue()
beforeEach(async () => {
  jobs = recordingJobQueue()
  // The pickup in Medellín and the cheapest quote, as most tests want them.
  await quoteLive(t.db)
})
afterEach(async () => {
  vi.restoreAllMocks()
  await quoteFlat(t.db)
  await t.db
    .delete(settings)
    .where(
      inArray(settings.key, [
        'completeOnDelivery',
        'parcelWeightGrams',
        'parcelLengthCm',
        'parcelWidthCm',
        'parcelHeightCm',
      ]),
    )
})

const BY = 'duena@vitrina.test'

/** The label's bytes as kept (the reads the jobs and the desk use leave them out). */
const labelPdfOf = async (orderId: string) =>
  (await t.db.select({ pdf: shipments.labelPdf }).from(shipments).where(eq(shipments.orderId, orderId)))[0]
    ?.pdf ?? null

/** The stand-in's prices for a parcel under 1 kg, in centavos. */
const SERVIENTREGA = Math.round(STAND_IN_CARRIERS.servientrega!.pesos * 100)
const COORDINADORA = Math.round(STAND_IN_CARRIERS.coordinadora!.pesos * 100)

/** A fresh Envia client on the stand-in; `overrides` replace any dependency. */
function deps(overrides: Partial<ShipmentDeps> = {}): ShipmentDeps {
  return {
    db: t.db,
    jobs,
    carriers: enviaProvider({ baseUrl: standIn().url, token: standIn().token }),
    env,
    ...overrides,
  }
}

/** Runs the guía jobs queued so far, in order, as the worker would. */
async function runQueued(using = deps()) {
  const outcomes: unknown[] = []
  for (const job of jobs.sent.splice(0)) {
    if (job.name === 'shipment-label') {
      outcomes.push(await buyShipmentLabel(using, job.data as { orderId: string }))
    }
    if (job.name === 'shipment-track') {
      outcomes.push(await trackShipments(using, job.data as { orderId?: string }))
    }
  }
  return outcomes
}

const sentTo = (path: string) => standIn().requests.filter((request) => request.path === path)
type SentPackage = {
  weight: number
  declaredValue: number
  additionalServices?: { service: string; data?: { amount: number } }[]
}
type SentBody = {
  origin: Record<string, unknown>
  destination: Record<string, unknown>
  packages: SentPackage[]
  shipment: Record<string, unknown>
}
const lastGenerated = () => sentTo('/ship/generate/').at(-1)!.body as SentBody

/**
 * An order as checkout places it (2 units of 250 g, cash on delivery unless said), delivering in
 * Bogotá with the buyer's document and e-mail.
 */
async function placed(
  paymentMethod: 'acordar' | 'mercadopago' = 'acordar',
  buyer: Partial<typeof orders.$inferInsert> = {},
) {
  const product = await stockedProduct(t.db, 5)
  await t.db.update(products).set({ weightGrams: 250 }).where(eq(products.sku, product.sku))
  const order = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 2,
    paymentMethod,
    phone: `310${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
  })
  await t.db
    .update(orders)
    .set({
      customerIdentificationType: 'CC',
      customerIdentificationNumber: '1.020.304.050',
      customerEmail: 'luis@example.co',
      customerMunicipalityCode: '11001',
      ...buyer,
    })
    .where(eq(orders.id, order.id))
  return { ...(await getOrder(t.db, order.id))!, sku: product.sku }
}

async function paidOnline() {
  const order = await placed('mercadopago')
  await t.db.transaction((tx) =>
    markOrderPaid(tx, order.id, { id: `pago-${order.number}`, status: 'approved' }, recordingJobQueue()),
  )
  return order
}

/** "Generar guía" and its job: the guía bought. */
async function bought(order: { id: string }, using = deps()) {
  await requestShipmentLabel(using, order.id, BY)
  expect(await runQueued(using)).toEqual(['bought'])
  return (await shipmentOf(t.db, order.id))!
}

const messages = async (orderId: string) =>
  (await listOrderEvents(t.db, orderId)).map((event) => event.message)
const eventsOfType = async (orderId: string, type: string) =>
  (await listOrderEvents(t.db, orderId)).filter((event) => event.type === type)

async function refusalOf(action: () => Promise<unknown>): Promise<Refusal> {
  try {
    await action()
  } catch (error) {
    if (error instanceof Refusal) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('carrierName and chosenQuote', () => {
  test('a carrier’s name as the owner reads it', () => {
    expect(carrierName('servientrega')).toBe('Servientrega')
    expect(carrierName('coordinadora')).toBe('Coordinadora')
    expect(carrierName('deprisa')).toBe('Deprisa')
    expect(carrierName(null)).toBe('La transportadora')
  })

  test('the cheapest service, or the chosen carrier’s cheapest even when another is cheaper', () => {
    const quotes = [
      { carrier: 'coordinadora', service: 'express', serviceName: 'C Express', price: 30_000_00 },
      { carrier: 'servientrega', service: 'ground', serviceName: 'S', price: 12_000_00 },
      { carrier: 'coordinadora', service: 'ground', serviceName: 'C Terrestre', price: 15_000_00 },
    ]
    expect(chosenQuote(quotes, 'cheapest')?.serviceName).toBe('S')
    expect(chosenQuote(quotes, 'flat')?.serviceName).toBe('S')
    expect(chosenQuote(quotes, 'coordinadora')?.serviceName).toBe('C Terrestre')
    expect(chosenQuote(quotes.slice(1, 2), 'coordinadora')).toBeNull()
    expect(chosenQuote([], 'cheapest')).toBeNull()
  })
})

describe('Generar guía', () => {
  test('queues the job with a requested row and a timeline note, in one go', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)

    expect(await shipmentOf(t.db, order.id)).toMatchObject({
      status: 'requested',
      provider: 'envia',
      requestedBy: BY,
      trackingNumber: null,
      providerMessage: null,
    })
    expect(jobs.sent).toEqual([{ name: 'shipment-label', data: { orderId: order.id, by: BY } }])
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-requested',
      message: SHIPMENT_EVENTS.requested,
      createdBy: BY,
    })
    // Nothing asked of Envia yet: the job does it.
    expect(standIn().requests).toEqual([])
  })

  test('refused without a carrier configured, for a closed or shipped order, or without municipality', async () => {
    const order = await placed()
    const unconfigured = await refusalOf(() => requestShipmentLabel(deps({ carriers: null }), order.id, BY))
    expect(unconfigured).toMatchObject({ message: SHIPMENT_MESSAGES.notConfigured, status: 409 })

    const missing = await refusalOf(() => requestShipmentLabel(deps(), 'no-existe', BY))
    expect(missing).toMatchObject({ message: SHIPMENT_MESSAGES.notFound, status: 404 })

    const cancelled = await placed()
    await cancelOrderAtDesk(t.db, jobs, cancelled.id, 'Cliente desistió', BY)
    expect(await refusalOf(() => requestShipmentLabel(deps(), cancelled.id, BY))).toMatchObject({
      message: SHIPMENT_MESSAGES.closed,
      status: 409,
    })

    const shipped = await placed()
    await shipOrder(t.db, jobs, shipped.id, { carrier: 'Interrapidísimo', trackingNumber: '7001' }, BY)
    expect(await refusalOf(() => requestShipmentLabel(deps(), shipped.id, BY))).toMatchObject({
      message: SHIPMENT_MESSAGES.alreadyShipped,
    })

    const nowhere = await placed('acordar', { customerMunicipalityCode: null })
    expect(await refusalOf(() => requestShipmentLabel(deps(), nowhere.id, BY))).toMatchObject({
      message: SHIPMENT_MESSAGES.noMunicipality,
    })

    // None of them wrote a row, a note or a job.
    for (const id of [order.id, cancelled.id, shipped.id, nowhere.id]) {
      expect(await shipmentOf(t.db, id)).toBeNull()
      expect(await eventsOfType(id, 'shipment-requested')).toEqual([])
    }
    expect(jobs.sent.filter((job) => job.name === 'shipment-label')).toEqual([])
  })

  test('refused while its guía is being bought, and once it has one', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    expect(await refusalOf(() => requestShipmentLabel(deps(), order.id, BY))).toMatchObject({
      message: SHIPMENT_MESSAGES.inProgress,
      status: 409,
    })
    await t.db.update(shipments).set({ status: 'retrying' }).where(eq(shipments.orderId, order.id))
    expect(await refusalOf(() => requestShipmentLabel(deps(), order.id, BY))).toMatchObject({
      message: SHIPMENT_MESSAGES.inProgress,
    })
    // A guía bought whose order was not marked shipped (the desk shipped or changed it meanwhile).
    await t.db
      .update(shipments)
      .set({ status: 'created', trackingNumber: '36000009999', carrier: 'servientrega' })
      .where(eq(shipments.orderId, order.id))
    expect(await refusalOf(() => requestShipmentLabel(deps(), order.id, BY))).toMatchObject({
      message: SHIPMENT_MESSAGES.alreadyBought,
    })
    expect(jobs.sent.filter((job) => job.name === 'shipment-label')).toHaveLength(1)
  })

  test('after a failed attempt it can be asked again: the row starts over', async () => {
    const order = await placed()
    await saveSettings(t.db, { carrierOriginStreet: null })
    await requestShipmentLabel(deps(), order.id, BY)
    expect(await runQueued()).toEqual(['failed'])

    await quoteLive(t.db)
    await requestShipmentLabel(deps(), order.id, 'otra@vitrina.test')
    expect(await shipmentOf(t.db, order.id)).toMatchObject({
      status: 'requested',
      providerMessage: null,
      requestedBy: 'otra@vitrina.test',
    })
    expect(await runQueued()).toEqual(['bought'])
  })
})

describe('the shipment-label job', () => {
  test('cash on delivery in Bogotá: the cheapest guía from Medellín, collecting the order’s total; the order ships', async () => {
    const order = await placed()
    const before = await stockOf(t.db, order.sku)
    expect(before).toMatchObject({ stock: 5, reserved: 2, unitsOut: 0 })

    const row = await bought(order)

    // Both carriers asked; the cheaper (Servientrega) bought.
    expect(sentTo('/ship/rate/')).toHaveLength(2)
    expect(sentTo('/ship/generate/')).toHaveLength(1)
    const body = lastGenerated()
    expect(body.shipment).toMatchObject({
      carrier: 'servientrega',
      service: 'ground',
      orderReference: String(order.number),
    })
    expect(body.origin).toMatchObject({
      city: '05001000',
      state: 'AN',
      street: PICKUP.carrierOriginStreet,
      phone: PICKUP.carrierOriginPhone,
      name: PICKUP.sellerLegalName,
      identificationNumber: '900123456',
    })
    expect(body.destination).toMatchObject({
      city: '11001000',
      state: 'DC',
      name: 'Luis Gómez',
      phone: order.customerPhone.replace(/\D/g, '').slice(-10),
      email: 'luis@example.co',
      street: 'Carrera 7 # 8-9',
      identificationNumber: '1020304050',
    })
    // Two units of 250 g, declared at the subtotal; the carrier collects the total, in pesos.
    expect(body.packages[0]).toMatchObject({ weight: 0.5, declaredValue: order.subtotal / 100 })
    expect(body.packages[0]!.additionalServices).toEqual([
      { service: 'cash_on_delivery', data: { amount: order.total / 100 } },
    ])

    const [trackingNumber] = [...standIn().shipments.keys()]
    const commission = Math.max(3000, Math.round((order.total / 100) * 0.03)) * 100
    expect(row).toMatchObject({
      status: 'created',
      provider: 'envia',
      carrier: 'servientrega',
      service: 'ground',
      serviceName: 'Servientrega Mercancía Premier',
      trackingNumber,
      trackingUrl: `https://envia.com/es-CO/rastreo?label=${trackingNumber}`,
      labelUrl: `${standIn().url}/labels/${trackingNumber}.pdf`,
      price: SERVIENTREGA + commission,
      cashOnDeliveryAmount: order.total,
      providerMessage: null,
    })
    // The label PDF itself is kept.
    expect((await labelPdfOf(row.orderId))!.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect((await labelPdfOf(row.orderId))!.toString('latin1')).toContain(`Guia ${trackingNumber}`)

    const shipped = (await getOrder(t.db, order.id))!
    expect(shipped).toMatchObject({
      status: 'pendiente de pago',
      reservationHeld: false,
      carrier: 'Servientrega',
      trackingNumber,
      trackingUrl: `https://envia.com/es-CO/rastreo?label=${trackingNumber}`,
    })
    expect(shipped.shippedAt).toBeInstanceOf(Date)
    // The reservation became exits in the ledger, by who asked for the guía.
    const after = await stockOf(t.db, order.sku)
    expect(after).toMatchObject({ stock: 3, reserved: 0, unitsOut: 2 })
    expect(after.ledger.filter((entry) => entry.type === 'out')).toEqual([
      expect.objectContaining({ quantity: 2, orderId: order.id, createdBy: BY }),
    ])

    const events = await listOrderEvents(t.db, order.id)
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['shipment-requested', 'shipment-bought', 'shipped']),
    )
    expect(events.find((event) => event.type === 'shipment-bought')).toMatchObject({
      message: SHIPMENT_EVENTS.bought(trackingNumber!, 'Servientrega', SERVIENTREGA + commission),
      data: { carrier: 'servientrega', service: 'ground', cashOnDeliveryAmount: order.total },
    })
    expect(events.find((event) => event.type === 'shipped')?.message).toBe(
      `Marcado como enviado (transportadora Servientrega, guía ${trackingNumber}).`,
    )
  })

  test('a chosen carrier is bought even when another is cheaper', async () => {
    await quoteLive(t.db, 'coordinadora')
    const order = await paidOnline()
    const row = await bought(order)
    expect(lastGenerated().shipment).toMatchObject({ carrier: 'coordinadora' })
    expect(row).toMatchObject({ carrier: 'coordinadora', price: COORDINADORA })
    expect((await getOrder(t.db, order.id))!.carrier).toBe('Coordinadora')
  })

  test('an order paid online sends no cash on delivery', async () => {
    const order = await paidOnline()
    const row = await bought(order)
    expect(lastGenerated().packages[0]!.additionalServices ?? []).toEqual([])
    expect(row).toMatchObject({ cashOnDeliveryAmount: 0, price: SERVIENTREGA })
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'pagado', reservationHeld: false })
  })

  test('products without measures travel in the default package saved in Configuraciones', async () => {
    await saveSettings(t.db, { parcelWeightGrams: 1500, parcelHeightCm: 5 })
    const order = await placed()
    await t.db.update(products).set({ weightGrams: null, heightCm: null }).where(eq(products.sku, order.sku))
    await bought(order)
    expect(lastGenerated().packages[0]).toMatchObject({
      weight: 3,
      dimensions: { length: 20, width: 15, height: 10 },
    })
  })

  test('running the job twice buys one guía', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    const [job] = jobs.sent
    expect(await buyShipmentLabel(deps(), job!.data as { orderId: string })).toBe('bought')
    expect(await buyShipmentLabel(deps(), job!.data as { orderId: string })).toBe('not-requested')
    expect(sentTo('/ship/generate/')).toHaveLength(1)
    expect(await eventsOfType(order.id, 'shipment-bought')).toHaveLength(1)
    // A job for an order never asked about does nothing either.
    expect(await buyShipmentLabel(deps(), { orderId: 'no-existe' })).toBe('not-requested')
  })

  test('no carrier configured when the job runs: skipped, on the row and the timeline', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    expect(await runQueued(deps({ carriers: null }))).toEqual(['skipped'])
    expect(await shipmentOf(t.db, order.id)).toMatchObject({
      status: 'skipped',
      providerMessage: SHIPMENT_EVENTS.skipped,
    })
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-skipped',
      message: SHIPMENT_EVENTS.skipped,
    })
    expect(standIn().requests).toEqual([])
    expect((await getOrder(t.db, order.id))!.shippedAt).toBeNull()
  })

  test('no pickup address saved: failed, saying where to save it, nothing asked of Envia', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    await saveSettings(t.db, { carrierOriginMunicipality: null })
    expect(await runQueued()).toEqual(['failed'])
    expect(await shipmentOf(t.db, order.id)).toMatchObject({
      status: 'failed',
      providerMessage: SHIPMENT_EVENTS.noOrigin,
    })
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-failed',
      message: expect.stringContaining('Configuraciones › Envíos con transportadora'),
    })
    expect(standIn().requests).toEqual([])
  })

  test('an order shipped by hand or cancelled before the job runs gets no guía', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    await shipOrder(t.db, jobs, order.id, { carrier: 'Mensajero', trackingNumber: '1' }, BY)
    expect(await runQueued()).toEqual(['failed'])
    expect(await shipmentOf(t.db, order.id)).toMatchObject({
      status: 'failed',
      providerMessage: SHIPMENT_EVENTS.notShippable,
    })
    expect(standIn().requests).toEqual([])
  })

  test('Envia’s refusal (a municipality it does not cover) is kept with its reason, never retried', async () => {
    // Palmira (Valle del Cauca) is DIVIPOLA's, but the stand-in covers no such city.
    const order = await placed('acordar', { customerMunicipalityCode: '76520' })
    await requestShipmentLabel(deps(), order.id, BY)
    expect(await runQueued()).toEqual(['failed'])

    const row = (await shipmentOf(t.db, order.id))!
    expect(row.status).toBe('failed')
    expect(row.providerMessage).toMatch(/^No se generó la guía\. Envia no cotizó el envío: /)
    expect(row.providerMessage).toContain('The destination city 76520000 was not found')
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-failed',
      message: row.providerMessage,
    })
    expect(sentTo('/ship/rate/').map((request) => (request.body as SentBody).destination)).toEqual([
      expect.objectContaining({ city: '76520000', state: 'VC' }),
      expect.objectContaining({ city: '76520000', state: 'VC' }),
    ])
    expect(sentTo('/ship/generate/')).toEqual([])
    expect((await getOrder(t.db, order.id))!.shippedAt).toBeNull()
  })

  test('no answer while quoting: retrying, thrown for the queue, and the retry buys it', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    // Both carriers' quotes fail.
    standIn().failNext(2, 500)
    const [job] = jobs.sent.splice(0)
    await expect(buyShipmentLabel(deps(), job!.data as { orderId: string })).rejects.toThrow(
      /Envia no respondió al cotizar el envío/,
    )
    const row = (await shipmentOf(t.db, order.id))!
    expect(row.status).toBe('retrying')
    expect(row.providerMessage).toMatch(/HTTP 500.*Se reintenta sola\.$/)
    expect(sentTo('/ship/generate/')).toEqual([])

    // The queue runs it again.
    expect(await buyShipmentLabel(deps(), job!.data as { orderId: string })).toBe('bought')
    expect(await shipmentOf(t.db, order.id)).toMatchObject({ status: 'created', providerMessage: null })
  })

  test('no answer while buying: failed (the guía may exist), asking to check Envia, not retried', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    const failingGenerate: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/ship/generate/')) standIn().failNext(1, 500)
      return fetch(input, init)
    }
    const using = deps({
      carriers: enviaProvider({ baseUrl: standIn().url, token: standIn().token, fetch: failingGenerate }),
    })
    expect(await runQueued(using)).toEqual(['failed'])

    const row = (await shipmentOf(t.db, order.id))!
    expect(row.status).toBe('failed')
    expect(row.providerMessage).toContain('Envia no respondió al generar la guía')
    expect(row.providerMessage).toContain('revísala en tu cuenta de Envia antes de generar otra')
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-failed',
      data: { mayHaveSucceeded: true },
    })
    expect((await getOrder(t.db, order.id))!.shippedAt).toBeNull()
    expect((await stockOf(t.db, order.sku)).reserved).toBe(2)
  })

  test('a label PDF that cannot be fetched: the guía is still bought and the order shipped', async () => {
    const order = await placed()
    vi.spyOn(logger, 'warn').mockImplementation(() => {})
    const noLabel: typeof fetch = async () => new Response('caído', { status: 503 })
    const row = await bought(order, deps({ fetch: noLabel }))
    expect(await labelPdfOf(row.orderId)).toBeNull()
    expect(row.labelUrl).toContain('/labels/')
    expect((await getOrder(t.db, order.id))!.shippedAt).toBeInstanceOf(Date)
    expect(await messages(order.id)).toContain(SHIPMENT_EVENTS.labelNotKept('HTTP 503'))
    // "Imprimir guía" sends to the carrier's link instead.
    const response = await shipmentLabelResponse(t.db, order.id)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(row.labelUrl)
  })

  test('shipped by hand while the guía was being bought: the guía stays recorded, the timeline says so', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    const racing: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/ship/generate/')) {
        await shipOrder(
          t.db,
          recordingJobQueue(),
          order.id,
          { carrier: 'Mensajero', trackingNumber: '9' },
          BY,
        )
      }
      return fetch(input, init)
    }
    const using = deps({
      carriers: enviaProvider({ baseUrl: standIn().url, token: standIn().token, fetch: racing }),
    })
    expect(await runQueued(using)).toEqual(['bought'])
    const row = (await shipmentOf(t.db, order.id))!
    expect(row.status).toBe('created')
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-not-shipped',
      message: SHIPMENT_EVENTS.boughtNotShipped(row.trackingNumber!, ORDER_DESK_MESSAGES.alreadyShipped),
    })
    // The hand-written shipment stands; the units left once.
    expect(await getOrder(t.db, order.id)).toMatchObject({ carrier: 'Mensajero', trackingNumber: '9' })
    expect((await stockOf(t.db, order.sku)).ledger.filter((entry) => entry.type === 'out')).toHaveLength(1)
  })
})

describe('the shipment-label job, when things break after buying', () => {
  test('the order cannot be marked shipped (the database fails): the guía is kept, never bought twice', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    const [job] = jobs.sent.splice(0)
    // Shipping queues the stock sync; a queue that fails there fails the shipping transaction.
    const broken = {
      ...jobs,
      async send(...args: Parameters<typeof jobs.send>) {
        if (args[1] === 'channel-stock-sync') throw new Error('conexión perdida')
        return jobs.send(...args)
      },
    }
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
    const first = await buyShipmentLabel(deps({ jobs: broken }), job!.data as { orderId: string }).catch(
      (thrown: unknown) => thrown,
    )
    // The queue would run it again: it must not buy a second guía.
    await buyShipmentLabel(deps(), job!.data as { orderId: string }).catch(() => {})
    expect(sentTo('/ship/generate/')).toHaveLength(1)
    expect(first).toBe('bought')
    const row = (await shipmentOf(t.db, order.id))!
    expect(row).toMatchObject({ status: 'created', carrier: 'servientrega' })
    expect(row.trackingNumber).toBeTruthy()
    expect(await labelPdfOf(row.orderId)).not.toBeNull()
    expect((await getOrder(t.db, order.id))!.shippedAt).toBeNull()
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-not-shipped',
      message: expect.stringContaining(`La guía ${row.trackingNumber} se generó`),
    })
    expect(error).toHaveBeenCalled()
  })

  test('a guía the queue gave up on (retrying for over an hour) can be asked for again', async () => {
    const order = await placed()
    await requestShipmentLabel(deps(), order.id, BY)
    standIn().failNext(2, 500)
    await expect(runQueued()).rejects.toThrow()
    expect((await shipmentOf(t.db, order.id))!.status).toBe('retrying')
    expect(await refusalOf(() => requestShipmentLabel(deps(), order.id, BY))).toMatchObject({
      message: SHIPMENT_MESSAGES.inProgress,
    })
    expect((await shipmentDeskOf(deps(), (await getOrder(t.db, order.id))!)).canBuy).toBe(false)

    // Its last retry was long ago: the job is in the dead letters, nothing will buy it.
    await t.db
      .update(shipments)
      .set({ updatedAt: new Date(Date.now() - 2 * 60 * 60_000) })
      .where(eq(shipments.orderId, order.id))
    expect((await shipmentDeskOf(deps(), (await getOrder(t.db, order.id))!)).canBuy).toBe(true)
    await requestShipmentLabel(deps(), order.id, BY)
    expect(await runQueued()).toEqual(['bought'])
  })
})

/** Moves the order's guía at the stand-in and runs the tracking job for every guía. */
async function moveAndTrack(trackingNumber: string, status: StandInStatus, description: string) {
  standIn().advance(trackingNumber, status, description, 'Bogotá')
  return trackShipments(deps(), {})
}

describe('the shipment-track job', () => {
  test('each carrier event goes on the timeline once; delivered dates the delivery', async () => {
    const order = await placed()
    const { trackingNumber } = await bought(order)
    const number = trackingNumber!

    // Nothing new yet.
    await trackShipments(deps(), {})
    expect(await eventsOfType(order.id, 'shipment-tracking')).toEqual([])
    expect((await shipmentOf(t.db, order.id))!.lastTrackedAt).toBeInstanceOf(Date)

    await moveAndTrack(number, 'Picked Up', 'Recogido en la bodega del remitente')
    expect(await shipmentOf(t.db, order.id)).toMatchObject({ status: 'picked_up', statusText: 'Picked Up' })
    await moveAndTrack(number, 'Shipped', 'En tránsito hacia Bogotá')
    await trackShipments(deps(), {})
    expect(await shipmentOf(t.db, order.id)).toMatchObject({ status: 'in_transit', statusText: 'Shipped' })
    await moveAndTrack(number, 'Out for Delivery', 'En reparto')
    expect(await shipmentOf(t.db, order.id)).toMatchObject({ status: 'out_for_delivery' })
    await moveAndTrack(number, 'Delivered', 'Entregado al destinatario')
    await trackShipments(deps(), {})
    await trackShipments(deps(), { orderId: order.id })

    const tracking = await eventsOfType(order.id, 'shipment-tracking')
    expect(tracking.map((event) => event.message)).toEqual([
      'Servientrega: Recogido en la bodega del remitente (Bogotá).',
      'Servientrega: En tránsito hacia Bogotá (Bogotá).',
      'Servientrega: En reparto (Bogotá).',
      'Servientrega: Entregado al destinatario (Bogotá).',
    ])
    expect(tracking.every((event) => event.createdBy === 'transportadora')).toBe(true)
    expect(await eventsOfType(order.id, 'shipment-delivered')).toEqual([
      expect.objectContaining({ message: SHIPMENT_EVENTS.delivered('Servientrega') }),
    ])

    const carrierDelivered = new Date(standIn().shipments.get(number)!.events.at(-1)!.timestamp)
    const row = (await shipmentOf(t.db, order.id))!
    expect(row).toMatchObject({ status: 'delivered', statusText: 'Delivered' })
    expect(row.deliveredAt).toEqual(carrierDelivered)
    expect(row.events.map((event) => event.description)).toEqual([
      'Recogido en la bodega del remitente',
      'En tránsito hacia Bogotá',
      'En reparto',
      'Entregado al destinatario',
    ])
    // completeOnDelivery is off: the order stays as it was, nothing to invoice.
    expect(await getOrder(t.db, order.id)).toMatchObject({ status: 'pendiente de pago', deliveredAt: null })
    expect(jobs.sent.filter((job) => job.name === 'invoice-issue')).toEqual([])
    // A delivered guía is not asked about again.
    const asked = sentTo('/ship/generaltrack/').length
    expect(await trackShipments(deps(), { orderId: order.id })).toEqual({
      checked: 0,
      changed: 0,
      completed: 0,
    })
    expect(sentTo('/ship/generaltrack/')).toHaveLength(asked)
  })

  test('with "Completar al entregar" on, delivery completes a cash-on-delivery order on the carrier’s date', async () => {
    await saveSettings(t.db, { completeOnDelivery: 'yes' })
    const order = await placed()
    const number = (await bought(order)).trackingNumber!
    standIn().advance(number, 'Picked Up', 'Recogido')
    expect(await trackShipments(deps(), { orderId: order.id })).toEqual({
      checked: 1,
      changed: 1,
      completed: 0,
    })
    standIn().advance(number, 'Delivered', 'Entregado')
    expect(await trackShipments(deps(), { orderId: order.id })).toEqual({
      checked: 1,
      changed: 1,
      completed: 1,
    })

    const carrierDelivered = new Date(standIn().shipments.get(number)!.events.at(-1)!.timestamp)
    const completed = (await getOrder(t.db, order.id))!
    expect(completed.status).toBe('Completado')
    expect(completed.deliveredAt).toEqual(carrierDelivered)
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'completed',
      createdBy: 'transportadora',
    })
    expect(jobs.sent.filter((job) => job.name === 'invoice-issue')).toEqual([
      { name: 'invoice-issue', data: { orderId: order.id, trigger: 'delivered' } },
    ])
    // The units left once, when the guía was bought.
    expect((await stockOf(t.db, order.sku)).ledger.filter((entry) => entry.type === 'out')).toHaveLength(1)
  })

  test('with "Completar al entregar" on, an order cancelled meanwhile is not completed', async () => {
    await saveSettings(t.db, { completeOnDelivery: 'yes' })
    const order = await paidOnline()
    const number = (await bought(order)).trackingNumber!
    await t.db.update(orders).set({ status: 'cancelado' }).where(eq(orders.id, order.id))
    standIn().advance(number, 'Delivered', 'Entregado')
    expect(await trackShipments(deps(), { orderId: order.id })).toMatchObject({ completed: 0 })
    expect((await getOrder(t.db, order.id))!.status).toBe('cancelado')
    expect((await shipmentOf(t.db, order.id))!.status).toBe('delivered')
  })

  test('a status change without a new event still goes on the timeline once', async () => {
    const order = await placed()
    const number = (await bought(order)).trackingNumber!
    standIn().shipments.get(number)!.status = 'Exception'
    await trackShipments(deps(), { orderId: order.id })
    await trackShipments(deps(), { orderId: order.id })
    expect((await eventsOfType(order.id, 'shipment-tracking')).map((event) => event.message)).toEqual([
      'Servientrega: Novedad en la entrega.',
    ])
    expect(await shipmentOf(t.db, order.id)).toMatchObject({ status: 'exception', statusText: 'Exception' })
  })

  test('Envia without an answer: the schedule logs it and waits; the desk’s request throws for a retry', async () => {
    const order = await placed()
    await bought(order)
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {})
    // Every carrier's request of the scheduled run fails.
    standIn().failNext(10, 500)
    await expect(trackShipments(deps(), {})).resolves.toMatchObject({ changed: 0 })
    expect(warn).toHaveBeenCalledWith(expect.anything(), '[guías] seguimiento sin respuesta')

    standIn().reset()
    standIn().failNext(1, 503)
    await expect(trackShipments(deps(), { orderId: order.id })).rejects.toThrow(
      /Envia no respondió al consultar el rastreo/,
    )
  })

  test('no carrier configured: skipped, and the desk’s request says so on the timeline', async () => {
    const order = await placed()
    await bought(order)
    expect(await trackShipments(deps({ carriers: null }), {})).toBe('skipped')
    expect(await trackShipments(deps({ carriers: null }), { orderId: order.id })).toBe('skipped')
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-track-skipped',
      message: SHIPMENT_EVENTS.trackSkipped,
    })
  })

  test('"Actualizar seguimiento" queues the order’s tracking; refused without a guía', async () => {
    const order = await placed()
    expect(await refusalOf(() => requestShipmentTracking(deps(), order.id, BY))).toMatchObject({
      message: SHIPMENT_MESSAGES.noShipment,
      status: 409,
    })
    await bought(order)
    jobs.sent.length = 0
    await requestShipmentTracking(deps(), order.id, BY)
    expect(jobs.sent).toEqual([{ name: 'shipment-track', data: { orderId: order.id } }])
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'shipment-track-requested',
      message: SHIPMENT_EVENTS.trackRequested,
      createdBy: BY,
    })
  })
})

describe('the desk', () => {
  const deskOf = async (orderId: string, using = deps()) =>
    shipmentDeskOf(using, (await getOrder(t.db, orderId))!)

  test('"Generar guía" applies to an open, unshipped order with units held and no guía under way', async () => {
    const order = await placed()
    expect(await deskOf(order.id)).toEqual({ configured: true, shipment: null, canBuy: true })
    expect(await deskOf(order.id, deps({ carriers: null }))).toMatchObject({
      configured: false,
      canBuy: false,
    })

    await requestShipmentLabel(deps(), order.id, BY)
    expect(await deskOf(order.id)).toMatchObject({
      canBuy: false,
      shipment: { status: 'requested', statusLabel: 'Generando la guía', hasLabel: false, tracked: false },
    })

    // Failed: it can be asked again, and the desk says why it failed.
    await saveSettings(t.db, { carrierOriginPhone: null })
    await runQueued()
    expect(await deskOf(order.id)).toMatchObject({
      canBuy: true,
      shipment: { status: 'failed', providerMessage: SHIPMENT_EVENTS.noOrigin },
    })

    await quoteLive(t.db)
    const row = await bought(order)
    expect(await deskOf(order.id)).toEqual({
      configured: true,
      canBuy: false,
      shipment: expect.objectContaining({
        status: 'created',
        statusLabel: 'Guía generada',
        carrier: 'Servientrega',
        serviceName: 'Servientrega Mercancía Premier',
        trackingNumber: row.trackingNumber,
        trackingUrl: row.trackingUrl,
        price: row.price,
        cashOnDeliveryAmount: order.total,
        hasLabel: true,
        tracked: true,
      }),
    })

    const cancelled = await placed()
    await cancelOrderAtDesk(t.db, jobs, cancelled.id, 'Sin stock', BY)
    expect((await deskOf(cancelled.id)).canBuy).toBe(false)
    const shippedByHand = await placed()
    await shipOrder(t.db, jobs, shippedByHand.id, { carrier: 'Mensajero' }, BY)
    expect((await deskOf(shippedByHand.id)).canBuy).toBe(false)
  })

  test('"Imprimir guía": the kept PDF; without a guía, a 404 that says so', async () => {
    const order = await placed()
    const none = await shipmentLabelResponse(t.db, order.id)
    expect(none.status).toBe(404)
    expect(none.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await none.text()).toBe(SHIPMENT_MESSAGES.noShipment)

    const row = await bought(order)
    const pdf = await shipmentLabelResponse(t.db, order.id)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="guia-${row.trackingNumber}.pdf"`)
    const bytes = Buffer.from(await pdf.arrayBuffer())
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(bytes.equals((await labelPdfOf(row.orderId))!)).toBe(true)
  })
})
