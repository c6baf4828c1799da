import { eq, like } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import type { Db } from '#app/db/client.server.ts'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { whatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { readMessageSettings } from '#app/modules/messages/messages.server.ts'
import { saveMessageSettings } from '#app/modules/settings/message-settings.server.ts'
import {
  BUYER_EVENT_PARAMETERS,
  messageDefaults,
  messagesAsFormValues,
  type BuyerEvent,
  type MessageFormValues,
} from '#app/modules/messages/validators.ts'
import { settings } from '#app/modules/settings/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { placeTestOrder } from '#tests/orders.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { startWhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { sendBuyerMessage, UNKNOWN_SHIPMENT_DETAIL } from './buyer-message.server.ts'
import { cancelOrder, cancelOrderAtDesk } from './cancel.server.ts'
import { completeOrder } from './complete.server.ts'
import { confirmOrder } from './confirm.server.ts'
import { listOrderEvents } from './order.server.ts'
import { orders } from './schema.ts'
import { shipOrder } from './ship.server.ts'
import { orderLinkSecret, orderLinkToken } from './status-link.server.ts'

const t = setupTestDatabase()
const standIn = standInForFile(startWhatsAppStandIn)
const ADMIN = 'duena@vitrina.test'
const PUBLIC_URL = 'https://tienda.example'
const secret = orderLinkSecret('secreto-de-pruebas-de-mensajes-0123456789')

const deps = (whatsapp: ReturnType<typeof whatsAppClient> | null) => ({
  db: t.db,
  whatsapp,
  storeName: 'Vitrina',
  publicUrl: PUBLIC_URL,
  linkSecret: secret,
})
const client = () =>
  whatsAppClient({ baseUrl: standIn().url, token: standIn().token, phoneNumberId: standIn().phoneNumberId })

/** Saves the page's form with `change` over what is saved now. */
async function saveMessages(db: Db, change: Partial<MessageFormValues>) {
  const defaults = messageDefaults([])
  const current = await readMessageSettings(db, defaults)
  await saveMessageSettings(db, defaults, { ...messagesAsFormValues(current), ...change }, current, ADMIN)
}

const ALL_ON = { confirmedOn: 'on', shippedOn: 'on', completedOn: 'on', cancelledOn: 'on' }

async function newOrder(phone = '300 123 4567') {
  const product = await createProduct(t.db, { stock: 10 })
  return placeTestOrder(t.db, { sku: product.sku, quantity: 1, phone })
}

const orderPage = (number: number) => `${PUBLIC_URL}/pedido/${number}?clave=${orderLinkToken(secret, number)}`

beforeEach(async () => {
  await t.db.delete(settings).where(like(settings.key, 'messages.%'))
})

describe('the order changes enqueue the buyer message in their transaction, only when it is on', () => {
  test('confirmed, shipped, delivered and cancelled, each its own job', async () => {
    await saveMessages(t.db, ALL_ON)
    const jobs = recordingJobQueue()
    const first = await newOrder()
    await confirmOrder(t.db, jobs, first.id, ADMIN)
    await shipOrder(t.db, jobs, first.id, { carrier: 'Servientrega', trackingNumber: 'G-1' }, ADMIN)
    await completeOrder(t.db, jobs, first.id, ADMIN)
    const second = await newOrder()
    await cancelOrderAtDesk(t.db, jobs, second.id, 'sin respuesta', ADMIN)
    expect(jobs.sent.filter((job) => job.name === 'order-buyer-message').map((job) => job.data)).toEqual([
      { orderId: first.id, event: 'confirmed' },
      { orderId: first.id, event: 'shipped' },
      { orderId: first.id, event: 'completed' },
      { orderId: second.id, event: 'cancelled' },
    ])
  })

  test('off (the first-run default): no job', async () => {
    const jobs = recordingJobQueue()
    const order = await newOrder()
    await confirmOrder(t.db, jobs, order.id, ADMIN)
    await completeOrder(t.db, jobs, order.id, ADMIN)
    expect(jobs.sent.filter((job) => job.name === 'order-buyer-message')).toEqual([])
  })

  test('completing an order never marked shipped sends "entregado" only, not "enviado" too', async () => {
    await saveMessages(t.db, ALL_ON)
    const jobs = recordingJobQueue()
    const order = await newOrder()
    await completeOrder(t.db, jobs, order.id, ADMIN)
    expect(jobs.sent.filter((job) => job.name === 'order-buyer-message').map((job) => job.data)).toEqual([
      { orderId: order.id, event: 'completed' },
    ])
  })

  test('a refused change enqueues nothing (the job goes with the transaction)', async () => {
    await saveMessages(t.db, ALL_ON)
    const jobs = recordingJobQueue()
    const order = await newOrder()
    await confirmOrder(t.db, jobs, order.id, ADMIN)
    await expect(confirmOrder(t.db, jobs, order.id, ADMIN)).rejects.toMatchObject({ status: 409 })
    expect(jobs.sent.filter((job) => job.name === 'order-buyer-message')).toHaveLength(1)
  })

  test('a payment that could not start cancels without telling the buyer (they are on the checkout)', async () => {
    await saveMessages(t.db, ALL_ON)
    const jobs = recordingJobQueue()
    const order = await newOrder()
    await cancelOrder(t.db, jobs, order.id, 'No se pudo iniciar el pago.', { releaseCheckoutKey: true })
    expect(jobs.sent.filter((job) => job.name === 'order-buyer-message')).toEqual([])
  })
})

describe('the job sends the template through the WhatsApp Cloud API', () => {
  test.each<[BuyerEvent, (number: number) => string[]]>([
    ['confirmed', (number) => ['Luis', String(number), orderPage(number)]],
    ['completed', (number) => ['Luis', String(number)]],
    ['cancelled', (number) => ['Luis', String(number)]],
  ])('%s: the saved template and language, the documented parameters', async (event, parameters) => {
    await saveMessages(t.db, {
      [`${event}On`]: 'on',
      [`${event}Template`]: `plantilla_${event}`,
      [`${event}Language`]: 'es_CO',
    })
    const order = await newOrder('300 123 4567')
    const result = await sendBuyerMessage(deps(client()), { orderId: order.id, event })

    expect(standIn().requests).toHaveLength(1)
    expect(standIn().requests[0]!.headers.authorization).toBe(`Bearer ${standIn().token}`)
    expect(standIn().requests[0]!.body).toEqual({
      messaging_product: 'whatsapp',
      to: '573001234567',
      type: 'template',
      template: {
        name: `plantilla_${event}`,
        language: { code: 'es_CO' },
        components: [
          { type: 'body', parameters: parameters(order.number).map((text) => ({ type: 'text', text })) },
        ],
      },
    })
    expect(parameters(order.number)).toHaveLength(BUYER_EVENT_PARAMETERS[event].length)
    const [sent] = standIn().sent
    expect(result).toEqual({ sent: sent!.messageId })
    const events = await listOrderEvents(t.db, order.id)
    expect(events.at(-1)).toMatchObject({
      type: 'buyer-message-sent',
      data: { event, to: '573001234567', template: `plantilla_${event}`, messageId: sent!.messageId },
    })
    expect(events.at(-1)!.message).toMatch(
      /^Mensaje al cliente «Pedido .+» enviado por WhatsApp a 573001234567\.$/,
    )
  })

  test('shipped: carrier, guía and the carrier’s tracking link', async () => {
    await saveMessages(t.db, { shippedOn: 'on' })
    const order = await newOrder()
    await shipOrder(
      t.db,
      recordingJobQueue(),
      order.id,
      { carrier: 'Coordinadora', trackingNumber: '987654' },
      ADMIN,
    )
    await t.db
      .update(orders)
      .set({ trackingUrl: 'https://coordinadora.example/rastreo/987654' })
      .where(eq(orders.id, order.id))
    await sendBuyerMessage(deps(client()), { orderId: order.id, event: 'shipped' })
    expect(standIn().sent[0]).toMatchObject({
      name: 'pedido_enviado',
      language: 'es',
      parameters: [
        'Luis',
        String(order.number),
        'Coordinadora',
        '987654',
        'https://coordinadora.example/rastreo/987654',
      ],
    })
  })

  test('shipped without a guía: "por confirmar" and the order’s own page (WhatsApp refuses empty parameters)', async () => {
    await saveMessages(t.db, { shippedOn: 'on' })
    const order = await newOrder()
    await shipOrder(t.db, recordingJobQueue(), order.id, {}, ADMIN)
    await sendBuyerMessage(deps(client()), { orderId: order.id, event: 'shipped' })
    expect(standIn().sent[0]!.parameters).toEqual([
      'Luis',
      String(order.number),
      UNKNOWN_SHIPMENT_DETAIL,
      UNKNOWN_SHIPMENT_DETAIL,
      orderPage(order.number),
    ])
  })

  test('a refused template is written on the timeline with the link to send it by hand', async () => {
    await saveMessages(t.db, { completedOn: 'on' })
    const order = await newOrder()
    standIn().failNext(1, 132001)
    const result = await sendBuyerMessage(deps(client()), { orderId: order.id, event: 'completed' })
    expect(result).toEqual({ failed: '(#132001) Template name does not exist in the translation' })
    const last = (await listOrderEvents(t.db, order.id)).at(-1)!
    expect(last).toMatchObject({ type: 'buyer-message-failed', data: { event: 'completed', code: 132001 } })
    expect(last.message).toBe(
      'Mensaje al cliente «Pedido entregado» a 573001234567 falló: (#132001) Template name does not exist in the translation. Puedes enviarlo a mano.',
    )
    expect((last.data as { chatUrl: string }).chatUrl).toMatch(/^https:\/\/wa\.me\/573001234567\?text=/)
  })

  test('a throttled send throws for the queue to retry, and writes nothing yet', async () => {
    await saveMessages(t.db, { cancelledOn: 'on' })
    const order = await newOrder()
    const before = (await listOrderEvents(t.db, order.id)).length
    standIn().failNext(1, 130429)
    await expect(
      sendBuyerMessage(deps(client()), { orderId: order.id, event: 'cancelled' }),
    ).rejects.toMatchObject({ retryable: true })
    expect(await listOrderEvents(t.db, order.id)).toHaveLength(before)
  })
})

describe('skipped', () => {
  test('without a WhatsApp token: nothing sent, the timeline has the wa.me link with the message', async () => {
    await saveMessages(t.db, { confirmedOn: 'on' })
    const order = await newOrder('3001234567')
    const result = await sendBuyerMessage(deps(null), { orderId: order.id, event: 'confirmed' })
    expect(standIn().requests).toHaveLength(0)
    const text = `Hola Luis, tu pedido #${order.number} de Vitrina está confirmado. Síguelo aquí: ${orderPage(order.number)}`
    const chatUrl = `https://wa.me/573001234567?text=${encodeURIComponent(text)}`
    expect(result).toEqual({ skipped: 'sin configuración', chatUrl })
    const last = (await listOrderEvents(t.db, order.id)).at(-1)!
    expect(last).toMatchObject({
      type: 'buyer-message-skipped',
      message:
        'Mensaje al cliente «Pedido confirmado» sin enviar: WhatsApp no está configurado. Envíalo a mano con el enlace.',
      data: { event: 'confirmed', to: '573001234567', chatUrl },
    })
  })

  test('shipped by hand: the link’s text has the guía and where to follow it', async () => {
    await saveMessages(t.db, { shippedOn: 'on' })
    const order = await newOrder()
    await shipOrder(
      t.db,
      recordingJobQueue(),
      order.id,
      { carrier: 'Envía', trackingNumber: 'ABC123' },
      ADMIN,
    )
    const result = await sendBuyerMessage(deps(null), { orderId: order.id, event: 'shipped' })
    const text = decodeURIComponent(
      new URL((result as { chatUrl: string }).chatUrl).searchParams.get('text')!,
    )
    expect(text).toContain(`tu pedido #${order.number} de Vitrina ya va en camino`)
    expect(text).toContain('Envío: Envía, guía ABC123')
    expect(text).toContain(orderPage(order.number))
    // No amounts: the link is shown to whoever handles the order.
    expect(text).not.toContain('$')
  })

  test('turned off after the change was queued: said on the timeline, nothing sent', async () => {
    const order = await newOrder()
    await sendBuyerMessage(deps(client()), { orderId: order.id, event: 'completed' })
    expect(standIn().requests).toHaveLength(0)
    expect((await listOrderEvents(t.db, order.id)).at(-1)).toMatchObject({
      type: 'buyer-message-skipped',
      message: 'Mensaje al cliente «Pedido entregado» sin enviar: se desactivó en Mensajes y Notificaciones.',
    })
  })

  test('a phone that is no Colombian mobile: said on the timeline, nothing sent', async () => {
    await saveMessages(t.db, { completedOn: 'on' })
    const order = await newOrder('601 234 5678')
    await sendBuyerMessage(deps(client()), { orderId: order.id, event: 'completed' })
    expect(standIn().requests).toHaveLength(0)
    expect((await listOrderEvents(t.db, order.id)).at(-1)!.message).toContain('no es un celular colombiano')
  })

  test('an order that does not exist', async () => {
    expect(await sendBuyerMessage(deps(client()), { orderId: 'ord_no-existe', event: 'confirmed' })).toEqual({
      skipped: 'pedido inexistente',
    })
  })
})
