import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, test } from 'vitest'
import { CheckoutRefused, placeOrder, type CheckoutContext } from '#app/modules/checkout/checkout.server.ts'
import { cancelOrder } from '#app/modules/order/cancel.server.ts'
import { orderDiscounts, orderItems, orders } from '#app/modules/order/schema.ts'
import { setupTestDatabase, usingPostgres } from '#tests/db.ts'
import { createCategory, createProduct } from '#tests/factories.ts'
import { clearJobs, setupJobQueue } from '#tests/jobs.ts'
import { ANA, LOOSE_HOLD_LIMITS } from '#tests/orders.ts'
import { createPromotion } from '#tests/promotions.ts'
import { CHECKOUT_MESSAGES } from '#app/modules/checkout/messages.ts'
import { CODE_MESSAGES } from './messages.ts'
import { pricingLinesOf, quotePromotions } from './promotions.server.ts'
import { promotions } from './schema.ts'

const t = setupTestDatabase()
const jobs = setupJobQueue(() => t.database)

const ctx = (): CheckoutContext => ({
  db: t.db,
  jobs: jobs.queue,
  shipping: { shippingCost: 8_000_00, freeShippingThreshold: 300_000_00 },
  notifyNumbers: [],
  onlinePayments: { mercadopago: true, wompi: true },
  holdLimits: LOOSE_HOLD_LIMITS,
})

const NOW = new Date('2026-11-27T15:00:00Z')
const HOUR = 3_600_000

beforeEach(async () => {
  await clearJobs(t.database)
  // Each test sets up the promotions it counts on; automatic ones would reach every cart.
  await t.db.update(promotions).set({ active: false })
})

async function quote(lines: { sku: string; quantity: number }[], code: string | null, extra = {}) {
  return quotePromotions(t.db, {
    lines: await pricingLinesOf(t.db, lines),
    shipping: 8_000_00,
    code,
    now: NOW,
    ...extra,
  })
}

describe('a typed code', () => {
  test('applies, in upper case, with its name on each line it took from', async () => {
    const product = await createProduct(t.db, { pesos: 40_000 })
    const promo = await createPromotion(t.db, { name: 'Cupón de Laura', code: 'LAURA10', percent: 10 })
    const { pricing, code, codeRefusal } = await quote([{ sku: product.sku, quantity: 2 }], ' laura10 ')
    expect(code).toBe('LAURA10')
    expect(codeRefusal).toBeNull()
    expect(pricing.discounts).toEqual([
      {
        promotionId: promo.id,
        name: 'Cupón de Laura',
        code: 'LAURA10',
        productSku: product.sku,
        amount: 8_000_00,
      },
    ])
    expect(pricing.total).toBe(80_000_00 + 8_000_00 - 8_000_00)
  })

  test('each refusal in the shopper’s words', async () => {
    const product = await createProduct(t.db, { pesos: 40_000 })
    const other = await createCategory(t.db)
    await createPromotion(t.db, { code: 'PAUSADO', active: false })
    await createPromotion(t.db, { code: 'FUTURO', startsAt: new Date(NOW.getTime() + 2 * HOUR) })
    await createPromotion(t.db, { code: 'VENCIDO', endsAt: new Date(NOW.getTime() - HOUR) })
    await createPromotion(t.db, { code: 'MINIMO', minSubtotal: 100_000_00 })
    await createPromotion(t.db, { code: 'OTROS', target: 'products', categoryIds: [other.id] })
    const lines = [{ sku: product.sku, quantity: 1 }]
    const refusal = async (code: string) => (await quote(lines, code)).codeRefusal
    expect(await refusal('NOEXISTE')).toBe(CODE_MESSAGES.unknown('NOEXISTE'))
    expect(await refusal('pausado')).toBe(CODE_MESSAGES.unknown('PAUSADO'))
    expect(await refusal('A\u0000B')).toBe(CODE_MESSAGES.unknown('AB'))
    expect(await refusal('FUTURO')).toBe(
      'El código FUTURO empieza a valer el 27 de noviembre de 2026 a las 12:00 p. m.',
    )
    expect(await refusal('VENCIDO')).toBe(
      'El código VENCIDO venció el 27 de noviembre de 2026 a las 9:00 a. m.',
    )
    expect(await refusal('MINIMO')).toBe(
      'El código MINIMO vale en compras desde $\u00a0100.000,00: te faltan $\u00a060.000,00.',
    )
    expect(await refusal('OTROS')).toBe(CODE_MESSAGES.products('OTROS'))
    expect(await refusal('X'.repeat(41))).toBe(CODE_MESSAGES.tooLong)
  })

  test('an exclusive code beaten by a better exclusive automatic promotion says so', async () => {
    const product = await createProduct(t.db, { pesos: 40_000 })
    await createPromotion(t.db, { name: 'Black Friday', percent: 30 })
    await createPromotion(t.db, { code: 'POQUITO', percent: 5 })
    const { pricing, codeRefusal } = await quote([{ sku: product.sku, quantity: 1 }], 'POQUITO')
    expect(codeRefusal).toBe(CODE_MESSAGES.beaten('POQUITO', 'Black Friday'))
    expect(pricing.discount).toBe(12_000_00)
  })
})

