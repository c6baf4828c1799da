import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import type { OrderStatus } from '#app/modules/order/status.ts'
import { formatCOP } from '#app/utils/money.ts'
import { Refusal } from '#app/utils/refusal.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createProduct } from '#tests/factories.ts'
import { placeTestOrder } from '#tests/orders.ts'
import { recordLedgerPayment, type LedgerPayment } from './ledger.server.ts'
import {
  PAYMENT_FLAG_MESSAGES,
  PAYMENTS_MESSAGES,
  paymentFiltersFrom,
  type PaymentFilters,
} from './reconciliation.ts'
import { listPayments, paymentsCsv, readLedgerPayment, startPaymentRefund } from './reconciliation.server.ts'
import { payments } from './schema.ts'

const t = setupTestDatabase()

/**
 * An order placed through checkout, then put in the state the test needs (by hand: which online
 * methods the checkout offers is not this test's business).
 */
async function order(status: OrderStatus, paymentId: string | null = null) {
  const product = await createProduct(t.db, { pesos: 45000, stock: 5 })
  const placed = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
  await t.db
    .update(orders)
    .set({ status, paymentId, paymentMethod: 'mercadopago' })
    .where(eq(orders.id, placed.id))
  return placed
}

/** A ledger row as the payment module writes it, dated `at`. */
async function ledger(payment: LedgerPayment, at: string) {
  await recordLedgerPayment(t.db, payment)
  await t.db
    .update(payments)
    .set({ createdAt: new Date(at), updatedAt: new Date(at) })
    .where(
      and(eq(payments.provider, payment.provider), eq(payments.providerPaymentId, payment.providerPaymentId)),
    )
}

const MAY: PaymentFilters = { from: '2033-05-01', to: '2033-05-31', provider: 'todos' }

type Orders = {
  once: Awaited<ReturnType<typeof order>>
  twice: Awaited<ReturnType<typeof order>>
  cancelled: Awaited<ReturnType<typeof order>>
  transfer: Awaited<ReturnType<typeof order>>
}
let o: Orders

beforeAll(async () => {
  o = {
    once: await order('pagado', 'mp-1'),
    // The order follows its second payment: the first one is the extra.
    twice: await order('pagado', 'mp-3'),
    cancelled: await order('cancelado'),
    transfer: await order('pagado', 'transferencia-x'),
  }
  const base = { method: 'account_money', status: 'approved', amount: 4_500_000 }
  await ledger(
    { ...base, provider: 'mercadopago', providerPaymentId: 'mp-1', orderId: o.once.id, fee: 150_000 },
    '2033-05-10T15:00:00Z',
  )
  // A rejected try before the payment that went through: never flagged.
  await ledger(
    { ...base, provider: 'mercadopago', providerPaymentId: 'mp-0', orderId: o.once.id, status: 'rejected' },
    '2033-05-10T14:00:00Z',
  )
  await ledger(
    { ...base, provider: 'mercadopago', providerPaymentId: 'mp-2', orderId: o.twice.id, fee: 150_000 },
    '2033-05-11T15:00:00Z',
  )
  await ledger(
    { ...base, provider: 'wompi', providerPaymentId: 'mp-3', orderId: o.twice.id, method: 'NEQUI' },
    '2033-05-11T15:05:00Z',
  )
  await ledger(
    {
      ...base,
      provider: 'wompi',
      providerPaymentId: 'wp-1',
      orderId: o.cancelled.id,
      method: 'PSE',
      fee: 90_000,
    },
    // 23:30 on 31 May in Bogotá, already 1 June in UTC: still May's.
    '2033-06-01T04:30:00Z',
  )
  await ledger(
    {
      provider: 'transferencia',
      providerPaymentId: 'transferencia-x',
      orderId: o.transfer.id,
      status: 'approved',
      amount: 4_500_000,
      recordedBy: 'duena@vitrina.test',
    },
    '2033-05-20T15:00:00Z',
  )
  // 23:00 on 30 April in Bogotá (already May in UTC): not May's.
  await ledger(
    {
      ...base,
      provider: 'mercadopago',
      providerPaymentId: 'mp-abril',
      orderId: o.once.id,
      status: 'pending',
    },
    '2033-05-01T04:00:00Z',
  )
})

