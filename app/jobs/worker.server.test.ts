import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { placeOrder } from '#app/modules/checkout/checkout.server.ts'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { jobHandlers, startServices } from '#app/services.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { startWhatsAppStandIn, type WhatsAppStandIn } from '#tests/stand-ins/whatsapp.ts'
import { DEAD_LETTER_QUEUE } from './jobs.server.ts'
import { CHECKOUT_DRAFTS_PURGE_SCHEDULE, EXPIRY_SCHEDULE, startWorkers } from './worker.server.ts'
import { logger } from '#app/utils/logger.server.ts'

/**
 * The job wiring as the server starts it: real pg-boss on the test database, the workers of
 * worker.server.ts, and WhatsApp played by its stand-in.
 */

const t = setupTestDatabase()
const NUMBERS = ['573001112233', '573004445566', '573007778899']
let whatsapp: WhatsAppStandIn
let services: Awaited<ReturnType<typeof startServices>>

beforeAll(async () => {
  whatsapp = await startWhatsAppStandIn()
  const env = parseEnv({
    WHATSAPP_TOKEN: whatsapp.token,
    WHATSAPP_PHONE_NUMBER_ID: whatsapp.phoneNumberId,
    WHATSAPP_API_URL: whatsapp.url,
    WHATSAPP_NOTIFY_NUMBERS: NUMBERS.join(','),
    ORDER_PAYMENT_TIMEOUT_HOURS: '48',
    COD_CONFIRMATION_HOURS: '24',
    // One phone places every order of this file.
    COD_MAX_OPEN_ORDERS: '100',
  })
  services = await startServices(env, t.database, { workers: true })
  await startWorkers(services.runtime.boss, jobHandlers(services))
  vi.spyOn(logger, 'info').mockImplementation(() => {})
}, 120_000)
afterAll(async () => {
  await services.stop()
  await whatsapp?.stop()
  vi.restoreAllMocks()
})

const customer = {
  name: 'Ana',
  last_name: 'Gómez',
  phone: '3001234567',
  address: 'Calle 1 # 2-3',
  department: 'Antioquia',
  municipality_code: '05001',
  consent: true,
}

async function place(paymentMethod: 'acordar' | 'mercadopago', name = customer.name) {
  const product = await createProduct(t.db, { stock: 5 })
  const placed = await placeOrder(services.checkout, {
    lines: [{ sku: product.sku, quantity: 1 }],
    customer: { ...customer, name, payment_method: paymentMethod },
  })
  return placed.order
}

/** Waits until pg-boss says the job finished, and returns it. */
async function settled(name: string, id: string) {
  let job: Awaited<ReturnType<typeof services.runtime.boss.getJobById>> = null
  await expect
    .poll(
      async () => {
        job = await services.runtime.boss.getJobById(name, id)
        return job?.state
      },
      { timeout: 20_000, interval: 250 },
    )
    .toMatch(/^(completed|failed)$/)
  return job!
}

describe('queues', () => {
  test('the expiry jobs every 15 minutes and the drafts purge daily, Bogotá time', async () => {
    expect(EXPIRY_SCHEDULE).toBe('*/15 * * * *')
    const schedules = await services.runtime.boss.getSchedules()
    expect(schedules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'order-expire-unpaid',
          cron: '*/15 * * * *',
          timezone: 'America/Bogota',
        }),
        expect.objectContaining({
          name: 'order-expire-unconfirmed',
          cron: '*/15 * * * *',
          timezone: 'America/Bogota',
        }),
        expect.objectContaining({
          name: 'checkout-drafts-purge',
          cron: CHECKOUT_DRAFTS_PURGE_SCHEDULE,
          timezone: 'America/Bogota',
        }),
      ]),
    )
  })

  test('notices and payment notifications retry with backoff and end in the dead-letter queue', async () => {
    const boss = services.runtime.boss
    expect(await boss.getQueue('order-new-notice')).toMatchObject({
      retryLimit: 8,
      retryDelay: 30,
      retryBackoff: true,
      deadLetter: DEAD_LETTER_QUEUE,
    })
    expect(await boss.getQueue('payment-notification')).toMatchObject({
      retryLimit: 10,
      retryDelay: 15,
      retryBackoff: true,
      deadLetter: DEAD_LETTER_QUEUE,
    })
    expect(await boss.getQueue('order-expire-unpaid')).toMatchObject({ policy: 'singleton' })
    expect(await boss.getQueue(DEAD_LETTER_QUEUE)).toBeTruthy()
  })
})

test('the expiry job runs its handler through pg-boss', async () => {
  const stale = await place('mercadopago')
  const fresh = await place('mercadopago')
  await t.db
    .update(orders)
    .set({ createdAt: new Date(Date.now() - 49 * 3_600_000) })
    .where(eq(orders.id, stale.id))
  const id = await services.runtime.boss.send('order-expire-unpaid', {})
  const job = await settled('order-expire-unpaid', id!)
  expect(job.state).toBe('completed')
  // The simulated provider has no payment for it: cancelled, units released.
  expect(job.output).toMatchObject({ cancelled: 1 })
  expect((await getOrder(t.db, stale.id))?.status).toBe('cancelado')
  expect((await getOrder(t.db, fresh.id))?.status).toBe('pendiente de pago')
})

test('a new order’s notices run end to end through the queue to WhatsApp', async () => {
  const order = await place('mercadopago', 'Notificada')
  // Other tests' orders are announced too: only this order's messages count.
  const mine = () => whatsapp.sent.filter((message) => message.parameters[0] === 'Notificada Gómez')
  await expect.poll(() => mine().length, { timeout: 20_000, interval: 250 }).toBe(3)
  expect(
    mine()
      .map((message) => message.to)
      .sort(),
  ).toEqual([...NUMBERS].sort())
  for (const message of mine()) {
    expect(message).toMatchObject({
      name: 'nuevo_pedido',
      language: 'es',
      parameters: ['Notificada Gómez', '3001234567'],
      phoneNumberId: whatsapp.phoneNumberId,
    })
  }
  await expect
    .poll(
      async () => (await listOrderEvents(t.db, order.id)).filter((e) => e.type === 'notice-sent').length,
      {
        timeout: 10_000,
        interval: 250,
      },
    )
    .toBe(3)
})

test('the cash-on-delivery expiry job runs through pg-boss with COD_CONFIRMATION_HOURS', async () => {
  const stale = await place('acordar')
  const fresh = await place('acordar')
  await t.db
    .update(orders)
    .set({ createdAt: new Date(Date.now() - 25 * 3_600_000) })
    .where(eq(orders.id, stale.id))
  await t.db
    .update(orders)
    .set({ createdAt: new Date(Date.now() - 23 * 3_600_000) })
    .where(eq(orders.id, fresh.id))
  const id = await services.runtime.boss.send('order-expire-unconfirmed', {})
  const job = await settled('order-expire-unconfirmed', id!)
  expect(job.state).toBe('completed')
  expect((await getOrder(t.db, stale.id))?.status).toBe('cancelado')
  expect((await getOrder(t.db, fresh.id))?.status).toBe('pendiente de pago')
})