describe('orders priced with promotions', () => {
  test('the order keeps each discount per line and on shipping, and its total is what it charges', async () => {
    const category = await createCategory(t.db)
    const collar = await createProduct(t.db, { pesos: 45_000, categoryIds: [category.id] })
    const aretes = await createProduct(t.db, { pesos: 20_000 })
    const auto = await createPromotion(t.db, {
      name: 'Semana de collares',
      target: 'products',
      categoryIds: [category.id],
      percent: 20,
      combinable: true,
    })
    const code = await createPromotion(t.db, {
      name: 'Envío gratis',
      code: 'ENVIOGRATIS',
      target: 'shipping',
      percent: 100,
      combinable: true,
    })
    const { order } = await placeOrder(ctx(), {
      lines: [
        { sku: collar.sku, quantity: 2 },
        { sku: aretes.sku, quantity: 1 },
      ],
      customer: { ...ANA, discount_code: 'envioGratis' },
    })
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order.id))
    // 90.000 + 20.000; 20 % of the collares = 18.000; shipping 8.000 free.
    expect(row).toMatchObject({
      subtotal: 110_000_00,
      shippingCost: 8_000_00,
      discount: 26_000_00,
      total: 92_000_00,
    })
    expect(order.total).toBe(92_000_00)
    const items = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order.id))
    expect(Object.fromEntries(items.map((item) => [item.productSku, item.discount]))).toEqual({
      [collar.sku]: 18_000_00,
      [aretes.sku]: 0,
    })
    const kept = await t.db.select().from(orderDiscounts).where(eq(orderDiscounts.orderId, order.id))
    expect(
      kept.map(({ promotionId, name, code, productSku, amount }) => ({
        promotionId,
        name,
        code,
        productSku,
        amount,
      })),
    ).toEqual([
      {
        promotionId: auto.id,
        name: 'Semana de collares',
        code: null,
        productSku: collar.sku,
        amount: 18_000_00,
      },
      { promotionId: code.id, name: 'Envío gratis', code: 'ENVIOGRATIS', productSku: null, amount: 8_000_00 },
    ])
    // Later changes to the promotion never reach the placed order.
    await t.db.update(promotions).set({ name: 'Otro nombre', percent: 50 }).where(eq(promotions.id, auto.id))
    const [again] = await t.db.select().from(orders).where(eq(orders.id, order.id))
    expect(again!.total).toBe(92_000_00)
  })

  test('a refused code refuses the order beside its field and leaves nothing behind', async () => {
    const product = await createProduct(t.db, { pesos: 40_000, stock: 3 })
    const before = await t.db.select().from(orders)
    const attempt = placeOrder(ctx(), {
      lines: [{ sku: product.sku, quantity: 1 }],
      customer: { ...ANA, discount_code: 'NOEXISTE' },
    })
    await expect(attempt).rejects.toBeInstanceOf(CheckoutRefused)
    const refused = await attempt.catch((error: CheckoutRefused) => error.errors)
    expect(refused).toMatchObject({ fields: { discount_code: CODE_MESSAGES.unknown('NOEXISTE') } })
    expect(await t.db.select().from(orders)).toHaveLength(before.length)
  })

  test('the order charges the total the page showed, or is refused with the new one', async () => {
    const product = await createProduct(t.db, { pesos: 40_000, stock: 5 })
    const promo = await createPromotion(t.db, { name: 'Relámpago', percent: 10 })
    const order = (expectedTotal: number, discount_code = '') =>
      placeOrder(ctx(), {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer: { ...ANA, discount_code },
        expectedTotal,
      })
    // The page showed 36.000 + 8.000; the promotion ended meanwhile: 48.000 now.
    await t.db.update(promotions).set({ active: false }).where(eq(promotions.id, promo.id))
    await expect(order(44_000_00)).rejects.toThrow(CHECKOUT_MESSAGES.totalChanged('$\u00a048.000,00'))
    // A code the page already showed as giving nothing: the shopper confirmed the total without it.
    await expect(order(48_000_00, 'NOEXISTE')).resolves.toMatchObject({ order: { total: 48_000_00 } })
  })

  test('an order with nothing left to pay is not sent to an online payment', async () => {
    const product = await createProduct(t.db, { pesos: 40_000, stock: 5 })
    await createPromotion(t.db, { name: 'Envío gratis', target: 'shipping', percent: 100, combinable: true })
    await createPromotion(t.db, { code: 'REGALO', percent: 100, combinable: true })
    const order = (payment_method: 'mercadopago' | 'acordar') =>
      placeOrder(ctx(), {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer: { ...ANA, payment_method, discount_code: 'REGALO' },
      })
    await expect(order('mercadopago')).rejects.toThrow(CHECKOUT_MESSAGES.nothingToPayOnline)
    await expect(order('acordar')).resolves.toMatchObject({ order: { total: 0 } })
  })

  test('uses per customer count the same phone or e-mail; a cancelled order gives its use back', async () => {
    const product = await createProduct(t.db, { pesos: 40_000, stock: 10 })
    await createPromotion(t.db, { code: 'UNAVEZ', maxUsesPerCustomer: 1 })
    const buy = (customer: typeof ANA) =>
      placeOrder(ctx(), {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer: { ...customer, discount_code: 'UNAVEZ' },
      })
    const first = await buy(ANA)
    await expect(buy({ ...ANA, phone: '3009998877' })).rejects.toThrow(CODE_MESSAGES.usedByCustomer('UNAVEZ'))
    await expect(buy({ ...ANA, email: 'otra@example.com' })).rejects.toThrow(
      CODE_MESSAGES.usedByCustomer('UNAVEZ'),
    )
    await cancelOrder(t.db, jobs.queue, first.order.id, 'prueba')
    await expect(buy(ANA)).resolves.toMatchObject({ created: true })
  })
})

