import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { recordingJobQueue } from '#app/jobs/jobs.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { placeTestOrder, stockedProduct, stockOf } from '#tests/orders.ts'
import { CLAIM_MESSAGES } from './claims.ts'
import { completeOrder } from './complete.server.ts'
import { acceptClaim, refuseClaim } from './decide-claim.server.ts'
import { getOrder, listOrderEvents } from './order.server.ts'
import {
  claimsOf,
  requestRetracto,
  requestReversal,
  retractoOption,
  reversalOption,
} from './request-claim.server.ts'
import { products } from '#app/modules/catalog/schema.ts'
import { orderItems, orders } from './schema.ts'

/**
 * The buyer's withdrawal (5 business days from delivery) and payment reversal (5 business days from
 * learning of the cause), and the shop's answer to each (Ley 1480 de 2011, arts. 47 and 51).
 */

const t = setupTestDatabase()
let jobs = recordingJobQueue()
beforeEach(() => {
  jobs = recordingJobQueue()
})
const notices = () => ({ jobs, notifyNumbers: ['573001112233'] })

/** Bogotá noon of a day, as an instant. */
const at = (day: string) => new Date(`${day}T12:00:00-05:00`)

/** A delivered cash-on-delivery order of 2 units, delivered on `deliveredDay`. */
async function deliveredOrder(deliveredDay: string, paymentMethod: 'acordar' | 'mercadopago' = 'acordar') {
  const product = await stockedProduct(t.db, 5)
  const placed = await placeTestOrder(t.db, {
    sku: product.sku,
    quantity: 2,
    paymentMethod,
    phone: `300${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
  })
  if (paymentMethod === 'mercadopago') {
    await t.db.update(orders).set({ paymentId: 'pago-1', status: 'pagado' }).where(eq(orders.id, placed.id))
  }
  await completeOrder(t.db, jobs, placed.id, 'duena@vitrina.test')
  await t.db
    .update(orders)
    .set({ deliveredAt: at(deliveredDay) })
    .where(eq(orders.id, placed.id))
  return { id: placed.id, sku: product.sku }
}

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (thrown) {
    return (thrown as Error).message
  }
  throw new Error('no fue rechazada')
}

describe('derecho de retracto', () => {
  test('on the 5th business day after delivery (a holiday in between) it is taken; on the 6th it is not', async () => {
    // Delivered Friday 4 December 2026: Mon 7, (Tue 8 is a holiday), Wed 9, Thu 10, Fri 11, Mon 14.
    const onTime = await deliveredOrder('2026-12-04')
    const claim = await requestRetracto(t.db, notices(), {
      orderId: onTime.id,
      description: 'No me quedó bien',
      now: at('2026-12-14'),
    })
    expect(claim).toMatchObject({ kind: 'retracto', status: 'pendiente', deadline: '2027-01-13' })
    expect(jobs.sent.filter((job) => job.name === 'order-claim-notice')).toEqual([
      { name: 'order-claim-notice', data: { claimId: claim.id, to: '573001112233' } },
    ])
    const events = await listOrderEvents(t.db, onTime.id)
    expect(events.at(-1)).toMatchObject({
      type: 'claim-retracto',
      createdBy: 'cliente',
      message: 'Derecho de retracto solicitado por el cliente. Plazo de la tienda: 13 de enero de 2027.',
    })

    const late = await deliveredOrder('2026-12-04')
    expect(
      await refusalOf(
        requestRetracto(t.db, notices(), { orderId: late.id, description: '', now: at('2026-12-15') }),
      ),
    ).toBe(CLAIM_MESSAGES.retractoExpired('2026-12-14'))
    expect(await claimsOf(t.db, late.id)).toEqual([])
  })

  test('a personal-use good sold as such has no withdrawal, even if the product changes later', async () => {
    const product = await stockedProduct(t.db, 3)
    await t.db.update(products).set({ personalUse: true }).where(eq(products.sku, product.sku))
    const placed = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    // The line keeps what the product was when sold: unticking it now does not open a withdrawal.
    await t.db.update(products).set({ personalUse: false }).where(eq(products.sku, product.sku))
    const [line] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, placed.id))
    expect(line!.personalUse).toBe(true)
    await completeOrder(t.db, jobs, placed.id, 'duena@vitrina.test')
    await t.db
      .update(orders)
      .set({ deliveredAt: at('2026-12-04') })
      .where(eq(orders.id, placed.id))
    expect(
      await refusalOf(
        requestRetracto(t.db, notices(), { orderId: placed.id, description: '', now: at('2026-12-07') }),
      ),
    ).toBe(CLAIM_MESSAGES.personalUse)
    expect(await claimsOf(t.db, placed.id)).toEqual([])
  })

  test('an order with personal-use lines and others: the withdrawal is open and names what it leaves out', async () => {
    const order = await deliveredOrder('2026-12-04')
    await t.db.insert(orderItems).values({
      orderId: order.id,
      productSku: 'aretes-personal',
      title: 'Aretes de plata',
      quantity: 1,
      unitPrice: 5_000_000,
      personalUse: true,
    })
    const delivered = (await getOrder(t.db, order.id))!
    expect(retractoOption(delivered, delivered.items, at('2026-12-07'))).toEqual({
      open: true,
      lastDay: '2026-12-14',
    })
    const claim = await requestRetracto(t.db, notices(), {
      orderId: order.id,
      description: 'No me gustó',
      now: at('2026-12-07'),
    })
    expect(claim.description).toBe(`No me gustó ${CLAIM_MESSAGES.personalUseItems(['Aretes de plata'])}`)
  })

  test('an order not delivered yet, or one with a request open, cannot be withdrawn', async () => {
    const product = await stockedProduct(t.db, 3)
    const placed = await placeTestOrder(t.db, { sku: product.sku, quantity: 1 })
    expect(await refusalOf(requestRetracto(t.db, notices(), { orderId: placed.id, description: '' }))).toBe(
      CLAIM_MESSAGES.notDelivered,
    )
    const delivered = await deliveredOrder('2026-12-04')
    await requestRetracto(t.db, notices(), { orderId: delivered.id, description: '', now: at('2026-12-07') })
    expect(
      await refusalOf(
        requestRetracto(t.db, notices(), { orderId: delivered.id, description: '', now: at('2026-12-07') }),
      ),
    ).toBe(CLAIM_MESSAGES.alreadyOpen)
  })

  test('accepted for cash on delivery: the order is cancelled, its units come back, the refund is written down', async () => {
    const order = await deliveredOrder('2026-12-04')
    const before = await stockOf(t.db, order.sku)
    const claim = await requestRetracto(t.db, notices(), {
      orderId: order.id,
      description: '',
      now: at('2026-12-09'),
    })
    expect(
      await refusalOf(
        acceptClaim(t.db, jobs, { claimId: claim.id, by: 'duena@vitrina.test', refundNote: ' ' }),
      ),
    ).toBe(CLAIM_MESSAGES.refundRequired)
    await acceptClaim(t.db, jobs, { claimId: claim.id, by: 'duena@vitrina.test', refundNote: 'Nequi 10/12' })
    expect((await getOrder(t.db, order.id))?.status).toBe('cancelado')
    const after = await stockOf(t.db, order.sku)
    expect(after.stock).toBe(before.stock + 2)
    expect(after.ledger.at(-1)).toMatchObject({ type: 'in', quantity: 2 })
    expect((await claimsOf(t.db, order.id))[0]).toMatchObject({
      status: 'aceptada',
      decidedBy: 'duena@vitrina.test',
      decisionNote: 'Nequi 10/12',
    })
    expect(jobs.sent.filter((job) => job.name === 'order-refund')).toEqual([])
    expect(await refusalOf(acceptClaim(t.db, jobs, { claimId: claim.id, by: 'x', refundNote: 'y' }))).toBe(
      CLAIM_MESSAGES.alreadyDecided,
    )
  })

  test('accepted for an online payment: the refund is a Mercado Pago job in the same transaction', async () => {
    const order = await deliveredOrder('2026-12-04', 'mercadopago')
    const claim = await requestRetracto(t.db, notices(), {
      orderId: order.id,
      description: '',
      now: at('2026-12-09'),
    })
    await acceptClaim(t.db, jobs, { claimId: claim.id, by: 'duena@vitrina.test', refundNote: '' })
    expect(jobs.sent.filter((job) => job.name === 'order-refund')).toEqual([
      expect.objectContaining({ data: { orderId: order.id, claimId: claim.id } }),
    ])
  })

  test('refused with a reason the buyer reads; the order stays as it was', async () => {
    const order = await deliveredOrder('2026-12-04')
    const claim = await requestRetracto(t.db, notices(), {
      orderId: order.id,
      description: '',
      now: at('2026-12-09'),
    })
    expect(
      await refusalOf(refuseClaim(t.db, { claimId: claim.id, by: 'duena@vitrina.test', reason: '  ' })),
    ).toBe(CLAIM_MESSAGES.reasonRequired)
    await refuseClaim(t.db, {
      claimId: claim.id,
      by: 'duena@vitrina.test',
      reason: 'El producto llegó usado.',
    })
    expect((await getOrder(t.db, order.id))?.status).toBe('Completado')
    expect((await claimsOf(t.db, order.id))[0]).toMatchObject({
      status: 'rechazada',
      decisionNote: 'El producto llegó usado',
    })
    // Answered, the order may be asked again while the term lasts.
    await requestRetracto(t.db, notices(), { orderId: order.id, description: '', now: at('2026-12-10') })
  })
})

describe('reversión del pago', () => {
  test('asked within 5 business days of learning the cause, for an online payment; the owner is told at once', async () => {
    const order = await deliveredOrder('2026-12-04', 'mercadopago')
    const claim = await requestReversal(t.db, notices(), {
      orderId: order.id,
      cause: 'defectuoso',
      learnedOn: '2026-12-04',
      description: 'Llegó roto',
      now: at('2026-12-11'),
    })
    expect(claim).toMatchObject({ kind: 'reversion', cause: 'defectuoso', learnedOn: '2026-12-04' })
    // 15 business days from Friday 11 December 2026 (8 Dec, 25 Dec and 1 Jan are holidays).
    expect(claim.deadline).toBe('2027-01-05')
    expect(jobs.sent.map((job) => job.name)).toContain('order-claim-notice')
  })

  test('refused past its term, before the order, in the future, without a cause, or for cash on delivery', async () => {
    const order = await deliveredOrder('2026-12-04', 'mercadopago')
    const ask = (fields: { cause?: string; learnedOn?: string; now?: Date }) =>
      refusalOf(
        requestReversal(t.db, notices(), {
          orderId: order.id,
          cause: fields.cause ?? 'no-recibido',
          learnedOn: fields.learnedOn ?? '2026-12-04',
          description: '',
          now: fields.now ?? at('2026-12-15'),
        }),
      )
    expect(await ask({})).toBe(CLAIM_MESSAGES.reversalExpired('2026-12-14'))
    expect(await ask({ learnedOn: '2020-01-01' })).toBe(CLAIM_MESSAGES.learnedOnInvalid)
    expect(await ask({ learnedOn: '2026-12-16' })).toBe(CLAIM_MESSAGES.learnedOnInvalid)
    expect(await ask({ learnedOn: 'ayer' })).toBe(CLAIM_MESSAGES.learnedOnInvalid)
    expect(await ask({ cause: 'capricho' })).toBe(CLAIM_MESSAGES.causeRequired)
    const cash = await deliveredOrder('2026-12-04')
    expect(
      await refusalOf(
        requestReversal(t.db, notices(), {
          orderId: cash.id,
          cause: 'fraude',
          learnedOn: '2026-12-04',
          description: '',
          now: at('2026-12-07'),
        }),
      ),
    ).toBe(CLAIM_MESSAGES.notOnline)
  })
})

test('the destination names a department once, even when the municipality carries it', async () => {
  const { destinationOf } = await import('./buyer-page.server.ts')
  expect(destinationOf('Carrera 7 # 8-9', 'Bogotá, D.C.', 'Bogotá D.C.')).toBe(
    'Carrera 7 # 8-9, Bogotá, D.C.',
  )
  expect(destinationOf('Calle 1', 'Medellín', 'Antioquia')).toBe('Calle 1, Medellín, Antioquia')
  expect(destinationOf('Calle 1', '', 'Antioquia')).toBe('Calle 1, Antioquia')
})

test('a cancelled order offers neither right, and says why', async () => {
  const order = await deliveredOrder('2026-12-04', 'mercadopago')
  const claim = await requestRetracto(t.db, notices(), {
    orderId: order.id,
    description: '',
    now: at('2026-12-07'),
  })
  await acceptClaim(t.db, jobs, { claimId: claim.id, by: 'duena@vitrina.test', refundNote: '' })
  const cancelled = (await getOrder(t.db, order.id))!
  expect(retractoOption(cancelled, cancelled.items, at('2026-12-07'))).toEqual({
    open: false,
    reason: CLAIM_MESSAGES.cancelled,
  })
  expect(reversalOption(cancelled)).toEqual({ open: false, reason: CLAIM_MESSAGES.cancelled })
})