describe('listPayments', () => {
  test('lists the range by Bogotá day, newest first, with its order, net and flag', async () => {
    const { rows } = await listPayments(t.db, MAY)
    expect(rows.map((row) => row.providerPaymentId)).toEqual([
      'wp-1',
      'transferencia-x',
      'mp-3',
      'mp-2',
      'mp-1',
      'mp-0',
    ])
    const byId = new Map(rows.map((row) => [row.providerPaymentId, row]))
    expect(byId.get('mp-1')).toMatchObject({
      provider: 'mercadopago',
      orderId: o.once.id,
      orderNumber: o.once.number,
      orderStatus: 'pagado',
      method: 'account_money',
      status: 'approved',
      amount: 4_500_000,
      fee: 150_000,
      net: 4_350_000,
      created: '2033-05-10 10:00',
      flag: null,
      refundable: false,
    })
    expect(byId.get('mp-0')).toMatchObject({ status: 'rejected', flag: null })
    // The order names mp-3 as its payment: the earlier approved one is the one paid twice.
    expect(byId.get('mp-2')).toMatchObject({ flag: 'paid-twice', refundable: true })
    expect(byId.get('mp-3')).toMatchObject({ flag: null, fee: null, net: null, method: 'NEQUI' })
    expect(byId.get('wp-1')).toMatchObject({
      flag: 'paid-after-cancel',
      orderStatus: 'cancelado',
      created: '2033-05-31 23:30',
      refundable: true,
    })
    expect(byId.get('transferencia-x')).toMatchObject({ flag: null, refundable: false })
  })

  test('totals the approved payments per provider', async () => {
    const { totals } = await listPayments(t.db, MAY)
    expect(totals).toEqual([
      {
        provider: 'mercadopago',
        label: 'Mercado Pago',
        count: 2,
        amount: 9_000_000,
        fee: 300_000,
        net: 8_700_000,
      },
      { provider: 'wompi', label: 'Wompi', count: 2, amount: 9_000_000, fee: 90_000, net: 8_910_000 },
      {
        provider: 'transferencia',
        label: 'Transferencia',
        count: 1,
        amount: 4_500_000,
        fee: 0,
        net: 4_500_000,
      },
    ])
  })

  test('one provider only still flags against the order’s payments at the others', async () => {
    const { rows, totals } = await listPayments(t.db, { ...MAY, provider: 'mercadopago' })
    expect(rows.map((row) => [row.providerPaymentId, row.flag])).toEqual([
      ['mp-2', 'paid-twice'],
      ['mp-1', null],
      ['mp-0', null],
    ])
    expect(totals.map((total) => total.provider)).toEqual(['mercadopago'])
  })

  test('an order that names none of its approved payments keeps the first one', async () => {
    const unnamed = await order('pagado')
    const base = {
      provider: 'mercadopago' as const,
      orderId: unnamed.id,
      status: 'approved',
      amount: 1_000_00,
    }
    await ledger({ ...base, providerPaymentId: 'un-2' }, '2033-07-02T15:00:00Z')
    await ledger({ ...base, providerPaymentId: 'un-1' }, '2033-07-01T15:00:00Z')
    const { rows } = await listPayments(t.db, { from: '2033-07-01', to: '2033-07-31', provider: 'todos' })
    expect(rows.map((row) => [row.providerPaymentId, row.flag])).toEqual([
      ['un-2', 'paid-twice'],
      ['un-1', null],
    ])
  })

  test('an empty range, and a reversed one, list nothing', async () => {
    expect(
      await listPayments(t.db, { from: '2034-01-01', to: '2034-01-31', provider: 'todos' }),
    ).toMatchObject({
      rows: [],
      totals: [],
    })
    expect((await listPayments(t.db, { ...MAY, from: '2033-06-01' })).rows).toEqual([])
  })
})

describe('paymentFiltersFrom', () => {
  const now = new Date('2033-05-20T15:00:00Z')
  test('reads desde, hasta and proveedor; unreadable values are the month so far and every provider', () => {
    expect(
      paymentFiltersFrom(new URLSearchParams('desde=2033-04-01&hasta=2033-04-30&proveedor=wompi'), now),
    ).toEqual({ from: '2033-04-01', to: '2033-04-30', provider: 'wompi' })
    expect(
      paymentFiltersFrom(new URLSearchParams('desde=2033-02-30&hasta=ayer&proveedor=paypal'), now),
    ).toEqual({ from: '2033-05-01', to: '2033-05-20', provider: 'todos' })
  })
})