test(`the last use of a code goes to one order of 8 at once (${usingPostgres() ? 'PostgreSQL pool' : 'PGlite'})`, async () => {
  const product = await createProduct(t.db, { pesos: 40_000, stock: 20 })
  const promo = await createPromotion(t.db, { code: 'ULTIMO', maxUses: 1 })
  const results = await Promise.allSettled(
    Array.from({ length: 8 }, (_, index) =>
      placeOrder(ctx(), {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer: {
          ...ANA,
          phone: `30012345${String(index).padStart(2, '0')}`,
          email: '',
          discount_code: 'ULTIMO',
        },
      }),
    ),
  )
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
  for (const result of results) {
    if (result.status === 'rejected') expect(String(result.reason)).toContain(CODE_MESSAGES.usedUp('ULTIMO'))
  }
  const used = await t.db.select().from(orderDiscounts).where(eq(orderDiscounts.promotionId, promo.id))
  expect(used).toHaveLength(1)
})

test(`an automatic promotion's last use goes to one order of 8 at once (${usingPostgres() ? 'PostgreSQL pool' : 'PGlite'})`, async () => {
  const category = await createCategory(t.db)
  const product = await createProduct(t.db, { pesos: 40_000, stock: 20, categoryIds: [category.id] })
  const promo = await createPromotion(t.db, { target: 'products', categoryIds: [category.id], maxUses: 2 })
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      placeOrder(ctx(), {
        lines: [{ sku: product.sku, quantity: 1 }],
        customer: { ...ANA, phone: `30112345${String(index).padStart(2, '0')}`, email: '' },
      }),
    ),
  )
  const discounted = results.filter((result) => result.order.total === 36_000_00 + 8_000_00)
  expect(discounted).toHaveLength(2)
  expect(results.filter((result) => result.order.total === 40_000_00 + 8_000_00)).toHaveLength(6)
  const used = await t.db.select().from(orderDiscounts).where(eq(orderDiscounts.promotionId, promo.id))
  expect(used).toHaveLength(2)
})
