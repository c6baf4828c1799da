import { eq } from 'drizzle-orm'
import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import type { DbOrTx } from '#app/db/client.server.ts'
import { WhatsAppError, whatsAppClient } from '#app/modules/channels/whatsapp.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'
import { startWhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { NEW_ORDER_TEMPLATE, sendNewOrderNotice } from './new-order-notice.server.ts'
import { listOrderEvents } from './order.server.ts'
import { orderItems, orders } from './schema.ts'

const test_ = setupTestDatabase()
const standIn = standInForFile(startWhatsAppStandIn)

const BUSINESS_NUMBER = '573109876543'

const whatsapp = () =>
  whatsAppClient({ baseUrl: standIn().url, token: standIn().token, phoneNumberId: standIn().phoneNumberId })

/** A pending cash-on-delivery order with one line, inserted directly. */
async function createOrder(db: DbOrTx) {
  const product = await createProduct(db, { pesos: 45000 })
  const id = `ord_${randomUUID()}`
  const unitPrice = 4_500_000
  const subtotal = unitPrice * 2
  const shippingCost = 1_200_000
  await db.insert(orders).values({
    id,
    status: 'pendiente de pago',
    paymentMethod: 'acordar',
    customerName: 'Ana María',
    customerLastName: 'Gómez Ruiz',
    customerIdentificationNumber: '1020304050',
    customerPhone: '3001234567',
    customerEmail: 'ana@example.co',
    customerAddress: 'Calle 10 # 20-30',
    customerCity: 'Medellín',
    customerDepartment: 'Antioquia',
    subtotal,
    shippingCost,
    total: subtotal + shippingCost,
  })
  await db
    .insert(orderItems)
    .values({ orderId: id, productSku: product.sku, title: product.name, quantity: 2, unitPrice })
  return id
}

describe('sendNewOrderNotice', () => {
  test('sends "nuevo_pedido" in Spanish with the customer full name and phone, and records it', async () => {
    const orderId = await createOrder(test_.db)
    const result = await sendNewOrderNotice(
      { db: test_.db, whatsapp: whatsapp() },
      { orderId, to: BUSINESS_NUMBER },
    )

    expect(standIn().sent).toHaveLength(1)
    const [sent] = standIn().sent
    expect(sent).toMatchObject({
      phoneNumberId: standIn().phoneNumberId,
      to: BUSINESS_NUMBER,
      name: NEW_ORDER_TEMPLATE,
      language: 'es',
      parameters: ['Ana María Gómez Ruiz', '3001234567'],
    })
    expect(NEW_ORDER_TEMPLATE).toBe('nuevo_pedido')
    expect(standIn().requests[0]!.headers.authorization).toBe(`Bearer ${standIn().token}`)
    expect(result).toEqual({ sent: sent!.messageId })

    const events = await listOrderEvents(test_.db, orderId)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: 'notice-sent', data: { messageId: sent!.messageId } })
    expect(events[0]!.message).toContain(BUSINESS_NUMBER)
  })

  test('without WhatsApp configured it records that the notice was skipped', async () => {
    const orderId = await createOrder(test_.db)
    const result = await sendNewOrderNotice(
      { db: test_.db, whatsapp: null },
      { orderId, to: BUSINESS_NUMBER },
    )
    expect(result).toEqual({ skipped: 'sin configuración' })
    expect(standIn().requests).toHaveLength(0)
    const events = await listOrderEvents(test_.db, orderId)
    expect(events.map((event) => event.type)).toEqual(['notice-skipped'])
    expect(events[0]!.message).toContain(BUSINESS_NUMBER)
  })

  test('a non-retryable failure is recorded with its code and does not throw', async () => {
    const orderId = await createOrder(test_.db)
    standIn().failNext(1, 131026)
    const result = await sendNewOrderNotice(
      { db: test_.db, whatsapp: whatsapp() },
      { orderId, to: BUSINESS_NUMBER },
    )
    expect(result).toEqual({ failed: '(#131026) Message undeliverable' })
    expect(standIn().requests).toHaveLength(1)
    const events = await listOrderEvents(test_.db, orderId)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: 'notice-failed', data: { code: 131026 } })
    expect(events[0]!.message).toContain('(#131026) Message undeliverable')
  })

  test.each([130429, 131056])(
    'a retryable failure (%i) throws so the queue retries, and records nothing',
    async (code) => {
      const orderId = await createOrder(test_.db)
      standIn().failNext(1, code)
      const error = await sendNewOrderNotice(
        { db: test_.db, whatsapp: whatsapp() },
        { orderId, to: BUSINESS_NUMBER },
      ).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(WhatsAppError)
      expect(error).toMatchObject({ retryable: true, code })
      expect(await listOrderEvents(test_.db, orderId)).toEqual([])

      // The retry goes through and is recorded once.
      await sendNewOrderNotice({ db: test_.db, whatsapp: whatsapp() }, { orderId, to: BUSINESS_NUMBER })
      expect(standIn().sent).toHaveLength(1)
      expect((await listOrderEvents(test_.db, orderId)).map((event) => event.type)).toEqual(['notice-sent'])
    },
  )

  test('a network failure throws too, and records nothing', async () => {
    const orderId = await createOrder(test_.db)
    const unreachable = whatsAppClient({
      baseUrl: `${await refusedUrl()}/v21.0`,
      token: standIn().token,
      phoneNumberId: standIn().phoneNumberId,
    })
    await expect(
      sendNewOrderNotice({ db: test_.db, whatsapp: unreachable }, { orderId, to: BUSINESS_NUMBER }),
    ).rejects.toMatchObject({ retryable: true })
    expect(await listOrderEvents(test_.db, orderId)).toEqual([])
  })

  test('an order that does not exist sends nothing', async () => {
    const result = await sendNewOrderNotice(
      { db: test_.db, whatsapp: whatsapp() },
      { orderId: 'ord_no-existe', to: BUSINESS_NUMBER },
    )
    expect(result).toEqual({ skipped: 'pedido inexistente' })
    expect(standIn().requests).toHaveLength(0)
  })

  test('an order cancelled before its notice went out (payment never started) sends nothing', async () => {
    const orderId = await createOrder(test_.db)
    await test_.db.update(orders).set({ status: 'cancelado' }).where(eq(orders.id, orderId))
    const result = await sendNewOrderNotice(
      { db: test_.db, whatsapp: whatsapp() },
      { orderId, to: BUSINESS_NUMBER },
    )
    expect(result).toEqual({ skipped: 'pedido cancelado' })
    expect(standIn().requests).toHaveLength(0)
  })
})
