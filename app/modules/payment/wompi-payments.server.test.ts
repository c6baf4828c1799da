import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getOrder, listOrderEvents } from '#app/modules/order/order.server.ts'
import { orders } from '#app/modules/order/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { clearJobs, queuedJobs, setupJobQueue } from '#tests/jobs.ts'
import { placeDiscountedOrder } from '#tests/discounted-orders.ts'
import { placeTestOrder, stockedProduct } from '#tests/orders.ts'
import { standInForFile } from '#tests/stand-ins/for-file.ts'
import { startWompiStandIn } from '#tests/stand-ins/wompi.ts'
import {
  expireUnpaidOnlineOrders,
  processPaymentNotification,
  settleReturnedPayment,
  startOnlinePayment,
  type PaymentDeps,
} from './payment.server.ts'
import { chargedAmount, noOnlinePayments } from './provider.ts'
import { payments } from './schema.ts'
import { receiveWompiEvent } from './webhook.server.ts'
import { wompiCheckoutUrl, wompiProvider } from './wompi.server.ts'
import { refusedUrl } from '#tests/stand-ins/http.ts'

/**
 * Wompi end to end against the local Wompi: the checkout's signed link is one Wompi's page takes;
 * its signed event is remembered once and its job reads the transaction from the API before the
 * order is settled (approved → pagado, declined → still pending, pending stays); forged, replayed
 * and out-of-order events change nothing; the return page settles what the API says; the
 * unpaid-order expiry asks Wompi first; and the ledger keeps every transaction.
 */

const t = setupTestDatabase()
const jobs = setupJobQueue(() => t.database)
const wompi = standInForFile(startWompiStandIn)
const ORIGIN = 'https://tienda.example.co'

const deps = (): PaymentDeps => ({
  db: t.db,
  jobs: jobs.queue,
  providers: {
    mercadopago: noOnlinePayments,
    wompi: wompiProvider({ baseUrl: wompi().url, checkoutUrl: wompi().checkoutUrl, ...wompi().keys }),
  },
  paymentTimeoutHours: 24,
})

async function wompiOrder() {
  const product = await stockedProduct(t.db, 5)
  const order = await placeTestOrder(t.db, { sku: product.sku, quantity: 2, paymentMethod: 'wompi' })
  const link = await startOnlinePayment(deps(), order.id, ORIGIN, { cancelOnFailure: true })
  return { order: (await getOrder(t.db, order.id))!, link }
}

const eventRequest = (body: unknown) =>
  new Request(`${ORIGIN}/api/webhooks/wompi`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })

/** Posts the event to our endpoint, then runs the job it queued (as the worker would). */
async function deliver(body: unknown) {
  const answer = await receiveWompiEvent(deps(), wompi().keys.eventsSecret, eventRequest(body))
  const queued = await queuedJobs<{ eventId: string; paymentId: string; provider: 'wompi' }>(
    t.database,
    'payment-notification',
  )
  await clearJobs(t.database)
  const outcomes = []
  for (const job of queued) outcomes.push(await processPaymentNotification(deps(), job))
  return { answer, outcomes }
}

const ledgerOf = (orderId: string) => t.db.select().from(payments).where(eq(payments.orderId, orderId))