describe('startPaymentRefund', () => {
  test('marks a flagged payment requested, enqueues its refund and writes it on the timeline', async () => {
    const jobs = recordingJobQueue()
    const started = await startPaymentRefund(t.db, jobs, {
      provider: 'mercadopago',
      paymentId: 'mp-2',
      by: 'duena@vitrina.test',
    })
    expect(started).toMatchObject({ orderId: o.twice.id, orderNumber: o.twice.number, amount: 4_500_000 })
    expect(started.message).toBe(
      `Reembolso pedido a Mercado Pago: ${formatCOP(4_500_000)} del pedido #${o.twice.number}. El resultado quedará en el pedido.`,
    )
    expect(jobs.sent).toEqual([
      {
        name: 'payment-refund',
        data: { provider: 'mercadopago', paymentId: 'mp-2', orderId: o.twice.id, by: 'duena@vitrina.test' },
      },
    ])
    expect(await readLedgerPayment(t.db, 'mercadopago', 'mp-2')).toMatchObject({
      refundStatus: 'requested',
      refundable: false,
      flag: 'paid-twice',
    })
    const events = await listOrderEvents(t.db, o.twice.id)
    expect(events.find((event) => event.type === 'refund-requested')).toMatchObject({
      createdBy: 'duena@vitrina.test',
      data: { provider: 'mercadopago', paymentId: 'mp-2', flag: 'paid-twice' },
    })

    // A second click finds it asked for: nothing more is enqueued.
    await expect(
      startPaymentRefund(t.db, jobs, { provider: 'mercadopago', paymentId: 'mp-2', by: 'otra@vitrina.test' }),
    ).rejects.toMatchObject({ status: 409, message: PAYMENTS_MESSAGES.alreadyStarted('requested') })
    expect(jobs.sent).toHaveLength(1)
  })

  test('refuses what is not a flagged approved online payment, in Spanish, writing nothing', async () => {
    const jobs = recordingJobQueue()
    const refused = async (provider: 'mercadopago' | 'wompi', paymentId: string) => {
      const error = await startPaymentRefund(t.db, jobs, {
        provider,
        paymentId,
        by: 'duena@vitrina.test',
      }).catch((thrown: unknown) => thrown)
      expect(error).toBeInstanceOf(Refusal)
      return { status: (error as Refusal).status, message: (error as Refusal).message }
    }
    expect(await refused('mercadopago', 'no-existe')).toEqual({
      status: 404,
      message: PAYMENTS_MESSAGES.notFound,
    })
    expect(await refused('mercadopago', 'mp-1')).toEqual({
      status: 409,
      message: PAYMENTS_MESSAGES.notFlagged,
    })
    expect(await refused('mercadopago', 'mp-0')).toEqual({
      status: 409,
      message: PAYMENTS_MESSAGES.notApproved,
    })
    // The id of another provider's payment.
    expect(await refused('wompi', 'mp-2')).toEqual({ status: 404, message: PAYMENTS_MESSAGES.notFound })
    expect(
      await startPaymentRefund(t.db, jobs, {
        provider: 'transferencia' as 'wompi',
        paymentId: 'transferencia-x',
        by: 'duena@vitrina.test',
      }).catch((thrown: Refusal) => thrown.message),
    ).toBe(PAYMENTS_MESSAGES.byHand)
    expect(jobs.sent).toEqual([])
    expect(await readLedgerPayment(t.db, 'mercadopago', 'mp-1')).toMatchObject({ refundStatus: null })
  })

  test('the payment of a cancelled order can be refunded too', async () => {
    const jobs = recordingJobQueue()
    await startPaymentRefund(t.db, jobs, { provider: 'wompi', paymentId: 'wp-1', by: 'duena@vitrina.test' })
    expect(jobs.sent).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ provider: 'wompi', paymentId: 'wp-1' }) }),
    ])
  })
})

test('the CSV has every payment, its flag and refund, then the totals per provider', async () => {
  const csv = (await paymentsCsv(t.db, MAY))!
  const lines = csv.replace(/^\uFEFF/, '').split('\r\n')
  expect(lines[0]).toBe(
    'Fecha;Actualizado;Pedido;Estado del pedido;Proveedor;Id del pago;Medio;Estado;Monto;Comisión;Neto;Revisar;Reembolso',
  )
  expect(lines).toContain(
    `2033-05-10 10:00;2033-05-10 10:00;${o.once.number};pagado;Mercado Pago;mp-1;Dinero en cuenta;Aprobado;45000,00;1500,00;43500,00;;`,
  )
  expect(lines).toContain(
    `2033-05-11 10:00;2033-05-11 10:00;${o.twice.number};pagado;Mercado Pago;mp-2;Dinero en cuenta;Aprobado;45000,00;1500,00;43500,00;${PAYMENT_FLAG_MESSAGES['paid-twice']};Reembolso pedido`,
  )
  expect(lines).toContain(
    '2033-05-01 a 2033-05-31;;;;Mercado Pago;Total aprobados: 2;;;90000,00;3000,00;87000,00;;',
  )
  expect(await paymentsCsv(t.db, { ...MAY, from: '2033-06-01' })).toBeNull()
})
