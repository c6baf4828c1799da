import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { markOrderPaidAtDesk } from '#app/modules/order/mark-paid.server.ts'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { TransitionRefused } from '#app/modules/order/status.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { saveSettings } from '#tests/carrier-quotes.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createOrder } from '#tests/factories.ts'
import { pngUpload } from '#tests/media.ts'
import { paymentReceipts, payments } from './schema.ts'
import { metaOrderContexts } from '#app/modules/marketing/schema.ts'
import {
  confirmTransferPaid,
  markPaidAtDesk,
  receiptOf,
  receiptUploadOf,
  saveTransferReceipt,
  transferInstructionsOf,
} from './transfer.server.ts'
import { MAX_RECEIPT_BYTES, TRANSFER_MESSAGES, transferDeadlineText } from './transfer.ts'

const t = setupTestDatabase()
const ADMIN = 'duena@vitrina.test'
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

const transferOrder = (overrides: Partial<typeof orders.$inferInsert> = {}) =>
  createOrder(t.db, {
    id: randomUUID(),
    paymentMethod: 'transferencia',
    subtotal: 9_000_000,
    total: 9_500_000,
    shippingCost: 500_000,
    createdAt: new Date('2026-11-20T15:00:00Z'),
    ...overrides,
  })

async function refusalOf(run: () => Promise<unknown>) {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error('expected a refusal')
}

const eventsOf = async (orderId: string) =>
  (await listOrderEvents(t.db, orderId)).map(({ type, message, createdBy }) => ({ type, message, createdBy }))

beforeEach(async () => {
  await saveSettings(t.db, {
    paymentTransfer: 'yes',
    transferBrebKey: '@vitrina',
    transferAccount: 'Bancolombia ahorros 123-456789-00',
    transferDeadlineHours: 12,
  })
})

describe('the buyer is told where and how much to pay, and until when', () => {
  test('the shop key and account, the exact total, the order number and the deadline', async () => {
    const order = await transferOrder()
    expect(await transferInstructionsOf(t.db, order)).toEqual({
      brebKey: '@vitrina',
      account: 'Bancolombia ahorros 123-456789-00',
      amount: 9_500_000,
      reference: order.number,
      deadline: '2026-11-21T03:00:00.000Z',
    })
    // 03:00 UTC is 22:00 in Bogotá, the day before.
    expect(transferDeadlineText('2026-11-21T03:00:00.000Z')).toBe('20 de noviembre de 2026 a las 22:00')
  })

  test('nothing while transfers are switched off: no page shows an empty key', async () => {
    await saveSettings(t.db, { paymentTransfer: 'no' })
    expect(await transferInstructionsOf(t.db, await transferOrder())).toBeNull()
  })
})

describe('saving the receipt', () => {
  test('an image is kept with its real type and written on the timeline; a new one replaces it', async () => {
    const order = await transferOrder()
    const png = await pngUpload('captura.png')
    await saveTransferReceipt(t.db, order.id, { name: 'C:\\fotos\\captura.png', bytes: png.bytes })
    expect(await receiptUploadOf(t.db, order.id)).toMatchObject({
      contentType: 'image/png',
      fileName: 'captura.png',
    })

    await saveTransferReceipt(t.db, order.id, { name: 'extracto.jpg', bytes: PDF })
    const receipt = await receiptOf(t.db, order.id)
    expect(receipt).toMatchObject({ contentType: 'application/pdf', fileName: 'extracto.jpg' })
    expect(Buffer.from(receipt!.bytes).equals(PDF)).toBe(true)
    expect(
      await t.db.select().from(paymentReceipts).where(eq(paymentReceipts.orderId, order.id)),
    ).toHaveLength(1)
    expect(await eventsOf(order.id)).toEqual([
      { type: 'payment-receipt', message: 'Comprobante de pago recibido.', createdBy: 'sistema' },
      { type: 'payment-receipt', message: 'Comprobante de pago recibido.', createdBy: 'sistema' },
    ])
  })

  test('a JPEG and a WebP pass by their bytes', async () => {
    const sharp = (await import('sharp')).default
    const base = sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } })
    for (const [bytes, type] of [
      [await base.clone().jpeg().toBuffer(), 'image/jpeg'],
      [await base.clone().webp().toBuffer(), 'image/webp'],
    ] as const) {
      const order = await transferOrder()
      await saveTransferReceipt(t.db, order.id, { name: 'recibo.png', bytes })
      expect((await receiptUploadOf(t.db, order.id))?.contentType).toBe(type)
    }
  })

  test.each([
    ['an empty file', () => Buffer.alloc(0), TRANSFER_MESSAGES.empty],
    [
      'a file over 5 MB',
      () => Buffer.concat([PDF, Buffer.alloc(MAX_RECEIPT_BYTES)]),
      TRANSFER_MESSAGES.tooLarge,
    ],
    [
      'an HTML page named .png',
      () => Buffer.from('<html><script>alert(1)</script></html>'),
      TRANSFER_MESSAGES.notReceipt,
    ],
    [
      'an SVG (sharp decodes it, browsers run its scripts)',
      () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
      TRANSFER_MESSAGES.notReceipt,
    ],
    [
      'a video',
      () => Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]),
      TRANSFER_MESSAGES.notReceipt,
    ],
  ])('%s is refused (400) with nothing written', async (_name, bytes, message) => {
    const order = await transferOrder()
    const refused = await refusalOf(() =>
      saveTransferReceipt(t.db, order.id, { name: 'recibo.png', bytes: bytes() }),
    )
    expect(refused).toBeInstanceOf(Refusal)
    expect(refused).toMatchObject({ message, status: 400 })
    expect(await receiptOf(t.db, order.id)).toBeNull()
    expect(await eventsOf(order.id)).toEqual([])
  })

  test('only a transfer order still waiting for its money takes one', async () => {
    const png = await pngUpload()
    const cash = await createOrder(t.db, { id: randomUUID(), paymentMethod: 'acordar' })
    const paid = await transferOrder({ status: 'pagado' })
    const cancelled = await transferOrder({ status: 'cancelado' })
    expect(await refusalOf(() => saveTransferReceipt(t.db, randomUUID(), png))).toMatchObject({
      message: TRANSFER_MESSAGES.orderNotFound,
      status: 404,
    })
    expect(await refusalOf(() => saveTransferReceipt(t.db, cash.id, png))).toMatchObject({
      message: TRANSFER_MESSAGES.notTransfer,
      status: 409,
    })
    for (const order of [paid, cancelled]) {
      expect(await refusalOf(() => saveTransferReceipt(t.db, order.id, png))).toMatchObject({
        message: TRANSFER_MESSAGES.notPending,
        status: 409,
      })
      expect(await receiptOf(t.db, order.id)).toBeNull()
    }
  })
})