describe('the Wompi checkout', () => {
  test('the link is signed for the order and its whole-peso amount, and Wompi’s page takes it', async () => {
    const { order, link } = await wompiOrder()
    const query = new URL(link).searchParams
    expect(link.startsWith(wompi().checkoutUrl)).toBe(true)
    expect(query.get('reference')).toBe(order.id)
    expect(Number(query.get('amount-in-cents'))).toBe(chargedAmount(order))
    expect(query.get('redirect-url')).toBe(`${ORIGIN}/finalizar-pedido/wompi?pedido=${order.id}`)
    // The link stops before the order expires (24 h), so nobody pays for released units.
    expect(Date.parse(query.get('expiration-time')!)).toBeLessThan(order.createdAt.getTime() + 24 * 3_600_000)
    expect(() => wompi().pay(link, 'APPROVED')).not.toThrow()
    const events = await listOrderEvents(t.db, order.id)
    expect(events.map((event) => event.message)).toContain('Pago iniciado en Wompi.')
  })

  test('an order with promotions is charged its discounted total, and paying it settles the order', async () => {
    const placed = await placeDiscountedOrder(t.db, { paymentMethod: 'wompi', phone: '3005550102' })
    const link = await startOnlinePayment(deps(), placed.id, ORIGIN, { cancelOnFailure: true })
    expect(Number(new URL(link).searchParams.get('amount-in-cents'))).toBe(106_000_00)
    const { transaction } = wompi().pay(link, 'APPROVED')
    expect((await deliver(wompi().eventFor(transaction))).outcomes).toEqual(['paid'])
    expect((await getOrder(t.db, placed.id))?.status).toBe('pagado')
  })

  test('approved: the event’s job reads the transaction and the order is paid, in the ledger with its method', async () => {
    const { order, link } = await wompiOrder()
    const { transaction } = wompi().pay(link, 'APPROVED', 'NEQUI')
    const { answer, outcomes } = await deliver(wompi().eventFor(transaction))
    expect(answer).toMatchObject({ status: 200, body: { ok: true, outcome: 'accepted' } })
    expect(outcomes).toEqual(['paid'])
    const paid = (await getOrder(t.db, order.id))!
    expect(paid).toMatchObject({ status: 'pagado', paymentId: transaction.id, paymentStatus: 'approved' })
    expect((await listOrderEvents(t.db, order.id)).map((event) => event.message)).toContain(
      `Pago aprobado en Wompi (pago ${transaction.id}).`,
    )
    expect(await ledgerOf(order.id)).toMatchObject([
      {
        provider: 'wompi',
        providerPaymentId: transaction.id,
        method: 'NEQUI',
        status: 'approved',
        amount: chargedAmount(order),
        fee: null,
      },
    ])
    // The job read Wompi's API (the event is only a hint).
    expect(wompi().requests.some((request) => request.path === `/v1/transactions/${transaction.id}`)).toBe(
      true,
    )
  })

  test('declined: the order stays pending with its units, the decline on its timeline', async () => {
    const { order, link } = await wompiOrder()
    const { transaction } = wompi().pay(link, 'DECLINED', 'PSE')
    const { outcomes } = await deliver(wompi().eventFor(transaction))
    expect(outcomes).toEqual(['rejected'])
    expect((await getOrder(t.db, order.id))!.status).toBe('pendiente de pago')
    // Told again (a later event, a reloaded return page): one line on the timeline, not two.
    expect((await deliver(wompi().eventFor(transaction, 1_900_000_000))).outcomes).toEqual(['rejected'])
    expect(
      (await listOrderEvents(t.db, order.id)).filter((event) => event.type === 'payment-rejected'),
    ).toHaveLength(1)
    expect(await ledgerOf(order.id)).toMatchObject([{ status: 'rejected', method: 'PSE' }])
  })

  test('pending stays pending until Wompi settles it; its later event pays the order', async () => {
    const { order, link } = await wompiOrder()
    const { transaction } = wompi().pay(link, 'PENDING', 'PSE')
    expect((await deliver(wompi().eventFor(transaction))).outcomes).toEqual(['pending'])
    expect((await getOrder(t.db, order.id))!.status).toBe('pendiente de pago')
    wompi().settle(transaction.id, 'APPROVED')
    expect((await deliver(wompi().eventFor(transaction, transaction.created_at.length))).outcomes).toEqual([
      'paid',
    ])
    expect((await getOrder(t.db, order.id))!.status).toBe('pagado')
    expect(await ledgerOf(order.id)).toMatchObject([{ status: 'approved' }])
  })

  test('a forged event (wrong checksum, another secret, a changed amount) is refused and leaves nothing', async () => {
    const { order, link } = await wompiOrder()
    const { transaction } = wompi().pay(link, 'APPROVED')
    const event = wompi().eventFor(transaction)
    const tampered = structuredClone(event)
    tampered.data.transaction.amount_in_cents = 100
    const forged = { ...event, signature: { ...event.signature, checksum: 'A'.repeat(64) } }
    for (const body of [tampered, forged]) {
      const { answer, outcomes } = await deliver(body)
      expect(answer.status).toBe(401)
      expect(outcomes).toEqual([])
    }
    const otherSecret = await receiveWompiEvent(deps(), 'otro-secreto', eventRequest(event))
    expect(otherSecret.status).toBe(401)
    expect(await queuedJobs(t.database, 'payment-notification')).toEqual([])
    expect((await getOrder(t.db, order.id))!.status).toBe('pendiente de pago')
  })

  test('a replayed event does nothing more; an old event arriving after the approval changes nothing', async () => {
    const { order, link } = await wompiOrder()
    const { transaction } = wompi().pay(link, 'PENDING')
    const pendingEvent = wompi().eventFor(transaction, 1_700_000_000)
    wompi().settle(transaction.id, 'APPROVED')
    const approvedEvent = wompi().eventFor(transaction, 1_700_000_100)
    expect((await deliver(approvedEvent)).outcomes).toEqual(['paid'])
    // The same approval again: remembered, no job.
    const replay = await deliver(approvedEvent)
    expect(replay.answer.body).toMatchObject({ ok: true, outcome: 'duplicate' })
    expect(replay.outcomes).toEqual([])
    // The pending event, late: its job reads the transaction as it is now (approved, already paid).
    expect((await deliver(pendingEvent)).outcomes).toEqual(['already-paid'])
    expect((await getOrder(t.db, order.id))!.status).toBe('pagado')
    expect((await listOrderEvents(t.db, order.id)).filter((event) => event.type === 'paid')).toHaveLength(1)
  })

  test('a Wompi transaction naming a Mercado Pago order settles nothing', async () => {
    const product = await stockedProduct(t.db, 5)
    const order = await placeTestOrder(t.db, {
      sku: product.sku,
      quantity: 1,
      paymentMethod: 'mercadopago',
    })
    const link = wompiCheckoutUrl(
      { checkoutUrl: wompi().checkoutUrl, ...wompi().keys },
      { reference: order.id, amountInCents: order.total, redirectUrl: `${ORIGIN}/` },
    )
    const { transaction } = wompi().pay(link, 'APPROVED')
    expect((await deliver(wompi().eventFor(transaction))).outcomes).toEqual(['unknown-order'])
    expect((await getOrder(t.db, order.id))!.status).toBe('pendiente de pago')
    expect(await ledgerOf(order.id)).toEqual([])
  })
})

describe('the shopper back from Wompi', () => {
  test('the return settles what Wompi’s API says and names the result page', async () => {
    const approved = await wompiOrder()
    const paid = wompi().pay(approved.link, 'APPROVED').transaction
    expect(await settleReturnedPayment(deps(), 'wompi', approved.order.id, paid.id)).toBe('success')
    expect((await getOrder(t.db, approved.order.id))!.status).toBe('pagado')

    const declined = await wompiOrder()
    const refused = wompi().pay(declined.link, 'DECLINED').transaction
    expect(await settleReturnedPayment(deps(), 'wompi', declined.order.id, refused.id)).toBe('failure')

    const waiting = await wompiOrder()
    const pending = wompi().pay(waiting.link, 'PENDING').transaction
    expect(await settleReturnedPayment(deps(), 'wompi', waiting.order.id, pending.id)).toBe('pending')
    // No transaction named (the shopper closed Wompi's page): pending, nothing asked.
    expect(await settleReturnedPayment(deps(), 'wompi', waiting.order.id, null)).toBe('pending')
  })

  test('an approved transaction of another merchant’s account, naming our order, settles nothing', async () => {
    const { order } = await wompiOrder()
    const theirs = wompi().payAsAnotherMerchant(order.id, chargedAmount(order))
    expect(await settleReturnedPayment(deps(), 'wompi', order.id, theirs.id)).toBe('pending')
    expect((await getOrder(t.db, order.id))!.status).toBe('pendiente de pago')
    expect(await ledgerOf(order.id)).toEqual([])
  })

  test('a transaction of another order does not settle this one', async () => {
    const first = await wompiOrder()
    const second = await wompiOrder()
    const paidFirst = wompi().pay(first.link, 'APPROVED').transaction
    expect(await settleReturnedPayment(deps(), 'wompi', second.order.id, paidFirst.id)).toBe('pending')
    expect((await getOrder(t.db, second.order.id))!.status).toBe('pendiente de pago')
  })
})

describe('expiry', () => {
  test('asks Wompi before cancelling: a lost approval pays the order, no payment cancels it', async () => {
    const lost = await wompiOrder()
    wompi().pay(lost.link, 'APPROVED')
    const unpaid = await wompiOrder()
    const later = new Date(Date.now() + 25 * 3_600_000)
    // Earlier tests' unpaid orders expire too: only these two are looked at here.
    const result = await expireUnpaidOnlineOrders(deps(), 24, later)
    expect(result.paid).toBe(1)
    expect((await getOrder(t.db, lost.order.id))!.status).toBe('pagado')
    expect((await getOrder(t.db, unpaid.order.id))!.status).toBe('cancelado')
  })

  test('a PSE or Nequi payment still pending keeps the order a day past its timeout, then it goes', async () => {
    const { order, link } = await wompiOrder()
    wompi().pay(link, 'PENDING', 'PSE')
    const result = await expireUnpaidOnlineOrders(deps(), 24, new Date(Date.now() + 25 * 3_600_000))
    expect(result.skipped).toBeGreaterThanOrEqual(1)
    expect((await getOrder(t.db, order.id))!.status).toBe('pendiente de pago')
    // A day past the timeout nothing is on its way any more: the units go back.
    await t.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 49 * 3_600_000) })
      .where(eq(orders.id, order.id))
    await expireUnpaidOnlineOrders(deps(), 24)
    expect((await getOrder(t.db, order.id))!.status).toBe('cancelado')
  })

  test('Wompi unreachable: the order waits for the next run, never cancelled blind', async () => {
    const { order } = await wompiOrder()
    const unreachable: PaymentDeps = {
      ...deps(),
      providers: {
        mercadopago: noOnlinePayments,
        wompi: wompiProvider({
          baseUrl: await refusedUrl(),
          checkoutUrl: wompi().checkoutUrl,
          ...wompi().keys,
        }),
      },
    }
    const result = await expireUnpaidOnlineOrders(unreachable, 24, new Date(Date.now() + 25 * 3_600_000))
    expect(result.skipped).toBeGreaterThanOrEqual(1)
    const [row] = await t.db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id))
    expect(row!.status).toBe('pendiente de pago')
  })
})