describe('the owner confirms the transfer', () => {
  test('the order is paid, the ledger keeps the payment and the invoice is queued, together', async () => {
    const order = await transferOrder()
    const jobs = recordingJobQueue()
    await confirmTransferPaid(t.db, jobs, order.id, ADMIN)

    const [row] = await t.db.select().from(orders).where(eq(orders.id, order.id))
    expect(row!.status).toBe('pagado')
    expect(await t.db.select().from(payments).where(eq(payments.orderId, order.id))).toEqual([
      expect.objectContaining({
        provider: 'transferencia',
        providerPaymentId: `transferencia-${order.id}`,
        method: 'transferencia',
        status: 'approved',
        amount: 9_500_000,
        recordedBy: ADMIN,
      }),
    ])
    expect(jobs.sent).toEqual([{ name: 'invoice-issue', data: { orderId: order.id, trigger: 'paid' } }])
    expect(await eventsOf(order.id)).toEqual([
      { type: 'paid', message: TRANSFER_MESSAGES.confirmedEventMessage, createdBy: ADMIN },
    ])
  })

  test('with advertising consent at checkout, the payment is Meta’s Purchase', async () => {
    const order = await transferOrder()
    await t.db.insert(metaOrderContexts).values({ orderId: order.id, eventSourceUrl: 'https://tienda.co/' })
    const jobs = recordingJobQueue()
    await confirmTransferPaid(t.db, jobs, order.id, ADMIN)
    expect(jobs.sent.map((job) => job.name)).toEqual(['invoice-issue', 'meta-event'])
    expect(jobs.sent[1]!.data).toMatchObject({ kind: 'purchase', orderId: order.id })
  })

  test('twice, or on a cancelled order, is refused and writes nothing more', async () => {
    const order = await transferOrder()
    await confirmTransferPaid(t.db, recordingJobQueue(), order.id, ADMIN)
    const jobs = recordingJobQueue()
    expect(await refusalOf(() => confirmTransferPaid(t.db, jobs, order.id, ADMIN))).toBeInstanceOf(
      TransitionRefused,
    )
    const cancelled = await transferOrder({ status: 'cancelado' })
    expect(await refusalOf(() => confirmTransferPaid(t.db, jobs, cancelled.id, ADMIN))).toBeInstanceOf(
      TransitionRefused,
    )
    expect(jobs.sent).toEqual([])
    expect(await t.db.select().from(payments).where(eq(payments.orderId, cancelled.id))).toEqual([])
    expect(await t.db.select().from(payments).where(eq(payments.orderId, order.id))).toHaveLength(1)
  })

  test('an order not paid by transfer is refused (409)', async () => {
    const cash = await createOrder(t.db, { id: randomUUID(), paymentMethod: 'acordar' })
    expect(
      await refusalOf(() => confirmTransferPaid(t.db, recordingJobQueue(), cash.id, ADMIN)),
    ).toMatchObject({
      message: TRANSFER_MESSAGES.notTransfer,
      status: 409,
    })
  })

  test('the desk\'s "Marcar como pagado" settles a transfer, and marks cash as it always did', async () => {
    const transfer = await transferOrder()
    const cash = await createOrder(t.db, { id: randomUUID(), paymentMethod: 'acordar' })
    const jobs = recordingJobQueue()
    await markPaidAtDesk(t.db, jobs, transfer.id, ADMIN)
    await markPaidAtDesk(t.db, jobs, cash.id, ADMIN)

    const statuses = await t.db.select({ id: orders.id, status: orders.status }).from(orders)
    expect(
      statuses.filter((row) => [transfer.id, cash.id].includes(row.id)).map((row) => row.status),
    ).toEqual(['pagado', 'pagado'])
    expect(await t.db.select().from(payments).where(eq(payments.orderId, transfer.id))).toHaveLength(1)
    expect(await t.db.select().from(payments).where(eq(payments.orderId, cash.id))).toEqual([])
    expect(jobs.sent).toEqual([{ name: 'invoice-issue', data: { orderId: transfer.id, trigger: 'paid' } }])
    expect(await eventsOf(cash.id)).toEqual([
      { type: 'paid', message: 'Marcado como pagado.', createdBy: ADMIN },
    ])
    // The order module's own entry point is unchanged for cash on delivery.
    const other = await createOrder(t.db, { id: randomUUID(), paymentMethod: 'acordar' })
    await markOrderPaidAtDesk(t.db, other.id, ADMIN)
    expect(await eventsOf(other.id)).toEqual([
      { type: 'paid', message: 'Marcado como pagado.', createdBy: ADMIN },
    ])
  })
})
